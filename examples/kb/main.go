// Command kb is a small knowledge-base MCP server written with mcpgen
// annotations: tools to search articles and add notes, the articles as
// resources (a static index and two templates), prompts that summarize and
// compare articles, completions of article numbers and formats, an article
// viewer shown as an MCP App, and tools that ask the client: to send the
// user to a consent page (URL elicitation) and to have its model suggest
// tags with a tool of the server's (sampling with tools).
//
//	kb                          # stdio
//	kb -http 127.0.0.1:8080     # Streamable HTTP at http://127.0.0.1:8080/mcp
//	kb -sdk gosdk               # the same server on the official Go SDK (or mcpgo)
//	kb -http 127.0.0.1:8080 -cors http://localhost:5173  # callable from that page's origin
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
	"strings"
	"syscall"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

var identity = mcprt.Identity{
	Name:         "kb",
	Version:      "1.0.0",
	Title:        "Knowledge base",
	Instructions: "Search the articles, read them as kb:// resources, and use the summarize and compare prompts.",

	EnableCompletions:           true,
	EnableElicitation:           true,
	EnableSampling:              true,
	EnableResourceSubscriptions: true,
	EnableResourceNotifications: true,
}

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP at http://ADDR/mcp instead of stdio")
	sdk := flag.String("sdk", "builtin", "server to use: builtin (mcpgen's own), gosdk (the official Go SDK) or mcpgo (mark3labs/mcp-go)")
	cors := flag.String("cors", "", "with -http, let browser pages of these comma-separated origins call the server (builtin only)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch {
	case *sdk == "builtin":
		err = serveBuiltin(ctx, *addr, *cors)
	case *cors != "":
		err = errors.New("-cors works with -sdk builtin only")
	default:
		err = serveSDK(ctx, *sdk, *addr)
	}
	if err != nil {
		log.Fatal(err)
	}
}

func serveBuiltin(ctx context.Context, addr, cors string) error {
	srv := mcpserver.New(identity, MCPTools()...)
	if cors != "" {
		srv.CORS = &mcpserver.CORS{AllowedOrigins: strings.Split(cors, ",")}
	}
	srv.AddPrompts(MCPPrompts()...)
	srv.AddResources(MCPResources()...)
	base.changed = srv.ResourceUpdated
	base.added = func(a Article) { srv.AddResources(articleResource(a)) }
	if addr == "" {
		return srv.ServeStdio(ctx)
	}
	return serveHTTP(ctx, addr, srv.HTTPHandler(), srv.CloseStreams)
}

// serveHTTP serves h at /mcp on addr until ctx is cancelled, then shuts
// down.
func serveHTTP(ctx context.Context, addr string, h http.Handler, onShutdown func()) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	hs := &http.Server{Handler: mux}
	if onShutdown != nil {
		hs.RegisterOnShutdown(onShutdown)
	}
	go func() {
		<-ctx.Done()
		hs.Shutdown(context.Background())
	}()
	fmt.Fprintf(os.Stderr, "serving MCP on http://%s/mcp\n", ln.Addr())
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
