// Package everything calls the MCP reference server
// @modelcontextprotocol/server-everything from Go: one typed method for
// each of its tools, prompts and resource templates, on go-sdk's client
// session. mcpgen -client -from wrote mcp_client.go from the server's
// published schemas, which mcp_client.json keeps.
//
//	cs, err := mcp.NewClient(&mcp.Implementation{Name: "app", Version: "1"}, nil).
//		Connect(ctx, &mcp.CommandTransport{Command: exec.Command("npx", "-y", "@modelcontextprotocol/server-everything@2026.8.31", "stdio")}, nil)
//	c := everything.NewClient(cs)
//	weather, err := c.GetStructuredContent(ctx, everything.GetStructuredContentInput{
//		Location: everything.GetStructuredContentInputLocationChicago,
//	})
//
// go generate makes the client again from the saved listing, offline. To
// take what a new version of the server publishes, and to see what
// changed first (as mcpgen -diff says it):
//
//	mcpgen -check -client=. -from="npx -y @modelcontextprotocol/server-everything@VERSION stdio"
//	mcpgen -client=. -from="npx -y @modelcontextprotocol/server-everything@VERSION stdio"
//
// The server lists some tools only to clients that can be asked for
// roots, a sample or input; the client has methods for those too.
package everything

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen -client=. -from=mcp_client.json
