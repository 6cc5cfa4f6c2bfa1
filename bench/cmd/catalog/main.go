//go:build catalog

// Command catalog serves the 500 tools of bench/catalog in tool search
// mode, pinning compute_list_instances, and, on the built-in server,
// with their groups: over stdio, or over Streamable HTTP at
// http://ADDR/mcp with -http ADDR; on the built-in server, or with -sdk
// gosdk or -sdk mcpgo on the official Go SDK or mark3labs/mcp-go.
// e2e/tsclient/catalog.mjs drives it with the TypeScript client.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/catalog"
	"github.com/mcpgen/mcpgen/runtime/gosdk"
	"github.com/mcpgen/mcpgen/runtime/mcpgo"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

var identity = mcprt.Identity{Name: "catalog", Version: "1.0.0"}

// search is the tool search mode every path serves.
var search = mcpserver.ToolSearch{Index: catalog.MCPSearchIndex(), Pin: []string{"compute_list_instances"}}

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP at http://ADDR/mcp instead of stdio")
	sdk := flag.String("sdk", "builtin", "server to use: builtin, gosdk or mcpgo")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve(ctx, *sdk, *addr); err != nil && !errors.Is(err, context.Canceled) {
		log.Fatal(err)
	}
}

func serve(ctx context.Context, sdk, addr string) error {
	switch sdk {
	case "builtin":
		srv := mcpserver.New(identity, catalog.MCPTools()...)
		srv.Groups, srv.ToolSearch = catalog.MCPGroups(), &search
		if addr == "" {
			return srv.ServeStdio(ctx)
		}
		return serveHTTP(ctx, addr, srv.HTTPHandler())
	case "gosdk":
		srv := gosdk.NewServer(identity, catalog.MCPTools()...)
		gosdk.ToolSearch(srv, search)
		if addr == "" {
			return srv.Run(ctx, &mcp.StdioTransport{})
		}
		h, err := gosdk.HTTPHandler(srv, nil, nil)
		if err != nil {
			return err
		}
		return serveHTTP(ctx, addr, h)
	case "mcpgo":
		srv := mcpgo.NewServer(identity, catalog.MCPTools()...)
		mcpgo.ToolSearch(srv, search)
		if addr == "" {
			return mcpgoserver.NewStdioServer(srv).Listen(ctx, os.Stdin, os.Stdout)
		}
		h, err := mcpgo.HTTPHandler(srv, nil)
		if err != nil {
			return err
		}
		return serveHTTP(ctx, addr, h)
	}
	return fmt.Errorf("-sdk %q: want builtin, gosdk or mcpgo", sdk)
}

// serveHTTP serves h at /mcp on addr until ctx ends.
func serveHTTP(ctx context.Context, addr string, h http.Handler) error {
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: mux}
	go func() {
		<-ctx.Done()
		hs.Close()
	}()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
