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
	"runtime/trace"

	"github.com/mcpgen/mcpgen/bench/servers"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// run parses the flags and serves; it returns the exit code.
func run(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("server", servers.Builtin, fmt.Sprintf("server to run, one of %v", servers.Names))
	addr := fs.String("http", "", "serve Streamable HTTP on this loopback address (e.g. 127.0.0.1:0) instead of stdio")
	stateless := fs.Bool("stateless", false, "over HTTP, run the SDKs in their stateless modes")
	traceFile := fs.String("trace", "", "write a runtime trace of the whole run to this `file`, for go tool trace")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *traceFile != "" {
		stopTrace, err := startTrace(*traceFile)
		if err != nil {
			fmt.Fprintln(stderr, "serve:", err)
			return 1
		}
		defer stopTrace()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var err error
	if *addr == "" {
		err = servers.ServeStdio(ctx, *name, os.Stdin, os.Stdout)
	} else {
		err = serveHTTP(ctx, *name, *addr, *stateless)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "serve:", err)
		return 1
	}
	return 0
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

// serveHTTP serves the server name on addr until ctx is done or standard
// input ends.
func serveHTTP(ctx context.Context, name, addr string, stateless bool) error {
	h, err := servers.HTTPHandler(name, stateless)
	if err != nil {
		return err
	}
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
