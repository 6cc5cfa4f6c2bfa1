// Package wire is what every server path of mcpgen shares about the MCP
// wire: the table of protocol revisions and what each publishes, and the
// JSON of descriptors and results as each revision writes them. The
// built-in server and both adapters use it, so a tool looks the same on
// all three.
//
// A server serializes a descriptor once per revision when it is added, and
// then copies bytes:
//
//	d := wire.NewDescriptors(&tool, wire.AppendTool, 0)
//	list = append(list, d.For(rev)...)
//
// A call runs through [CallTool], which bounds the arguments' size and
// turns a panic into an error result; [AppendResult] writes the result for
// the client's revision.
//
// Where to read on: [Revision] and its Has methods for what each revision
// has, tool.go, prompt.go and resource.go for descriptors, result.go for
// results and content, and catalog.go for the prompts and resources the
// adapters keep beside an SDK's server.
package wire
