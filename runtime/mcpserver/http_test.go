package mcpserver

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// httpClient plays an MCP client against a test server.
type httpClient struct {
	t   *testing.T
	url string
	sid string
	// client sends the requests; nil means http.DefaultClient.
	client *http.Client
}

func startHTTP(t *testing.T, srv *Server) *httpClient {
	ts := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(func() { srv.CloseStreams(); ts.Close() })
	return &httpClient{t: t, url: ts.URL}
}

// startMemHTTP is startHTTP over in-memory connections (net.Pipe), for
// tests in a synctest bubble: a goroutine reading a socket is not durably
// blocked, so the bubble's clock would never move. The URL names a
// loopback address, which the server's host check accepts.
func startMemHTTP(t *testing.T, srv *Server) *httpClient {
	l := &memListener{conns: make(chan net.Conn), closed: make(chan struct{})}
	hs := &http.Server{Handler: srv.HTTPHandler()}
	served := make(chan struct{})
	go func() {
		defer close(served)
		hs.Serve(l)
	}()
	tr := &http.Transport{DialContext: l.dial}
	t.Cleanup(func() {
		srv.CloseStreams()
		hs.Close()
		tr.CloseIdleConnections()
		<-served
	})
	return &httpClient{t: t, url: "http://127.0.0.1/", client: &http.Client{Transport: tr}}
}

// memListener accepts the connections its dial makes.
type memListener struct {
	conns  chan net.Conn
	closed chan struct{}
	once   sync.Once
}

func (l *memListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *memListener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

func (l *memListener) Addr() net.Addr { return memAddr{} }

func (l *memListener) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.closed:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

type memAddr struct{}

func (memAddr) Network() string { return "pipe" }
func (memAddr) String() string  { return "127.0.0.1:80" }

// do sends a request with the usual headers, changed by edit.
func (c *httpClient) do(method, body string, edit func(*http.Request)) *http.Response {
	c.t.Helper()
	req, err := http.NewRequest(method, c.url, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.sid != "" {
		req.Header.Set("Mcp-Session-Id", c.sid)
	}
	if edit != nil {
		edit(req)
	}
	client := c.client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// post sends body and checks the status and, when want is not empty, the
// JSON body.
func (c *httpClient) post(body string, status int, want string, edit func(*http.Request)) *http.Response {
	c.t.Helper()
	resp := c.do(http.MethodPost, body, edit)
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status {
		c.t.Fatalf("status %d, want %d; body %s", resp.StatusCode, status, got)
	}
	if want != "" {
		if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
			c.t.Errorf("Content-Type %q, want application/json", ct)
		}
		sameJSON(c.t, string(got), want)
	}
	return resp
}

func (c *httpClient) initialize(rev wire.Revision, caps string) {
	c.t.Helper()
	resp := c.post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+string(rev)+`","capabilities":`+caps+`}}`, 200, "", nil)
	c.sid = resp.Header.Get("Mcp-Session-Id")
	if len(c.sid) < 16 {
		c.t.Fatalf("session id %q", c.sid)
	}
	c.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, http.StatusAccepted, "", nil)
}

func header(k, v string) func(*http.Request) {
	return func(r *http.Request) { r.Header.Set(k, v) }
}

// events reads the SSE events of resp, one data payload each.
func events(t *testing.T, resp *http.Response) <-chan string {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q, want text/event-stream", ct)
	}
	ch := make(chan string, 16)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				ch <- d
			}
		}
	}()
	return ch
}

// nextEvent checks that the next event of ch is the message want.
func nextEvent(t *testing.T, ch <-chan string, want string) {
	t.Helper()
	sameJSON(t, nextOf(t, ch), want)
}

// nextOf returns the next event of ev.
func nextOf(t *testing.T, ev <-chan string) string {
	t.Helper()
	select {
	case got, ok := <-ev:
		if !ok {
			t.Fatal("stream ended")
		}
		return got
	case <-time.After(timeout):
		t.Fatal("no event")
	}
	return ""
}

