// Command kb is a small knowledge-base MCP server written with mcpgen
// annotations: tools to search articles and add notes, the articles as
// resources (a static index and two templates), prompts that summarize and
// compare articles, and completions of article numbers and formats.
//
//	kb                          # stdio
//	kb -http 127.0.0.1:8080     # Streamable HTTP at http://127.0.0.1:8080/mcp
//	kb -sdk gosdk               # the same server on the official Go SDK (or mcpgo)
//	kb -http 127.0.0.1:8080 -redis redis://127.0.0.1:6379/0 -state-key HEX -replica r1
//	                            # one of several replicas sharing their state in Redis
package main

import (
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpgen/mcpgen/runtime/mcpredis"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

var identity = mcprt.Identity{
	Name:         "kb",
	Version:      "1.0.0",
	Title:        "Knowledge base",
	Instructions: "Search the articles, read them as kb:// resources, and use the summarize and compare prompts.",

	EnableCompletions:           true,
	EnableResourceSubscriptions: true,
	EnableResourceNotifications: true,
}

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP at http://ADDR/mcp instead of stdio")
	sdk := flag.String("sdk", "builtin", "server to use: builtin (mcpgen's own), gosdk (the official Go SDK) or mcpgo (mark3labs/mcp-go)")
	flag.StringVar(&shared.redis, "redis", "", "share tasks, sessions, streams and notifications with other replicas through the Redis at `URL` (redis://host:port/db)")
	flag.StringVar(&shared.stateKey, "state-key", "", "the key sealing request states, in `HEX`, the same on every replica")
	flag.StringVar(&shared.replica, "replica", "", "this replica's `NAME` among those sharing the Redis (default: random)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *sdk != "builtin" && (shared.redis != "" || shared.stateKey != "" || shared.replica != "") {
		log.Fatal("-redis, -state-key and -replica serve with -sdk builtin only")
	}
	var err error
	switch *sdk {
	case "builtin":
		err = serveBuiltin(ctx, *addr)
	default:
		err = serveSDK(ctx, *sdk, *addr)
	}
	if err != nil {
		log.Fatal(err)
	}
}

// shared is what the -redis, -state-key and -replica flags ask.
var shared struct{ redis, stateKey, replica string }

func serveBuiltin(ctx context.Context, addr string) error {
	srv := mcpserver.New(identity, MCPTools()...)
	if shared.stateKey != "" {
		key, err := hex.DecodeString(shared.stateKey)
		if err != nil || len(key) < 16 {
			return fmt.Errorf("-state-key: want at least 16 bytes in hex, got %q", shared.stateKey)
		}
		srv.StateKey = key
	}
	srv.ReplicaID = shared.replica
	if shared.redis != "" {
		b, err := mcpredis.Open(ctx, shared.redis)
		if err != nil {
			return err
		}
		defer b.Close()
		b.Attach(srv) // before anything is added: the server subscribes to the bus on its first change
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
