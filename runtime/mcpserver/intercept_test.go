package mcpserver

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// initConn connects to srv and initializes a 2025-06-18 session.
func initConn(t *testing.T, srv *Server, ctx context.Context) *Conn {
	t.Helper()
	c := srv.Connect(ctx, func([]byte) error { return nil })
	t.Cleanup(c.Close)
	if got := c.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)); !bytes.Contains(got, []byte(`"protocolVersion":"2025-06-18"`)) {
		t.Fatalf("initialize: %s", got)
	}
	c.Handle(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	return c
}

type ctxKey struct{}

// TestInterceptorOrder checks that interceptors run in the order they were
// added, outermost first, around the handler, and that a context an
// interceptor passes on reaches the handler.
func TestInterceptorOrder(t *testing.T) {
	t.Parallel()
	var trail []string
	srv := New(mcprt.Identity{Name: "t", Version: "1"}, handlerTool("a", func(ctx context.Context, args []byte) mcprt.Result {
		trail = append(trail, "handler "+ctx.Value(ctxKey{}).(string))
		return mcprt.TextResult("A")
	}))
	mark := func(name string) Interceptor {
		return func(ctx context.Context, req *Request, next Next) Outcome {
			if req.Method != "tools/call" {
				return next(ctx)
			}
			trail = append(trail, name+" in")
			o := next(context.WithValue(ctx, ctxKey{}, name))
			trail = append(trail, name+" out")
			return o
		}
	}
	srv.Use(mark("first"), nil, mark("second"))
	srv.Use(mark("third"))
	c := initConn(t, srv, context.Background())
	sameJSON(t, string(c.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`))),
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"A"}]}}`)
	want := "first in, second in, third in, handler third, third out, second out, first out"
	if got := strings.Join(trail, ", "); got != want {
		t.Errorf("trail\n got %s\nwant %s", got, want)
	}
}

// TestInterceptorRefuses checks that an interceptor that does not call
// next refuses the request with its error, and the handler never runs.
func TestInterceptorRefuses(t *testing.T) {
	t.Parallel()
	ran := false
	srv := New(mcprt.Identity{Name: "t", Version: "1"}, handlerTool("a", func(ctx context.Context, args []byte) mcprt.Result {
		ran = true
		return mcprt.TextResult("A")
	}))
	srv.Use(func(ctx context.Context, req *Request, next Next) Outcome {
		if req.Method == "tools/call" {
			return Refuse(-32000, "rate limited")
		}
		return next(ctx)
	})
	c := initConn(t, srv, context.Background())
	sameJSON(t, string(c.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`))),
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"rate limited"}}`)
	if ran {
		t.Error("the handler of a refused call ran")
	}
	sameJSON(t, string(c.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":2,"method":"ping"}`))),
		`{"jsonrpc":"2.0","id":2,"result":{}}`)
}

// TestInterceptorPanics checks that a panic in an interceptor is logged
// and answered -32603, and that the server goes on serving.
func TestInterceptorPanics(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	srv := New(mcprt.Identity{Name: "t", Version: "1"}, textTool("a", "A"))
	srv.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	panicked := false
	srv.Use(func(ctx context.Context, req *Request, next Next) Outcome {
		if req.Method == "tools/call" && !panicked {
			panicked = true
			panic("interceptor bug")
		}
		return next(ctx)
	})
	c := initConn(t, srv, context.Background())
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`
	sameJSON(t, string(c.Handle(context.Background(), []byte(call))),
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"internal error"}}`)
	if !strings.Contains(logs.String(), "interceptor bug") {
		t.Errorf("the panic was not logged: %q", logs.String())
	}
	sameJSON(t, string(c.Handle(context.Background(), []byte(call))),
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"A"}]}}`)
}

// recorder is an interceptor keeping copies of what it saw.
type recorder struct {
	mu   sync.Mutex
	seen []seen
}

type seen struct {
	req       Request
	principal string
	out       Outcome
	result    string
}

func (r *recorder) intercept(ctx context.Context, req *Request, next Next) Outcome {
	o := next(ctx)
	s := seen{req: *req, out: o, result: string(o.Result)}
	if tok, ok := mcprt.Token(ctx); ok {
		s.principal = tok.Subject
	}
	s.req.Meta, s.req.Params, s.req.Arguments = bytes.Clone(req.Meta), bytes.Clone(req.Params), bytes.Clone(req.Arguments)
	r.mu.Lock()
	r.seen = append(r.seen, s)
	r.mu.Unlock()
	return o
}

// last returns what the recorder saw of the last message of method.
func (r *recorder) last(t *testing.T, method string) seen {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.seen) - 1; i >= 0; i-- {
		if r.seen[i].req.Method == method {
			return r.seen[i]
		}
	}
	t.Fatalf("no %s seen", method)
	return seen{}
}

// TestInterceptorSees checks what an interceptor is told of requests and
// notifications, and of their outcomes: results, tool errors, JSON-RPC
// errors and cancellations.
func TestInterceptorSees(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	srv := New(mcprt.Identity{Name: "t", Version: "1"},
		textTool("a", "A"),
		handlerTool("fails", func(ctx context.Context, args []byte) mcprt.Result {
			return mcprt.ErrorResult(context.DeadlineExceeded)
		}),
		handlerTool("slow", func(ctx context.Context, args []byte) mcprt.Result {
			close(started)
			<-ctx.Done()
			return mcprt.TextResult("late")
		}))
	var rec recorder
	srv.Use(rec.intercept)
	ctx := mcprt.WithToken(context.Background(), mcprt.TokenInfo{Subject: "alice"})
	c := initConn(t, srv, ctx)

	c.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":"r1","method":"tools/call","params":{"name":"a","arguments":{"x":1},"_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01","n":2}}}`))
	s := rec.last(t, "tools/call")
	if s.req.Name != "a" || string(s.req.ID) != `"r1"` || s.req.Revision != "2025-06-18" || s.req.Transport != TransportConn || s.req.SessionID != "" {
		t.Errorf("request %+v", s.req)
	}
	if s.principal != "alice" {
		t.Errorf("principal %q, want alice", s.principal)
	}
	if string(s.req.Arguments) != `{"x":1}` {
		t.Errorf("arguments %s", s.req.Arguments)
	}
	if tp, ok := s.req.MetaString("traceparent"); !ok || tp != "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" {
		t.Errorf("MetaString(traceparent) = %q, %v", tp, ok)
	}
	if _, ok := s.req.MetaString("n"); ok {
		t.Error("MetaString found a number")
	}
	if s.out.Error != nil || s.out.IsError || s.out.Cancelled {
		t.Errorf("outcome %+v", s.out)
	}
	sameJSON(t, s.result, `{"content":[{"type":"text","text":"A"}]}`)

	c.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fails"}}`))
	if s = rec.last(t, "tools/call"); !s.out.IsError || s.out.Error != nil || s.out.Result == nil {
		t.Errorf("tool error: outcome %+v", s.out)
	}
	c.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope"}}`))
	if s = rec.last(t, "tools/call"); s.out.Error == nil || s.out.Error.Code != codeInvalidParams || s.out.Result != nil {
		t.Errorf("unknown tool: outcome %+v", s.out)
	}

	done := make(chan []byte)
	go func() {
		done <- c.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"slow"}}`))
	}()
	<-started
	c.Handle(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4}}`))
	if got := <-done; got != nil {
		t.Errorf("a cancelled call was answered: %s", got)
	}
	if s = rec.last(t, "tools/call"); !s.out.Cancelled || s.out.Error != nil || s.out.Result != nil {
		t.Errorf("cancelled: outcome %+v", s.out)
	}
	if s = rec.last(t, "notifications/cancelled"); s.req.ID != nil || !s.req.Notification || s.req.Revision != "2025-06-18" {
		t.Errorf("notification %+v", s.req)
	}
	if s = rec.last(t, "notifications/initialized"); s.req.ID != nil {
		t.Errorf("notification %+v", s.req)
	}
	// The revision is negotiated by the call: read after it, it is set.
	if s = rec.last(t, "initialize"); s.req.Revision != "2025-06-18" || s.req.Notification || s.result == "" {
		t.Errorf("initialize: %+v", s)
	}
}

