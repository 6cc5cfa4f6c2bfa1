package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/signal"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/gosdk"
	"github.com/mcpgen/mcpgen/runtime/mcpgo"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

var identity = mcprt.Identity{
	Name:         "basics",
	Version:      "1.0.0",
	Title:        "Basic tools",
	Instructions: "Greets people, adds numbers, sets work item status, processes orders and updates prices.",
}

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP on this address (e.g. 127.0.0.1:8080) instead of stdio")
	sdk := flag.String("sdk", "builtin", "server to use: builtin (mcpgen's own), gosdk (the official Go SDK) or mcpgo (mark3labs/mcp-go)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var err error
	switch *sdk {
	case "builtin":
		err = serveBuiltin(ctx, *addr)
	case "gosdk":
		err = serveGoSDK(ctx, *addr)
	case "mcpgo":
		err = serveMCPGo(ctx, *addr)
	default:
		err = fmt.Errorf("-sdk %q: want builtin, gosdk or mcpgo", *sdk)
	}
	if err != nil {
		log.Fatal(err)
	}
}

func serveBuiltin(ctx context.Context, addr string) error {
	srv := mcpserver.New(identity, MCPTools()...)
	if addr == "" {
		return srv.ServeStdio(ctx)
	}
	return serveHTTP(ctx, addr, srv.HTTPHandler(), srv.CloseStreams)
}

func serveGoSDK(ctx context.Context, addr string) error {
	srv := gosdk.NewServer(identity, MCPTools()...)
	if addr == "" {
		return srv.Run(ctx, &mcp.StdioTransport{})
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	return serveHTTP(ctx, addr, h, nil)
}

func serveMCPGo(ctx context.Context, addr string) error {
	srv := mcpgo.NewServer(identity, MCPTools()...)
	if addr == "" {
		return mcpgoserver.NewStdioServer(srv).Listen(ctx, os.Stdin, os.Stdout)
	}
	return serveHTTP(ctx, addr, mcpgoserver.NewStreamableHTTPServer(srv), nil)
}

// serveHTTP serves h on addr until ctx is cancelled, then shuts down.
func serveHTTP(ctx context.Context, addr string, h http.Handler, onShutdown func()) error {
	hs := &http.Server{Addr: addr, Handler: h}
	if onShutdown != nil {
		hs.RegisterOnShutdown(onShutdown)
	}
	go func() {
		<-ctx.Done()
		hs.Shutdown(context.Background())
	}()
	fmt.Fprintf(os.Stderr, "serving MCP on http://%s\n", addr)
	if err := hs.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