func TestHTTPSession(t *testing.T) {
	t.Parallel()
	c := startHTTP(t, New(mcprt.Identity{Name: "n", Version: "v"}, textTool("a", "A")))
	c.initialize(wire.Rev20250618, `{}`)
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`
	c.post(call, 200, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"A"}]}}`, header("MCP-Protocol-Version", "2025-06-18"))
	// Any supported revision in the header is accepted; none means 2025-03-26.
	c.post(call, 200, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"A"}]}}`, header("MCP-Protocol-Version", "2024-11-05"))
	c.post(call, 200, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"A"}]}}`, nil)
	c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x"}}`, 200,
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"invalid params: unknown tool \"x\""}}`, nil)
	c.post(call, http.StatusBadRequest, "", header("Mcp-Session-Id", ""))
	c.post(call, http.StatusNotFound, "", header("Mcp-Session-Id", "nope"))
	if resp := c.do(http.MethodDelete, "", nil); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: status %d", resp.StatusCode)
	}
	c.post(call, http.StatusNotFound, "", nil)
	if resp := c.do(http.MethodDelete, "", nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("second DELETE: status %d", resp.StatusCode)
	}
}

func TestHTTPRejects(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v"})
	srv.MaxBodyBytes = 200
	c := startHTTP(t, srv)
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`
	tests := []struct {
		name   string
		method string
		body   string
		edit   func(*http.Request)
		status int
		want   string
	}{
		{"content type", "POST", ping, header("Content-Type", "text/plain"), 415, ""},
		{"no content type", "POST", ping, header("Content-Type", ""), 415, ""},
		{"accept html", "POST", ping, header("Accept", "text/html"), 406, ""},
		{"accept json only", "POST", ping, header("Accept", "application/json"), 406, ""},
		{"too large", "POST", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("a", 300) + `"}}`, nil, 413, ""},
		{"foreign host", "POST", init, func(r *http.Request) { r.Host = "evil.example" }, 403, ""},
		{"foreign origin", "POST", init, header("Origin", "http://evil.example"), 403, ""},
		{"null origin", "POST", init, header("Origin", "null"), 403, ""},
		{"localhost origin", "POST", init, header("Origin", "http://localhost:3000"), 200, ""},
		{"ipv6 loopback host", "POST", init, func(r *http.Request) { r.Host = "[::1]:8080" }, 200, ""},
		{"unsupported protocol header", "POST", ping, header("MCP-Protocol-Version", "2020-01-01"), 400,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"],"requested":"2020-01-01"}}}`},
		{"malformed", "POST", `{"jsonrpc":`, nil, 400, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`},
		{"wrong version", "POST", `{"jsonrpc":"1.0","id":3,"method":"ping"}`, nil, 400,
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"invalid request: \"jsonrpc\" must be \"2.0\""}}`},
		{"no session", "POST", ping, nil, 400, ""},
		{"put", "PUT", ping, nil, 405, ""},
		{"get without session", "GET", "", nil, 405, ""},
		{"get stateless", "GET", "", func(r *http.Request) {
			r.Header.Set("Mcp-Session-Id", "x")
			r.Header.Set("MCP-Protocol-Version", "2026-07-28")
		}, 405, ""},
		{"get unknown session", "GET", "", header("Mcp-Session-Id", "x"), 404, ""},
		{"get accept json", "GET", "", header("Accept", "application/json"), 406, ""},
		{"delete without session", "DELETE", "", nil, 400, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.t = t
			resp := c.do(tt.method, tt.body, tt.edit)
			got, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d; body %s", resp.StatusCode, tt.status, got)
			}
			if tt.want != "" {
				sameJSON(t, string(got), tt.want)
			}
		})
	}
}

