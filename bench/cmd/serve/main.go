// Command serve runs one of the servers the benchmarks compare, with the
// reference tool bulk_price_update, as a process of its own, the way a
// client meets it: over stdio (the default) or over Streamable HTTP on a
// loopback address. The stdio benchmark of package bench and the load run
// (bench/cmd/load) start it; the servers are those of package
// bench/servers.
//
//	serve -server mcpserver
//	serve -server gosdk-typed -http 127.0.0.1:0 -stateless
//
// Over HTTP it prints the endpoint's URL as the first line of its
// standard output, serves MCP at /mcp and, at /debug/heap, the bytes of
// Go heap and stacks in use after a garbage collection (for the memory of
// idle sessions), and stops when its standard input ends or on interrupt, so
// that it never outlives the process that started it. With -trace it
// writes a runtime trace of the run, to see where a call's time goes.
//
// The built-in server alone takes the flags of its stores: -redis attaches
// the Redis backend (tasks, sessions, SSE events and the bus between
// replicas in Redis), -session-cache says how long it serves a session
// from the client-side cache (0: not at all), and -max-tasks and -task-ttl bound the tasks it keeps,
// so that a load of task calls is not refused by the default bounds:
//
//	serve -http 127.0.0.1:0 -redis redis://127.0.0.1:6379/0 -session-cache 0
//	serve -http 127.0.0.1:0 -max-tasks 1000000 -task-ttl 1m
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/bench/servers"
	"github.com/mcpgen/mcpgen/runtime/mcpredis"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// run parses the flags and serves; it returns the exit code.
func run(args []string, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return 2
	}
	if o.traceFile != "" {
		stopTrace, err := startTrace(o.traceFile)
		if err != nil {
			fmt.Fprintln(stderr, "serve:", err)
			return 1
		}
		defer stopTrace()
	}
	if o.cpuProfile != "" {
		stopProfile, err := startCPUProfile(o.cpuProfile)
		if err != nil {
			fmt.Fprintln(stderr, "serve:", err)
			return 1
		}
		defer stopProfile()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err = serve(ctx, o.name, o.addr, o.stateless, o.store)
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "serve:", err)
		return 1
	}
	return 0
}

// options are what the flags ask for.
type options struct {
	name, addr, traceFile string
	cpuProfile            string
	stateless             bool
	store                 builtinFlags
}

// parseFlags parses args, and reports on stderr what it refuses.
func parseFlags(args []string, stderr io.Writer) (options, error) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.name, "server", servers.Builtin, fmt.Sprintf("server to run, one of %v", servers.Names))
	fs.StringVar(&o.addr, "http", "", "serve Streamable HTTP on this loopback address (e.g. 127.0.0.1:0) instead of stdio")
	fs.BoolVar(&o.stateless, "stateless", false, "over HTTP, run the SDKs in their stateless modes")
	fs.StringVar(&o.traceFile, "trace", "", "write a runtime trace of the whole run to this `file`, for go tool trace")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the whole run to this `file`, for go tool pprof")
	bf := &o.store
	fs.StringVar(&bf.redis, "redis", "", "built-in server: keep tasks, sessions, SSE events and the bus in the Redis at `URL` (redis://host:port/db)")
	fs.DurationVar(&bf.sessionCache, "session-cache", mcpredis.DefaultSessionCacheTTL, "built-in server with -redis: serve a session from the client-side cache for up to this long (a change to it waits as long); 0 reads Redis on every request")
	fs.IntVar(&bf.maxTasks, "max-tasks", 0, "built-in server: tasks kept at once, per owner and in total; 0 keeps the server's defaults")
	fs.DurationVar(&bf.taskTTL, "task-ttl", 0, "built-in server: how long a task is kept; 0 keeps the server's default")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	fs.Visit(func(f *flag.Flag) {
		if storeFlags[f.Name] {
			bf.set = append(bf.set, "-"+f.Name)
		}
	})
	if err := bf.check(o.name); err != nil {
		fmt.Fprintln(stderr, "serve:", err)
		return o, err
	}
	return o, nil
}