// TestInterceptorHTTP checks what an interceptor sees over HTTP: the
// session id of a session's request, none for a 2026-07-28 request.
func TestInterceptorHTTP(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "t", Version: "1"}, textTool("a", "A"))
	var rec recorder
	srv.Use(rec.intercept)
	c := startHTTP(t, srv)
	c.initialize(wire.Rev20250618, `{}`)
	c.post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`, 200, "", nil)
	s := rec.last(t, "tools/call")
	if s.req.SessionID != c.sid || s.req.Transport != TransportHTTP || s.req.Revision != "2025-06-18" {
		t.Errorf("session request %+v", s.req)
	}
	stateless := &httpClient{t: t, url: c.url}
	stateless.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"a",`+statelessMeta+`}}`, 200, "", func(r *http.Request) {
		r.Header.Set("MCP-Protocol-Version", "2026-07-28")
		r.Header.Set("Mcp-Method", "tools/call")
		r.Header.Set("Mcp-Name", "a")
	})
	s = rec.last(t, "tools/call")
	if s.req.SessionID != "" || s.req.Transport != TransportHTTP || s.req.Revision != "2026-07-28" || string(s.req.ID) != "2" {
		t.Errorf("stateless request %+v", s.req)
	}
	sameJSON(t, s.result, `{"resultType":"complete","content":[{"type":"text","text":"A"}]}`)
}