func TestHTTPAllowedHostsOption(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v"})
	srv.AllowedHosts = []string{"mcp.example.com"}
	srv.AllowedOrigins = []string{"https://app.example.com"}
	c := startHTTP(t, srv)
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`
	c.post(init, 403, "", nil) // 127.0.0.1 is no longer listed
	c.post(init, 200, "", func(r *http.Request) { r.Host = "mcp.example.com" })
	c.post(init, 200, "", func(r *http.Request) {
		r.Host = "mcp.example.com"
		r.Header.Set("Origin", "https://app.example.com")
	})
	c.post(init, 403, "", func(r *http.Request) {
		r.Host = "mcp.example.com"
		r.Header.Set("Origin", "https://other.example.com")
	})
}

func TestHTTPProgressAsSSE(t *testing.T) {
	t.Parallel()
	prog := handlerTool("p", func(ctx context.Context, args []byte) mcprt.Result {
		mcprt.Progress(ctx, 1, 2, "half")
		return mcprt.TextResult("done")
	})
	c := startHTTP(t, New(mcprt.Identity{Name: "n", Version: "v"}, prog))
	c.initialize(wire.Rev20251125, `{}`)
	resp := c.do("POST", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"p","_meta":{"progressToken":3}}}`, nil)
	ev := events(t, resp)
	nextEvent(t, ev, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":3,"progress":1,"total":2,"message":"half"}}`)
	nextEvent(t, ev, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"done"}]}}`)
	// Without a token the answer is plain JSON.
	c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"p"}}`, 200,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"done"}]}}`, nil)
}

func TestHTTPElicitation(t *testing.T) {
	t.Parallel()
	c := startHTTP(t, New(mcprt.Identity{Name: "n", Version: "v", EnableElicitation: true}, elicitTool))
	c.initialize(wire.Rev20250618, `{"elicitation":{}}`)
	resp := c.do("POST", `{"jsonrpc":"2.0","id":"q","method":"tools/call","params":{"name":"ask"}}`, nil)
	ev := events(t, resp)
	nextEvent(t, ev, `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}}`)
	c.post(`{"jsonrpc":"2.0","id":1,"result":{"action":"decline"}}`, http.StatusAccepted, "", nil)
	nextEvent(t, ev, `{"jsonrpc":"2.0","id":"q","result":{"content":[{"type":"text","text":"decline "}]}}`)
}

func TestHTTPCancellation(t *testing.T) {
	t.Parallel()
	started, cancelled := make(chan struct{}), make(chan struct{})
	c := startHTTP(t, New(mcprt.Identity{Name: "n", Version: "v"}, blockTool(started, cancelled)))
	c.initialize(wire.Rev20250326, `{}`)
	req, err := http.NewRequest("POST", c.url, strings.NewReader(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"block"}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", c.sid)
	ended := make(chan error, 1)
	go func() { // the call's own request, which must end when it is cancelled
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			_, err = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		ended <- err
	}()
	<-started
	c.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`, http.StatusAccepted, "", nil)
	select {
	case <-cancelled:
	case <-time.After(timeout):
		t.Fatal("the handler was not cancelled")
	}
	select {
	case err := <-ended:
		if err != nil {
			t.Errorf("the cancelled call's request: %v", err)
		}
	case <-time.After(timeout):
		t.Fatal("the cancelled call's request did not end")
	}
}

func TestHTTPStateless(t *testing.T) {
	t.Parallel()
	c := startHTTP(t, New(mcprt.Identity{Name: "n", Version: "v"}, textTool("a", "A")))
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + statelessMeta + `,"name":"a"}}`
	stateless := func(r *http.Request) {
		r.Header.Set("MCP-Protocol-Version", "2026-07-28")
		r.Header.Set("Mcp-Method", "tools/call")
		r.Header.Set("Mcp-Name", "a")
	}
	c.post(call, 200, `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"A"}]}}`, stateless)
	c.post(call, 400, `{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"header mismatch: the MCP-Protocol-Version header is missing"}}`, nil)
	c.post(call, 400, `{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"header mismatch: the Mcp-Method header is missing"}}`, header("MCP-Protocol-Version", "2026-07-28"))
	c.post(call, 400, `{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"header mismatch: the Mcp-Name header is missing; tools/call requests carry it"}}`, func(r *http.Request) {
		stateless(r)
		r.Header.Del("Mcp-Name")
	})
	c.post(call, 400, `{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"header mismatch: Mcp-Name b does not match the request's \"a\""}}`, func(r *http.Request) {
		stateless(r)
		r.Header.Set("Mcp-Name", "b")
	})
	c.post(call, 200, `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"A"}]}}`, func(r *http.Request) {
		stateless(r)
		r.Header.Set("Mcp-Name", "=?base64?YQ==?=") // "a"
	})
	c.post(call, 400, `{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"header mismatch: the Mcp-Name header =?base64?YQ=?= is not valid"}}`, func(r *http.Request) {
		stateless(r)
		r.Header.Set("Mcp-Name", "=?base64?YQ=?=")
	})
	c.post(call, 400, `{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"header mismatch: Mcp-Method tools/list does not match method tools/call"}}`, func(r *http.Request) {
		stateless(r)
		r.Header.Set("Mcp-Method", "tools/list")
	})
	c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2030-01-01"}}}`, 400,
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"],"requested":"2030-01-01"}}}`, nil)
	c.post(`{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{`+statelessMeta+`}}`, 200,
		`{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","supportedVersions":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"],"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"public","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"n","version":"v"}}}}`,
		func(r *http.Request) {
			r.Header.Set("MCP-Protocol-Version", "2026-07-28")
			r.Header.Set("Mcp-Method", "server/discover")
		})
}

