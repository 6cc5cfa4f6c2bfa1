// Package kbclient calls the knowledge base of examples/kb from Go: one
// typed method for each of its tools, prompts and resources, on go-sdk's
// client session. mcpgen -client wrote mcp_client.go from the server's
// declarations; kb is a main package, which no one can import, so the
// client declares its types again.
//
//	cs, err := mcp.NewClient(&mcp.Implementation{Name: "app", Version: "1"}, nil).
//		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://127.0.0.1:8080/mcp"}, nil)
//	c := kbclient.NewClient(cs)
//	found, err := c.SearchArticles(ctx, kbclient.SearchInput{Query: "backup"})
package kbclient

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen -client=. ..
