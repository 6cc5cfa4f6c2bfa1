// Command conformance is an MCP server written with mcpgen annotations that
// serves the tools the official MCP conformance suite calls
// (@modelcontextprotocol/conformance, "server" scenarios), with the
// resources, resource templates and prompts they read.
//
//	conformance -http 127.0.0.1:3001   # Streamable HTTP at http://127.0.0.1:3001/mcp
//	conformance                       # stdio
//
// Several replicas share their state in Redis with -redis URL, each with
// its own -replica NAME and all with the same -state-key HEX:
//
//	conformance -http 127.0.0.1:0 -redis redis://127.0.0.1:6379/0 -state-key 00ff... -replica r1
//
// On a Redis Cluster the URL names its nodes, the first as the host:
//
//	-redis 'redis://10.0.0.1:6379/0?addr=10.0.0.2:6379&addr=10.0.0.3:6379'
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
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcpredis"
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
	redisURL := flag.String("redis", "", "share tasks, sessions, streams and notifications with other replicas through the Redis at `URL` (redis://host:port/db; a cluster's other nodes as addr=host:port parameters)")
	stateKey := flag.String("state-key", "", "the key sealing request states, in `HEX`, the same on every replica")
	replica := flag.String("replica", "", "this replica's `NAME` among those sharing the Redis (default: random)")
	lease := flag.Duration("lease", 0, "how often the replica renews its leases on the tasks it runs and the SSE streams it answers (default 2s)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := mcpserver.New(identity, MCPTools()...)
	var ready func(context.Context) error
	if *stateKey != "" {
		key, err := hex.DecodeString(*stateKey)
		if err != nil || len(key) < 16 {
			log.Fatalf("-state-key: want at least 16 bytes in hex, got %q", *stateKey)
		}
		srv.StateKey = key
	}
	srv.ReplicaID, srv.TaskLease = *replica, *lease
	if *redisURL != "" {
		b, err := mcpredis.Open(ctx, *redisURL)
		if err != nil {
			log.Fatal(err)
		}
		defer b.Close()
		b.Attach(srv) // tasks, sessions, SSE events and the bus in Redis
		ready = b.Ping
	}
	srv.AddPrompts(MCPPrompts()...)
	srv.AddResources(MCPResources()...)
	// Two skills a page, so that skills/list and directory reads page.
	srv.SkillsPageSize = 2
	if err := srv.AddSkills(MCPSkills()...); err != nil {
		log.Fatal(err)
	}
	server = srv
	var err error
	if *addr == "" {
		err = srv.ServeStdio(ctx)
	} else {
		err = serveHTTP(ctx, *addr, srv, ready)
	}
	if err != nil {
		log.Fatal(err)
	}
}

// serveHTTP serves srv at /mcp on addr until ctx is cancelled, and
// answers /ready with 200 while ready (nil: always) succeeds, 503 when
// not, for a load balancer's readiness check.
func serveHTTP(ctx context.Context, addr string, srv *mcpserver.Server, ready func(context.Context) error) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.HTTPHandler())
	mux.HandleFunc("/ready", func(w http.ResponseWriter, r *http.Request) {
		if ready != nil {
			ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
			defer cancel()
			if err := ready(ctx); err != nil {
				http.Error(w, err.Error(), http.StatusServiceUnavailable)
				return
			}
		}
		fmt.Fprintln(w, "ready")
	})
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
