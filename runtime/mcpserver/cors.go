package mcpserver

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// CORS lets browser pages of other origins call the Streamable HTTP
// endpoint. A preflight from an allowed origin is answered 204, allowing
// GET, POST and DELETE and the headers MCP requests carry; every answer to
// such an origin allows it to read the response and the Mcp-Session-Id,
// WWW-Authenticate and DPoP-Nonce headers. A request from an origin CORS allows
// passes the server's Origin check; the Host check stays. Any other origin
// gets no CORS headers, and the Origin check's 403 if it fails it.
//
// It is written here rather than taken from a CORS library because the
// allowed headers follow MCP (the Mcp-Param-* family is a prefix) and the
// origins feed the server's own DNS-rebinding check.
type CORS struct {
	// AllowedOrigins are the origins allowed, as browsers send them
	// ("https://app.example.com", "http://localhost:5173"), compared
	// exactly; a single "*" allows every origin. Empty allows none.
	AllowedOrigins []string
	// MaxAge is how long a browser may keep a preflight's answer. Zero
	// means DefaultCORSMaxAge; a negative value sends none.
	MaxAge time.Duration
}

// DefaultCORSMaxAge is how long browsers keep a preflight's answer when
// CORS.MaxAge is zero.
const DefaultCORSMaxAge = 10 * time.Minute

// corsHeaders are the request headers of MCP a preflight allows, besides
// the Mcp-Param-* headers it is asked for.
var corsHeaders = []string{"Content-Type", "Authorization", "DPoP", "Mcp-Session-Id", "Mcp-Method", "Mcp-Name", "MCP-Protocol-Version", "Last-Event-ID"}

// allows reports whether c allows origin.
func (c *CORS) allows(origin string) bool {
	if c == nil || origin == "" {
		return false
	}
	if len(c.AllowedOrigins) == 1 && c.AllowedOrigins[0] == "*" {
		return true
	}
	return slices.Contains(c.AllowedOrigins, origin)
}

// corsAllowed reports whether r comes from an origin Server.CORS allows.
func (s *Server) corsAllowed(r *http.Request) bool {
	return s.CORS != nil && s.CORS.allows(r.Header.Get("Origin"))
}

// Handler returns h, the Streamable HTTP endpoint of another server (an
// SDK's), answering preflights and adding CORS headers to answers as the
// built-in server does with Server.CORS. The other server's own origin
// checks, if any, still apply: let them accept the origins c allows.
func (c *CORS) Handler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c.allows(r.Header.Get("Origin")) && c.write(w, r) {
			return
		}
		h.ServeHTTP(w, r)
	})
}

// writeCORS sets the headers of an answer to an allowed origin, and
// answers a preflight, which it reports.
func (s *Server) writeCORS(w http.ResponseWriter, r *http.Request) (preflight bool) {
	return s.CORS.write(w, r)
}

// write sets the headers of an answer to an allowed origin, and answers
// a preflight, which it reports.
func (c *CORS) write(w http.ResponseWriter, r *http.Request) (preflight bool) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", r.Header.Get("Origin"))
	h.Add("Vary", "Origin")
	if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
		h.Set("Access-Control-Expose-Headers", "Mcp-Session-Id, WWW-Authenticate, DPoP-Nonce")
		return false
	}
	h.Add("Vary", "Access-Control-Request-Method, Access-Control-Request-Headers")
	h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE")
	allowed := slices.Clone(corsHeaders)
	for _, v := range r.Header.Values("Access-Control-Request-Headers") {
		for name := range strings.SplitSeq(v, ",") {
			name = strings.TrimSpace(name)
			if len(name) > len("Mcp-Param-") && strings.EqualFold(name[:len("Mcp-Param-")], "Mcp-Param-") {
				allowed = append(allowed, name)
			}
		}
	}
	h.Set("Access-Control-Allow-Headers", strings.Join(allowed, ", "))
	switch age := c.MaxAge; {
	case age == 0:
		h.Set("Access-Control-Max-Age", strconv.Itoa(int(DefaultCORSMaxAge/time.Second)))
	case age > 0:
		h.Set("Access-Control-Max-Age", strconv.Itoa(int(age/time.Second)))
	}
	w.WriteHeader(http.StatusNoContent)
	return true
}

// ReadyHandler returns a readiness probe for load balancers and
// orchestrators: GET and HEAD are answered 200 while the server serves,
// and 503 once [Server.CloseStreams] has been called, as a graceful
// shutdown does, so that no new client is sent to a server on its way
// out. Mount it at a path of its own, such as /readyz.
func (s *Server) ReadyHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		if s.closing.Load() {
			http.Error(w, "shutting down", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
	})
}
