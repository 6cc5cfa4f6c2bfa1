package mcpserver

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestCORS checks preflights and answers for an allowed origin, and that
// any other origin gets no CORS headers and the Origin check's answer.
func TestCORS(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "t", Version: "1"}, textTool("a", "A"))
	srv.CORS = &CORS{AllowedOrigins: []string{"https://app.example.com"}, MaxAge: time.Hour}
	c := startHTTP(t, srv)
	preflight := func(origin string) *http.Response {
		return c.do(http.MethodOptions, "", func(r *http.Request) {
			r.Header.Set("Origin", origin)
			r.Header.Set("Access-Control-Request-Method", "POST")
			r.Header.Set("Access-Control-Request-Headers", "content-type,mcp-session-id,mcp-param-region,x-other")
		})
	}

	resp := preflight("https://app.example.com")
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("preflight: status %d", resp.StatusCode)
	}
	for k, want := range map[string]string{
		"Access-Control-Allow-Origin":  "https://app.example.com",
		"Access-Control-Allow-Methods": "GET, POST, DELETE",
		"Access-Control-Allow-Headers": "Content-Type, Authorization, DPoP, Mcp-Session-Id, Mcp-Method, Mcp-Name, MCP-Protocol-Version, Last-Event-ID, mcp-param-region",
		"Access-Control-Max-Age":       "3600",
	} {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("preflight %s = %q, want %q", k, got, want)
		}
	}

	fromApp := header("Origin", "https://app.example.com")
	resp = c.post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}`, 200, "", fromApp)
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "https://app.example.com" {
		t.Errorf("Access-Control-Allow-Origin = %q", got)
	}
	if got := resp.Header.Get("Access-Control-Expose-Headers"); got != "Mcp-Session-Id, WWW-Authenticate, DPoP-Nonce" {
		t.Errorf("Access-Control-Expose-Headers = %q", got)
	}
	if resp.Header.Get("Mcp-Session-Id") == "" {
		t.Error("no session id")
	}

	// Another origin: the Origin check refuses it, without CORS headers.
	for _, resp := range []*http.Response{
		preflight("https://evil.example.com"),
		c.do(http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, header("Origin", "https://evil.example.com")),
	} {
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s from another origin: status %d, want 403", resp.Request.Method, resp.StatusCode)
		}
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Errorf("%s from another origin: Access-Control-Allow-Origin %q", resp.Request.Method, got)
		}
	}
	// A loopback origin passes the Origin check as before, but CORS does
	// not allow it: no CORS headers, and a preflight is not served.
	resp = preflight("http://localhost:5173")
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("preflight from a loopback origin: status %d, headers %v", resp.StatusCode, resp.Header)
	}

	// The Host check stays.
	resp = c.do(http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, func(r *http.Request) {
		r.Host = "attacker.example.com"
		r.Header.Set("Origin", "https://app.example.com")
	})
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("allowed origin, other host: status %d, want 403", resp.StatusCode)
	}
}

// TestCORSOff checks that without CORS a preflight is not answered and no
// CORS header is sent, as before CORS existed.
func TestCORSOff(t *testing.T) {
	t.Parallel()
	c := startHTTP(t, New(mcprt.Identity{Name: "t", Version: "1"}))
	resp := c.do(http.MethodOptions, "", func(r *http.Request) {
		r.Header.Set("Origin", "http://localhost:5173")
		r.Header.Set("Access-Control-Request-Method", "POST")
	})
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("preflight without CORS: status %d, headers %v", resp.StatusCode, resp.Header)
	}
	c.initialize(wire.Rev20250618, `{}`)
}

// TestReadyHandler checks that the probe answers 200 until CloseStreams.
func TestReadyHandler(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "t", Version: "1"})
	probe := func(method string) (int, string) {
		rec := httptest.NewRecorder()
		srv.ReadyHandler().ServeHTTP(rec, httptest.NewRequest(method, "/readyz", nil))
		body, _ := io.ReadAll(rec.Body)
		return rec.Code, string(body)
	}
	if code, body := probe(http.MethodGet); code != 200 || body != "ok\n" {
		t.Errorf("GET: %d %q", code, body)
	}
	if code, _ := probe(http.MethodHead); code != 200 {
		t.Errorf("HEAD: %d", code)
	}
	if code, _ := probe(http.MethodPost); code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", code)
	}
	srv.CloseStreams()
	if code, _ := probe(http.MethodGet); code != http.StatusServiceUnavailable {
		t.Errorf("GET after CloseStreams: %d, want 503", code)
	}
}

// TestCORSHandler checks CORS in front of another handler: a preflight
// answered without reaching it, and an answer to an allowed origin with
// the CORS headers; another origin passes through untouched.
func TestCORSHandler(t *testing.T) {
	t.Parallel()
	reached := 0
	h := (&CORS{AllowedOrigins: []string{"https://app.example.com"}}).Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached++
		w.WriteHeader(http.StatusOK)
	}))
	serve := func(method, origin string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, "/mcp", nil)
		r.Header.Set("Origin", origin)
		if method == http.MethodOptions {
			r.Header.Set("Access-Control-Request-Method", "POST")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	if w := serve(http.MethodOptions, "https://app.example.com"); w.Code != http.StatusNoContent || w.Header().Get("Access-Control-Max-Age") != "600" || reached != 0 {
		t.Errorf("preflight: %d %v, reached %d", w.Code, w.Header(), reached)
	}
	if w := serve(http.MethodPost, "https://app.example.com"); w.Code != 200 || w.Header().Get("Access-Control-Allow-Origin") != "https://app.example.com" || reached != 1 {
		t.Errorf("POST: %d %v, reached %d", w.Code, w.Header(), reached)
	}
	if w := serve(http.MethodPost, "https://evil.example.com"); w.Header().Get("Access-Control-Allow-Origin") != "" || reached != 2 {
		t.Errorf("another origin: %v, reached %d", w.Header(), reached)
	}
}