// startTrace starts a runtime trace into a new file named name and
// returns what stops it.
func startTrace(name string) (func(), error) {
	f, err := os.Create(name)
	if err != nil {
		return nil, err
	}
	if err := trace.Start(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { trace.Stop(); f.Close() }, nil
}

// startCPUProfile starts a CPU profile into a new file named name and
// returns what stops it.
func startCPUProfile(name string) (func(), error) {
	f, err := os.Create(name)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// storeFlags are the names of the flags of the built-in server's stores.
var storeFlags = map[string]bool{"redis": true, "session-cache": true, "max-tasks": true, "task-ttl": true}

// builtinFlags are the flags of the built-in server's stores.
type builtinFlags struct {
	redis        string
	sessionCache time.Duration // 0: none
	maxTasks     int
	taskTTL      time.Duration
	set          []string // those given on the command line
}

// check refuses the flags for another server than the built-in one, and
// values that mean nothing.
func (f builtinFlags) check(server string) error {
	switch {
	case server != servers.Builtin && len(f.set) > 0:
		return fmt.Errorf("%s: -redis, -session-cache, -max-tasks and -task-ttl configure the built-in server only (-server %s), not %s",
			strings.Join(f.set, ", "), servers.Builtin, server)
	case f.sessionCache < 0 || f.maxTasks < 0 || f.taskTTL < 0:
		return errors.New("-session-cache, -max-tasks and -task-ttl must not be negative")
	case slices.Contains(f.set, "-session-cache") && f.redis == "":
		return errors.New("-session-cache caches the sessions kept in Redis: it needs -redis")
	}
	return nil
}

// serve serves the server name on addr, or over stdio when addr is empty,
// until ctx is done or standard input ends.
func serve(ctx context.Context, name, addr string, stateless bool, bf builtinFlags) error {
	if name != servers.Builtin {
		if addr == "" {
			return servers.ServeStdio(ctx, name, os.Stdin, os.Stdout)
		}
		h, err := servers.HTTPHandler(name, stateless)
		if err != nil {
			return err
		}
		return serveHTTP(ctx, h, addr)
	}
	srv, closeStores, err := builtin(ctx, bf)
	if err != nil {
		return err
	}
	defer closeStores()
	if addr == "" {
		return srv.ServeStream(ctx, os.Stdin, os.Stdout)
	}
	return serveHTTP(ctx, srv.HTTPHandler(), addr)
}

// builtin is the built-in server with the stores bf asks for, and what
// closes them.
func builtin(ctx context.Context, bf builtinFlags) (*mcpserver.Server, func(), error) {
	srv := servers.BuiltinServer()
	srv.TaskTTL = bf.taskTTL
	if bf.redis == "" {
		if bf.maxTasks > 0 {
			srv.Tasks = &mcpstore.MemoryTaskStore{TaskLimits: mcpstore.TaskLimits{MaxPerOwner: bf.maxTasks, MaxKept: bf.maxTasks}, MaxTotal: bf.maxTasks}
		}
		return srv, func() {}, nil
	}
	b, err := mcpredis.Open(ctx, bf.redis)
	if err != nil {
		return nil, nil, err
	}
	b.Sessions.CacheTTL = sessionCacheTTL(bf)
	b.Tasks.MaxPerOwner, b.Tasks.MaxKept = bf.maxTasks, bf.maxTasks // 0 keeps the store's defaults
	b.Attach(srv)
	return srv, func() { b.Close() }, nil
}

// sessionCacheTTL is the SessionStore.CacheTTL of -session-cache, where a
// negative value, not zero, reads Redis every time.
func sessionCacheTTL(bf builtinFlags) time.Duration {
	if bf.sessionCache == 0 {
		return -1
	}
	return bf.sessionCache
}

// serveHTTP serves h at /mcp on addr until ctx is done or standard input
// ends.
func serveHTTP(ctx context.Context, h http.Handler, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.HandleFunc("/debug/heap", heapInUse)
	hs := &http.Server{Handler: mux}
	ctx, cancel := context.WithCancel(ctx)
	go func() { io.Copy(io.Discard, os.Stdin); cancel() }()
	go func() { <-ctx.Done(); hs.Close() }()
	fmt.Printf("http://%s/mcp\n", ln.Addr())
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// heapInUse answers with the bytes of heap and of goroutine stacks in use
// after a collection that returns what it can to the system, so that two
// readings differ by what the server holds between them, its goroutines
// included.
func heapInUse(w http.ResponseWriter, _ *http.Request) {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(w, "%d\n", ms.HeapInuse+ms.StackInuse)
}
