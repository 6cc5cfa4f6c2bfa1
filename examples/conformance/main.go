// Command conformance is an MCP server written with mcpgen annotations that
// serves the tools the official MCP conformance suite calls
// (@modelcontextprotocol/conformance, "server" scenarios), with the
// resources, resource templates and prompts they read.
//
//	conformance -http 127.0.0.1:3001   # Streamable HTTP at http://127.0.0.1:3001/mcp
//	conformance                       # stdio
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

	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

var identity = mcprt.Identity{
	Name:              "mcpgen-conformance",
	Version:           "1.0.0",
	Title:             "mcpgen conformance server",
	EnableLogging:     true,
	EnableCompletions: true,
	EnableElicitation: true,
	EnableSampling:    true,

	EnableTasks:                 true,
	EnableToolNotifications:     true,
	EnablePromptNotifications:   true,
	EnableResourceSubscriptions: true,
}

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP at http://ADDR/mcp instead of stdio")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := mcpserver.New(identity, MCPTools()...)
	srv.AddPrompts(MCPPrompts()...)
	srv.AddResources(MCPResources()...)
	server = srv
	var err error
	if *addr == "" {
		err = srv.ServeStdio(ctx)
	} else {
		err = serveHTTP(ctx, *addr, srv)
	}
	if err != nil {
		log.Fatal(err)
	}
}

// serveHTTP serves srv at /mcp on addr until ctx is cancelled.
func serveHTTP(ctx context.Context, addr string, srv *mcpserver.Server) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.HTTPHandler())
	hs := &http.Server{Handler: mux}
	hs.RegisterOnShutdown(srv.CloseStreams)
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