// endRecorder collects the session ends a server tells of.
type endRecorder struct {
	mu   sync.Mutex
	ends []SessionEnd
}

func (r *endRecorder) add(e SessionEnd) { r.mu.Lock(); r.ends = append(r.ends, e); r.mu.Unlock() }

func (r *endRecorder) get() []SessionEnd {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]SessionEnd(nil), r.ends...)
}

// TestSessionEnd checks that the end of a session is told once on every
// transport: a Conn closed, a stdio stream ended, an HTTP session deleted
// or idle too long; and that a stream of 2026-07-28 requests, which has no
// session, tells nothing.
func TestSessionEnd(t *testing.T) {
	t.Parallel()
	newServer := func() (*Server, *endRecorder) {
		srv := New(mcprt.Identity{Name: "t", Version: "1"}, textTool("a", "A"))
		rec := new(endRecorder)
		srv.OnSessionEnd(rec.add)
		return srv, rec
	}
	check := func(t *testing.T, rec *endRecorder, want SessionEnd) {
		t.Helper()
		ends := rec.get()
		if len(ends) != 1 {
			t.Fatalf("%d session ends, want 1: %+v", len(ends), ends)
		}
		e := ends[0]
		if e.ID != want.ID || e.Revision != want.Revision || e.Transport != want.Transport || e.Reason != want.Reason || e.Started.IsZero() || e.Duration < 0 {
			t.Errorf("session end %+v, want %+v", e, want)
		}
	}
	t.Run("conn", func(t *testing.T) {
		srv, rec := newServer()
		c := initConn(t, srv, context.Background())
		c.Close()
		c.Close()
		check(t, rec, SessionEnd{Revision: "2025-06-18", Transport: TransportConn, Reason: "closed"})
	})
	t.Run("stdio", func(t *testing.T) {
		srv, rec := newServer()
		c := startStdio(t, srv)
		c.initialize(wire.Rev20251125, `{}`)
		c.close()
		check(t, rec, SessionEnd{Revision: "2025-11-25", Transport: TransportStdio, Reason: "closed"})
	})
	t.Run("stdio-stateless", func(t *testing.T) {
		srv, rec := newServer()
		c := startStdio(t, srv)
		c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + statelessMeta + `}}`)
		c.recv()
		c.close()
		if ends := rec.get(); len(ends) != 0 {
			t.Errorf("a stream without a session told of its end: %+v", ends)
		}
	})
	t.Run("http-delete", func(t *testing.T) {
		srv, rec := newServer()
		c := startHTTP(t, srv)
		c.initialize(wire.Rev20250618, `{}`)
		if resp := c.do(http.MethodDelete, "", nil); resp.StatusCode != http.StatusNoContent {
			t.Fatalf("DELETE: status %d", resp.StatusCode)
		}
		check(t, rec, SessionEnd{ID: c.sid, Revision: "2025-06-18", Transport: TransportHTTP, Reason: "deleted"})
	})
	t.Run("http-idle", func(t *testing.T) {
		srv, rec := newServer()
		var mu sync.Mutex
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		srv.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
		srv.SessionIdleTimeout = time.Minute
		c := startHTTP(t, srv)
		c.initialize(wire.Rev20250618, `{}`)
		idle := c.sid
		mu.Lock()
		now = now.Add(2 * time.Minute)
		mu.Unlock()
		c.initialize(wire.Rev20250618, `{}`) // the sweep ends the first session
		check(t, rec, SessionEnd{ID: idle, Revision: "2025-06-18", Transport: TransportHTTP, Reason: "idle"})
		if e := rec.get()[0]; e.Duration < 2*time.Minute {
			t.Errorf("duration %v, want at least 2m", e.Duration)
		}
	})
}
