package bench

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/bench/pricing"
	"github.com/mcpgen/mcpgen/bench/servers"
)

// statelessMeta is the _meta of a 2026-07-28 request, as bench/cmd/load
// sends it.
const statelessMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},`

// serveCase is one POST served in the process: a handler, the headers and
// the body of the request.
type serveCase struct {
	name   string
	h      http.Handler
	header http.Header
	body   []byte
}

// serveCases are the reference call through the floor's handler and
// through the built-in server's, in a 2025-11-25 session and as a
// 2026-07-28 request, with the headers bench/cmd/load sends.
func serveCases(tb testing.TB) []serveCase {
	floor, err := servers.HTTPHandler(servers.Floor, false)
	if err != nil {
		tb.Fatal(err)
	}
	builtin := servers.BuiltinServer().HTTPHandler()
	base := http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"}}
	sessions := base.Clone()
	sessions.Set("MCP-Protocol-Version", "2025-11-25")
	init := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"load","version":"1.0.0"}}}`
	w := serveOnce(builtin, base, []byte(init))
	sid := w.h.Get("Mcp-Session-Id")
	if w.status != http.StatusOK || sid == "" {
		tb.Fatalf("initialize: %d %s", w.status, w.body)
	}
	sessions.Set("Mcp-Session-Id", sid)
	if w := serveOnce(builtin, sessions, []byte(initializedNote)); w.status != http.StatusAccepted {
		tb.Fatalf("notifications/initialized: %d %s", w.status, w.body)
	}
	stateless := base.Clone()
	stateless.Set("MCP-Protocol-Version", "2026-07-28")
	stateless.Set("Mcp-Method", "tools/call")
	stateless.Set("Mcp-Name", "bulk_price_update")
	call := pricing.CallRequest(1, 10)
	return []serveCase{
		{"floor", floor, base, call},
		{"mcpserver-sessions", builtin, sessions, call},
		{"mcpserver-stateless", builtin, stateless, bytes.Replace(call, []byte(`"params":{`), []byte(`"params":{`+statelessMeta), 1)},
	}
}

// BenchmarkHTTPServe is the reference call through an HTTP handler in the
// process, no socket and no net/http server: the handler's own work per
// POST, the floor's beside the built-in server's. The request and the
// response writer are reused, so what allocates is the handler.
func BenchmarkHTTPServe(b *testing.B) {
	for _, c := range serveCases(b) {
		b.Run(c.name, func(b *testing.B) {
			req, body := newPost(c.header, c.body)
			rc := io.NopCloser(body)
			w := &discardWriter{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				body.Reset(c.body)
				req.Body = rc
				clear(w.h)
				w.status = 0
				c.h.ServeHTTP(w, req)
				if w.status != http.StatusOK {
					b.Fatalf("status %d", w.status)
				}
			}
		})
	}
}

// TestHTTPServeAnswers checks that every case of BenchmarkHTTPServe
// answers the reference call.
func TestHTTPServeAnswers(t *testing.T) {
	t.Parallel()
	for _, c := range serveCases(t) {
		w := serveOnce(c.h, c.header, c.body)
		if w.status != http.StatusOK || !strings.Contains(string(w.body), `"text":"updated 10 prices in emea"`) {
			t.Errorf("%s: %d %s", c.name, w.status, w.body)
		}
	}
}

// serveOnce serves one POST and returns what was written.
func serveOnce(h http.Handler, header http.Header, body []byte) *discardWriter {
	req, _ := newPost(header, body)
	w := &discardWriter{h: http.Header{}, keep: true}
	h.ServeHTTP(w, req)
	return w
}

// newPost is a POST of body to the endpoint with header, and the reader
// of its body.
func newPost(header http.Header, body []byte) (*http.Request, *bytes.Reader) {
	r := bytes.NewReader(body)
	req, err := http.NewRequest(http.MethodPost, "http://127.0.0.1:8080/mcp", r)
	if err != nil {
		panic(err)
	}
	req.Header = header
	req.RemoteAddr = "127.0.0.1:50000"
	return req, r
}

// discardWriter is a ResponseWriter that keeps the status and, with keep,
// the body.
type discardWriter struct {
	h      http.Header
	status int
	keep   bool
	body   []byte
}

func (w *discardWriter) Header() http.Header { return w.h }

func (w *discardWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *discardWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	if w.keep {
		w.body = append(w.body, p...)
	}
	return len(p), nil
}
