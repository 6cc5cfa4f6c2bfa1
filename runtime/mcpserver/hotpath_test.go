package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestHTTPSessionEndCancelsCalls checks that the end of a session cancels
// every call it runs, on a revision whose calls outlive their HTTP
// request, and that a call that ended leaves nothing bound to the
// session.
func TestHTTPSessionEndCancelsCalls(t *testing.T) {
	t.Parallel()
	started, cancelled := make(chan struct{}, 2), make(chan struct{}, 2)
	block := handlerTool("block", func(ctx context.Context, args []byte) mcprt.Result {
		started <- struct{}{}
		select {
		case <-ctx.Done():
			cancelled <- struct{}{}
			return mcprt.TextResult("cancelled")
		case <-time.After(timeout):
			return mcprt.TextResult("not cancelled")
		}
	})
	srv := New(mcprt.Identity{Name: "n", Version: "v"}, block, textTool("a", "A"))
	c := startHTTP(t, srv)
	c.initialize(wire.Rev20251125, `{}`)
	c.post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`, 200, "", nil)
	srv.mu.Lock()
	sess := srv.byID[c.sid]
	srv.mu.Unlock()
	sess.mu.Lock()
	bound := sess.bound
	sess.mu.Unlock()
	if bound != nil {
		t.Fatal("a call that ended is still bound to its session")
	}
	for i := range 2 {
		req, err := http.NewRequest("POST", c.url, strings.NewReader(`{"jsonrpc":"2.0","id":`+strconv.Itoa(10+i)+`,"method":"tools/call","params":{"name":"block"}}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", c.sid)
		go func() {
			if resp, err := http.DefaultClient.Do(req); err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
		<-started
	}
	if resp := c.do(http.MethodDelete, "", nil); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: status %d, want 204", resp.StatusCode)
	}
	for range 2 {
		select {
		case <-cancelled:
		case <-time.After(timeout):
			t.Fatal("the end of the session did not cancel its calls")
		}
	}
}

// TestHTTPCallAllocations bounds what one tools/call POST allocates in
// the server, with a tool that allocates nothing, in a 2025-11-25
// session and as a 2026-07-28 request: the body, the parsed message, the
// request's context and registration, the caller and the answer.
func TestHTTPCallAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("counts allocations, which the race detector changes")
	}
	answer := mcprt.TextResult("A")
	tool := handlerTool("a", func(context.Context, []byte) mcprt.Result { return answer })
	h := New(mcprt.Identity{Name: "n", Version: "v"}, tool).HTTPHandler()
	base := http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"}}
	w := serveInProcess(h, base, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}`)
	session := base.Clone()
	session.Set("Mcp-Session-Id", w.h.Get("Mcp-Session-Id"))
	session.Set("MCP-Protocol-Version", "2025-11-25")
	serveInProcess(h, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	stateless := base.Clone()
	stateless.Set("MCP-Protocol-Version", "2026-07-28")
	stateless.Set("Mcp-Method", "tools/call")
	stateless.Set("Mcp-Name", "a")
	for _, tc := range []struct {
		name   string
		header http.Header
		body   string
		most   float64
	}{
		{"session", session, `{"jsonrpc":"2.0","id":123456,"method":"tools/call","params":{"name":"a","arguments":{"x":[1,{"y":"z"}]}}}`, 2},
		{"stateless", stateless, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + statelessMeta + `,"name":"a","arguments":{"x":[1,{"y":"z"}]}}}`, 6},
	} {
		w := serveInProcess(h, tc.header, tc.body)
		if w.status != http.StatusOK || !bytes.Contains(w.body, []byte(`"text":"A"`)) {
			t.Fatalf("%s: %d %s", tc.name, w.status, w.body)
		}
		body := strings.NewReader(tc.body)
		req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:8080/mcp", io.NopCloser(body))
		req.Header, req.ContentLength = tc.header, int64(len(tc.body))
		w = &memWriter{h: http.Header{}}
		got := testing.AllocsPerRun(200, func() {
			body.Reset(tc.body)
			clear(w.h)
			h.ServeHTTP(w, req)
		})
		if got > tc.most {
			t.Errorf("%s: a call allocates %v times, want at most %v", tc.name, got, tc.most)
		}
	}
}

// serveInProcess serves one POST of body with header and returns what
// was written.
func serveInProcess(h http.Handler, header http.Header, body string) *memWriter {
	req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:8080/mcp", strings.NewReader(body))
	req.Header = header
	w := &memWriter{h: http.Header{}, keep: true}
	h.ServeHTTP(w, req)
	return w
}

// memWriter is a ResponseWriter that keeps the status and, with keep,
// the body.
type memWriter struct {
	h      http.Header
	status int
	keep   bool
	body   []byte
}

func (w *memWriter) Header() http.Header { return w.h }

func (w *memWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *memWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	if w.keep {
		w.body = append(w.body, p...)
	}
	return len(p), nil
}

// TestStdioCallAllocations bounds what a tools/call over stdio allocates,
// the client's side included, with a tool that allocates nothing: the
// line, the parsed message, the request's context and registration, the
// caller and the answer.
func TestStdioCallAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("counts allocations, which the race detector changes")
	}
	answer := mcprt.TextResult("A")
	tool := handlerTool("a", func(context.Context, []byte) mcprt.Result { return answer })
	srv := New(mcprt.Identity{Name: "n", Version: "v"}, tool)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.ServeStream(ctx, inR, outW) }()
	t.Cleanup(func() { cancel(); inW.Close(); outR.Close(); <-done })
	answers := bufio.NewReader(outR)
	call := func(line string) []byte {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
		got, err := answers.ReadSlice('\n')
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	call(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}`)
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	const req = `{"jsonrpc":"2.0","id":123456,"method":"tools/call","params":{"name":"a","arguments":{"x":[1,{"y":"z"}]}}}`
	if got := call(req); !bytes.Contains(got, []byte(`"text":"A"`)) {
		t.Fatalf("answer %s", got)
	}
	allocs := testing.AllocsPerRun(200, func() { call(req) })
	if allocs > 4 {
		t.Errorf("a call allocates %v times, want at most 4", allocs)
	}
}

