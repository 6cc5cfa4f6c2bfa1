package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"os"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/gosdk"
	"github.com/mcpgen/mcpgen/runtime/mcpgo"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// serveSDK serves the knowledge base on one of the SDKs mcpgen has
// adapters for: the same tools, prompts and resources, through the SDK's
// own machinery, and with a behind the same authorization gate.
func serveSDK(ctx context.Context, sdk, addr string, a *mcpserver.Auth) error {
	switch sdk {
	case "gosdk":
		srv := gosdk.NewServer(identity, MCPTools()...)
		gosdk.AddPrompts(srv, MCPPrompts()...)
		gosdk.AddResources(srv, MCPResources()...)
		if err := gosdk.AddSkills(srv, MCPSkills()...); err != nil {
			return err
		}
		base.changed = func(uri string) { gosdk.ResourceUpdated(srv, uri) }
		base.added = func(a Article) { gosdk.AddResources(srv, articleResource(a)) }
		if addr == "" {
			return srv.Run(ctx, &mcp.StdioTransport{})
		}
		routes, err := gosdkRoutes(srv, a)
		if err != nil {
			return err
		}
		return serveHTTP(ctx, addr, routes, nil)
	case "mcpgo":
		srv := mcpgo.NewServer(identity, MCPTools()...)
		mcpgo.AddPrompts(srv, MCPPrompts()...)
		mcpgo.AddResources(srv, MCPResources()...)
		if err := mcpgo.AddSkills(srv, MCPSkills()...); err != nil {
			// mcp-go cannot serve skills; the server serves the rest.
			log.Print(err)
		}
		base.changed = func(uri string) { mcpgo.ResourceUpdated(srv, uri) }
		base.added = func(a Article) { mcpgo.AddResources(srv, articleResource(a)) }
		if addr == "" {
			return mcpgoserver.NewStdioServer(srv).Listen(ctx, os.Stdin, os.Stdout)
		}
		routes, err := mcpgoRoutes(srv, a)
		if err != nil {
			return err
		}
		return serveHTTP(ctx, addr, routes, nil)
	}
	return fmt.Errorf("-sdk %q: want builtin, gosdk or mcpgo", sdk)
}

// gosdkRoutes returns the HTTP handlers of srv by path, as builtinRoutes
// does.
func gosdkRoutes(srv *mcp.Server, a *mcpserver.Auth) (map[string]http.Handler, error) {
	h, err := gosdk.HTTPHandler(srv, a, nil)
	if err != nil || a == nil {
		return map[string]http.Handler{"/mcp": h}, err
	}
	m, err := gosdk.MetadataHandler(srv, a)
	if err != nil {
		return nil, err
	}
	return withMetadata(map[string]http.Handler{"/mcp": h}, a, m)
}

// mcpgoRoutes returns the HTTP handlers of srv by path, as builtinRoutes
// does.
func mcpgoRoutes(srv *mcpgoserver.MCPServer, a *mcpserver.Auth) (map[string]http.Handler, error) {
	h, err := mcpgo.HTTPHandler(srv, a)
	if err != nil || a == nil {
		return map[string]http.Handler{"/mcp": h}, err
	}
	m, err := mcpgo.MetadataHandler(srv, a)
	if err != nil {
		return nil, err
	}
	return withMetadata(map[string]http.Handler{"/mcp": h}, a, m)
}
