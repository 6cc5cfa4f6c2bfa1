package main

import (
	"context"
	"fmt"
	"net/http"
	"os"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/gosdk"
	"github.com/mcpgen/mcpgen/runtime/mcpgo"
)

// serveSDK serves the knowledge base on one of the SDKs mcpgen has
// adapters for: the same tools, prompts and resources, through the SDK's
// own machinery.
func serveSDK(ctx context.Context, sdk, addr string) error {
	switch sdk {
	case "gosdk":
		srv := gosdk.NewServer(identity, MCPTools()...)
		gosdk.AddPrompts(srv, MCPPrompts()...)
		gosdk.AddResources(srv, MCPResources()...)
		base.changed = func(uri string) { gosdk.ResourceUpdated(srv, uri) }
		base.added = func(a Article) { gosdk.AddResources(srv, articleResource(a)) }
		if addr == "" {
			return srv.Run(ctx, &mcp.StdioTransport{})
		}
		return serveHTTP(ctx, addr, map[string]http.Handler{"/mcp": mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)}, nil)
	case "mcpgo":
		srv := mcpgo.NewServer(identity, MCPTools()...)
		mcpgo.AddPrompts(srv, MCPPrompts()...)
		mcpgo.AddResources(srv, MCPResources()...)
		base.changed = func(uri string) { mcpgo.ResourceUpdated(srv, uri) }
		base.added = func(a Article) { mcpgo.AddResources(srv, articleResource(a)) }
		if addr == "" {
			return mcpgoserver.NewStdioServer(srv).Listen(ctx, os.Stdin, os.Stdout)
		}
		return serveHTTP(ctx, addr, map[string]http.Handler{"/mcp": mcpgoserver.NewStreamableHTTPServer(srv)}, nil)
	}
	return fmt.Errorf("-sdk %q: want builtin, gosdk or mcpgo", sdk)
}
