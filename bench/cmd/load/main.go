// Command load is a bounded HTTP load run of the built-in server on
// loopback: it serves the benchmark's bulk_price_update tool and 100
// synthetic tools with mcpserver over Streamable HTTP on 127.0.0.1 (a free
// port), starts -clients concurrent clients, each with its own session,
// sending a mix of tools/list and tools/call for -duration, then reports
// throughput, latency percentiles and errors. It stops by itself and exits
// 1 if any request failed.
//
//	go run ./bench/cmd/load -clients 50 -duration 10s -list 0.2
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/bench/hundred"
	"github.com/mcpgen/mcpgen/bench/pricing"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

func main() {
	clients := flag.Int("clients", 50, "concurrent clients, one session each")
	duration := flag.Duration("duration", 10*time.Second, "how long to send requests")
	listShare := flag.Float64("list", 0.2, "share of requests that are tools/list (the rest are tools/call)")
	flag.Parse()
	if err := run(*clients, *duration, *listShare); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

func run(clients int, duration time.Duration, listShare float64) error {
	if clients < 1 || duration <= 0 || listShare < 0 || listShare > 1 {
		return errors.New("need -clients >= 1, -duration > 0 and 0 <= -list <= 1")
	}
	srv := mcpserver.New(mcprt.Identity{Name: "load", Version: "1.0.0"},
		append(pricing.MCPTools(), hundred.MCPTools()...)...)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: srv.HTTPHandler()}
	go hs.Serve(ln)
	defer hs.Shutdown(context.Background())

	url := "http://" + ln.Addr().String() + "/mcp"
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}, Timeout: 30 * time.Second}
	results := make([]clientResult, clients)
	deadline := time.Now().Add(duration)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range results {
		wg.Go(func() { results[i] = runClient(hc, url, i, deadline, listShare) })
	}
	wg.Wait()
	report(results, time.Since(start))
	for _, r := range results {
		if r.errors > 0 {
			return fmt.Errorf("%d requests failed; first: %v", totalErrors(results), firstError(results))
		}
	}
	return nil
}

// clientResult is what one client saw.
type clientResult struct {
	latencies []time.Duration
	lists     int
	calls     int
	errors    int
	firstErr  error
}

// runClient initializes a session and sends requests until deadline; every
// n-th request is tools/list so that lists make up listShare of them.
func runClient(hc *http.Client, url string, n int, deadline time.Time, listShare float64) clientResult {
	var r clientResult
	c := &client{hc: hc, url: url}
	if err := c.initialize(); err != nil {
		r.errors, r.firstErr = 1, err
		return r
	}
	call := callRequest(10)
	acc := float64(n%7) / 7 // stagger the mix across clients
	for id := 2; time.Now().Before(deadline); id++ {
		acc += listShare
		isList := acc >= 1
		var body []byte
		want := `"text":"updated 10 prices in emea"`
		if isList {
			acc--
			body = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, id)
			want = `"name":"tool099"`
		} else {
			body = bytes.Replace(call, []byte(`"id":1,`), fmt.Appendf(nil, `"id":%d,`, id), 1)
		}
		t0 := time.Now()
		err := c.post(body, want)
		r.latencies = append(r.latencies, time.Since(t0))
		switch {
		case err != nil:
			r.errors++
			if r.firstErr == nil {
				r.firstErr = err
			}
		case isList:
			r.lists++
		default:
			r.calls++
		}
	}
	return r
}

// client is one session of Streamable HTTP.
type client struct {
	hc      *http.Client
	url     string
	session string
}

func (c *client) initialize() error {
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"load","version":"1.0.0"}}}`
	if err := c.post([]byte(init), `"protocolVersion":"2025-06-18"`); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if c.session == "" {
		return errors.New("initialize: no Mcp-Session-Id")
	}
	return c.post([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), "")
}

// post sends one message and checks that the answer holds want (a
// notification, want "", expects 202).
func (c *client) post(body []byte, want string) error {
	req, err := http.NewRequest(http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
		req.Header.Set("MCP-Protocol-Version", "2025-06-18")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		c.session = id
	}
	switch {
	case want == "" && resp.StatusCode != http.StatusAccepted:
		return fmt.Errorf("status %d, want 202: %.200s", resp.StatusCode, got)
	case want != "" && (resp.StatusCode != http.StatusOK || !strings.Contains(string(got), want)):
		return fmt.Errorf("status %d, answer %.200s; want %s", resp.StatusCode, got, want)
	}
	return nil
}

// callRequest is the reference tools/call of the benchmarks, with id 1.
func callRequest(n int) []byte { return pricing.CallRequest(1, n) }

func report(results []clientResult, elapsed time.Duration) {
	var all []time.Duration
	lists, calls := 0, 0
	for _, r := range results {
		all = append(all, r.latencies...)
		lists += r.lists
		calls += r.calls
	}
	slices.Sort(all)
	pct := func(p float64) time.Duration {
		if len(all) == 0 {
			return 0
		}
		return all[min(len(all)-1, int(p*float64(len(all))))]
	}
	fmt.Printf("clients %d, %s: %d requests (%d tools/list, %d tools/call), %d errors\n",
		len(results), elapsed.Round(time.Millisecond), len(all), lists, calls, totalErrors(results))
	fmt.Printf("throughput %.0f req/s; latency p50 %s, p99 %s, max %s\n",
		float64(len(all))/elapsed.Seconds(), pct(0.50), pct(0.99), pct(1))
}

func totalErrors(results []clientResult) int {
	n := 0
	for _, r := range results {
		n += r.errors
	}
	return n
}

func firstError(results []clientResult) error {
	for _, r := range results {
		if r.firstErr != nil {
			return r.firstErr
		}
	}
	return nil
}
