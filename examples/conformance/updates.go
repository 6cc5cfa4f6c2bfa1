package main

// TestTriggerResourceUpdate tells the subscribers of a resource, on every
// replica, that it changed, as a server does when its data changes under
// it.
//
//mcp:tool name=test_trigger_resource_update
//mcp:param uri description="The URI of the resource that changed"
func TestTriggerResourceUpdate(uri string) string {
	server.ResourceUpdated(uri)
	return "updated " + uri
}