func TestHTTPBatch(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v"}, textTool("a", "A"))
	c := startHTTP(t, srv)
	c.initialize(wire.Rev20250326, `{}`)
	c.post(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"a"}}]`, 200,
		`[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"A"}]}}]`, nil)
	c.post(`[{"jsonrpc":"2.0","method":"notifications/x"}]`, http.StatusAccepted, "", nil)
	c2 := startHTTP(t, srv)
	c2.initialize(wire.Rev20250618, `{}`)
	c2.post(`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, 400,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: batches are supported only by protocol revision 2025-03-26"}}`, nil)
}

func TestHTTPGetStream(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableToolNotifications: true})
	c := startHTTP(t, srv)
	c.initialize(wire.Rev20250618, `{}`)
	resp := c.do("GET", "", header("Accept", "text/event-stream"))
	if resp.StatusCode != 200 {
		t.Fatalf("GET: status %d", resp.StatusCode)
	}
	ev := events(t, resp)
	if again := c.do("GET", "", nil); again.StatusCode != http.StatusConflict {
		t.Errorf("second GET: status %d, want 409", again.StatusCode)
	}
	srv.AddTools(textTool("b", "B"))
	nextEvent(t, ev, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
	srv.CloseStreams()
	select {
	case _, ok := <-ev:
		if ok {
			t.Error("unexpected event after CloseStreams")
		}
	case <-time.After(timeout):
		t.Error("CloseStreams did not end the stream")
	}
}

// TestHTTPShutdown checks the documented graceful shutdown: Shutdown
// returns promptly although a GET stream is open.
func TestHTTPShutdown(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v"})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv.HTTPHandler()}
	hs.RegisterOnShutdown(srv.CloseStreams)
	go hs.Serve(ln)
	c := &httpClient{t: t, url: "http://" + ln.Addr().String()}
	c.initialize(wire.Rev20250618, `{}`)
	resp := c.do("GET", "", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("GET: status %d", resp.StatusCode)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := hs.Shutdown(ctx); err != nil {
		t.Errorf("Shutdown = %v", err)
	}
}

// TestHTTPIdleSessionsExpire checks that sessions idle for longer than
// SessionIdleTimeout end when a new session starts, and that a session
// with a GET stream open or a call running is never idle.
func TestHTTPIdleSessionsExpire(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	slow := handlerTool("slow", func(ctx context.Context, args []byte) mcprt.Result {
		started <- struct{}{}
		<-release
		return mcprt.TextResult("slow")
	})
	srv := New(mcprt.Identity{Name: "n", Version: "v"}, textTool("a", "A"), slow)
	srv.SessionIdleTimeout = time.Minute
	srv.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`
	answer := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"A"}]}}`

	idle := startHTTP(t, srv)
	var once sync.Once
	unblock := func() { once.Do(func() { close(release) }) }
	t.Cleanup(unblock) // before the server's cleanup, which waits for handlers
	streaming, calling, fresh := new(httpClient), new(httpClient), new(httpClient)
	*streaming, *calling, *fresh = *idle, *idle, *idle // four clients of one server
	idle.initialize(wire.Rev20250618, `{}`)
	streaming.initialize(wire.Rev20250618, `{}`)
	calling.initialize(wire.Rev20250618, `{}`)
	stream := streaming.do(http.MethodGet, "", nil)
	if stream.StatusCode != http.StatusOK {
		t.Fatalf("GET: status %d", stream.StatusCode)
	}
	done := make(chan string)
	go func() {
		resp := calling.do(http.MethodPost, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}}`, nil)
		b, _ := io.ReadAll(resp.Body)
		done <- string(b)
	}()
	<-started

	advance(59 * time.Second)
	fresh.initialize(wire.Rev20250618, `{}`) // sweeps: nothing idle long enough yet
	idle.post(call, 200, answer, nil)        // and this use restarts its minute
	advance(62 * time.Second)
	fresh.initialize(wire.Rev20250618, `{}`) // sweeps again
	idle.post(call, http.StatusNotFound, "", nil)
	streaming.post(call, 200, answer, nil)
	unblock()
	if got := <-done; !strings.Contains(got, `"text":"slow"`) {
		t.Fatalf("the running call was cut short: %s", got)
	}
	calling.post(call, 200, answer, nil)

	// Without a timeout nothing expires.
	srv.SessionIdleTimeout = -1
	advance(24 * time.Hour)
	fresh.initialize(wire.Rev20250618, `{}`)
	calling.post(call, 200, answer, nil)
}