// TestHeaderValue checks that headerValue finds what Header.Get finds for
// the canonical keys it is given, whatever the form the client sent.
func TestHeaderValue(t *testing.T) {
	t.Parallel()
	h := http.Header{}
	for _, sent := range []string{"mcp-session-id", "MCP-PROTOCOL-VERSION", "content-type", "ORIGIN"} {
		h.Add(sent, "v-"+sent)
	}
	for _, key := range []string{"Mcp-Session-Id", protocolVersionHeader, "Content-Type", "Origin", "Accept"} {
		if got, want := headerValue(h, key), h.Get(key); got != want {
			t.Errorf("headerValue(%q) = %q, Get gives %q", key, got, want)
		}
	}
}

// TestPooledResponsesStayWhole checks that answers made in pooled
// buffers reach their clients whole while many are made at once, over
// stdio (pipelined) and over HTTP.
func TestPooledResponsesStayWhole(t *testing.T) {
	t.Parallel()
	echo := handlerTool("echo", func(_ context.Context, args []byte) mcprt.Result {
		return mcprt.TextResult(strings.Repeat(string(args), 40))
	})
	call := func(i int) string {
		return `{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"tools/call","params":{"name":"echo","arguments":{"n":` + strconv.Itoa(i) + `}}}`
	}
	want := func(i int) string {
		text, _ := json.Marshal(strings.Repeat(`{"n":`+strconv.Itoa(i)+`}`, 40))
		return `{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"result":{"content":[{"type":"text","text":` + string(text) + `}]}}`
	}
	const n = 200
	t.Run("stdio", func(t *testing.T) {
		c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}, echo))
		c.initialize(wire.Rev20250618, `{}`)
		for i := range n {
			c.send(call(i + 1))
		}
		got := map[string]bool{}
		for range n {
			got[c.recv()] = true
		}
		for i := range n {
			if !got[want(i+1)] {
				t.Fatalf("no answer %s among %d", want(i+1), len(got))
			}
		}
	})
	t.Run("http", func(t *testing.T) {
		c := startHTTP(t, New(mcprt.Identity{Name: "n", Version: "v"}, echo))
		c.initialize(wire.Rev20250618, `{}`)
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Go(func() {
				for i := g; i < n; i += 8 {
					resp := c.do(http.MethodPost, call(i+1), nil)
					body, _ := io.ReadAll(resp.Body)
					if string(body) != want(i+1) {
						t.Errorf("answer %s, want %s", body, want(i+1))
						return
					}
				}
			})
		}
		wg.Wait()
	})
}
