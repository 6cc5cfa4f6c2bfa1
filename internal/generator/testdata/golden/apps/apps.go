// Package apps is an MCP App: a page served as a ui:// resource, with its
// content security policy and border, a tool whose results it shows, and
// a tool only the page may call.
package apps

// viewerHTML is the page; a real app embeds its file with //go:embed.
const viewerHTML = "<!doctype html><title>viewer</title>"

// Viewer shows an article to the user.
//
//mcp:resource uri=ui://apps/viewer csp-connect=https://api.example.com csp-resource=https://cdn.example.com,https://*.fonts.example.com permissions=clipboardWrite border
func Viewer() string { return viewerHTML }

// Plain serves a page with none of the app keys.
//
//mcp:resource uri=ui://apps/plain
func Plain() string { return "<!doctype html><title>plain</title>" }

// ShowArticle shows an article in the viewer.
//
//mcp:tool ui=ui://apps/viewer
func ShowArticle(id int) (string, error) { return "article", nil }

// Refresh reloads the viewer's data; only the page calls it.
//
//mcp:tool ui=ui://apps/viewer visibility=app
func Refresh(id int) (string, error) { return "fresh", nil }
