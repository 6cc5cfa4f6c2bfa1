package authgate

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonx"
)

// Operation is one JSON-RPC request of a POST body: its method, and the
// name (tools/call, prompts/get) or URI (resources/read) it names.
type Operation struct {
	Method, Name, URI string
}

// Operations reads the requests of a POST body, one message or a batch.
// It reports false for a body that is not JSON-RPC, which the server
// behind the gate answers as it does any other.
func Operations(body []byte) ([]Operation, json.RawMessage, bool) {
	type params struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	}
	type request struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	read := func(r request) Operation {
		var p params
		if len(r.Params) > 0 && r.Params[0] == '{' {
			_ = json.Unmarshal(r.Params, &p) // a bad params is the server's to answer
		}
		return Operation{Method: r.Method, Name: p.Name, URI: p.URI}
	}
	body = bytes.TrimLeft(body, " \t\r\n")
	if len(body) > 0 && body[0] == '[' {
		var batch []request
		if json.Unmarshal(body, &batch) != nil {
			return nil, nil, false
		}
		ops := make([]Operation, len(batch))
		for i, r := range batch {
			ops[i] = read(r)
		}
		return ops, nil, true
	}
	var r request
	if json.Unmarshal(body, &r) != nil {
		return nil, nil, false
	}
	return []Operation{read(r)}, r.ID, true
}

// ProtectOptions say what Protect needs of the server behind it.
type ProtectOptions struct {
	// Scopes returns the scopes op declares (its tool's, prompt's or
	// resource's scope=), nil for none.
	Scopes func(op Operation) []string
	// Declared returns every scope the server declares, for the metadata.
	Declared func() []string
	// MaxBody limits the body read to check scopes; larger is 413.
	MaxBody int64
	// Log receives the refusals of the verifier.
	Log *slog.Logger
}

// Catalog is what a server knows of the scopes it declares: those of one
// operation, and all of them (the adapters' wire.Catalog).
type Catalog interface {
	ScopesOf(method, name, uri string, match func(template, uri string) bool) []string
	AllScopes() []string
}

// CatalogOptions are the options of Protect for a server whose scopes c
// holds, logging refusals to log.
func CatalogOptions(c Catalog, log *slog.Logger) ProtectOptions {
	return ProtectOptions{
		Scopes:   func(op Operation) []string { return c.ScopesOf(op.Method, op.Name, op.URI, MatchTemplate) },
		Declared: c.AllScopes,
		Log:      log,
	}
}

// Protect puts an SDK's Streamable HTTP handler behind g, as the built-in
// server is: the metadata on its well-known paths; 401 for a request
// without a valid bearer token; 404 for a session another principal
// created; 403 for a POST one of whose requests needs a scope the token
// lacks (a batch as a whole). What passes reaches next with the token in
// its context (mcprt.Token) and the body as it came.
func (g *Gate) Protect(next http.Handler, o ProtectOptions) http.Handler {
	if o.MaxBody <= 0 {
		o.MaxBody = 4 << 20
	}
	p := &protected{g: g, next: next, o: o, sessions: map[string]*binding{}}
	return p
}

type protected struct {
	g    *Gate
	next http.Handler
	o    ProtectOptions

	mu        sync.Mutex
	sessions  map[string]*binding // Mcp-Session-Id -> whose it is
	lastSweep time.Time
}

// binding is the principal of a session and when it was last used.
type binding struct {
	principal string
	used      time.Time
}

// sessionTTL is how long a session unused is remembered. The SDK ends
// idle sessions on its own, without telling; a binding outlives the
// session and is dropped after this long, or at the session's 404.
const sessionTTL = 24 * time.Hour

func (p *protected) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodOptions {
		if path := r.URL.Path; path == p.g.MetadataPathOf() || path == MetadataPath {
			p.g.MetadataHandler(p.o.Declared).ServeHTTP(w, r)
			return
		}
	}
	t, r := p.g.Authenticate(w, r, p.o.Log)
	if t == nil {
		return
	}
	who := Principal(t)
	sid := r.Header.Get("Mcp-Session-Id")
	if sid != "" && !p.owns(sid, who) {
		http.Error(w, "Not Found: unknown session", http.StatusNotFound)
		return
	}
	if r.Method == http.MethodPost {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, p.o.MaxBody))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				http.Error(w, "Request Entity Too Large", http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "Bad Request: reading the body failed", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if ops, id, ok := Operations(body); ok {
			var need []string
			lacks := false
			for _, op := range ops {
				var declared []string
				if p.o.Scopes != nil {
					declared = p.o.Scopes(op)
				}
				n := p.g.Need(declared)
				need = Union(need, n)
				lacks = lacks || Lacks(t, n)
			}
			if lacks {
				p.g.ForbidToken(w, t, need, ErrorResponse(id, need))
				return
			}
		}
	}
	rec := &sessionRecorder{ResponseWriter: w}
	p.next.ServeHTTP(rec, r)
	switch {
	case sid == "" && rec.sid != "":
		p.bind(rec.sid, who)
	case sid != "" && (rec.status == http.StatusNotFound || r.Method == http.MethodDelete && rec.status/100 == 2):
		p.unbind(sid)
	}
}

// owns reports whether who may use session sid: its creator, or anyone
// for a session this gate did not see made (the server behind it answers
// an unknown one).
func (p *protected) owns(sid, who string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	b := p.sessions[sid]
	if b == nil {
		return true
	}
	if b.principal != who {
		return false
	}
	b.used = time.Now()
	return true
}

func (p *protected) bind(sid, who string) {
	now := time.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sessions[sid] = &binding{principal: who, used: now}
	if now.Sub(p.lastSweep) > time.Hour {
		p.lastSweep = now
		for id, b := range p.sessions {
			if now.Sub(b.used) > sessionTTL {
				delete(p.sessions, id)
			}
		}
	}
}

func (p *protected) unbind(sid string) {
	p.mu.Lock()
	delete(p.sessions, sid)
	p.mu.Unlock()
}

// sessionRecorder notes the status and the Mcp-Session-Id of a response;
// it passes flushes on, as SSE streams need.
type sessionRecorder struct {
	http.ResponseWriter
	status int
	sid    string
}

func (s *sessionRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status, s.sid = code, s.Header().Get("Mcp-Session-Id")
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *sessionRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.WriteHeader(http.StatusOK)
	}
	return s.ResponseWriter.Write(b)
}

func (s *sessionRecorder) Flush() {
	if s.status == 0 {
		s.WriteHeader(http.StatusOK)
	}
	http.NewResponseController(s.ResponseWriter).Flush()
}

// Unwrap gives http.ResponseController the writer underneath.
func (s *sessionRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// ErrorResponse is the JSON-RPC error response of a request refused for
// lack of scope: code -32600 with the scopes needed in data.scopes. id
// nil answers null, as for a batch.
func ErrorResponse(id json.RawMessage, need []string) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	dst := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	dst = append(dst, `,"error":{"code":-32600,"message":`...)
	dst = jsonx.AppendString(dst, ScopeMessage(need))
	dst = append(dst, `,"data":{"scopes":[`...)
	for i, s := range need {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendString(dst, s)
	}
	return append(dst, "]}}}"...)
}

// MatchTemplate reports whether uri is one of the URIs of the RFC 6570
// template tmpl as the generator writes them: literals, {name} for one
// path segment (no '/', '?' or '#', at least one character) and {+name}
// for any text of at least one character. It tells which templates'
// scopes a read needs before any of them runs; the walk keeps the set of
// positions each part can end at, so it costs the length of uri per part.
func MatchTemplate(tmpl, uri string) bool {
	const maxURI = 64 << 10
	if len(uri) > maxURI {
		return false
	}
	at := make([]bool, len(uri)+1)
	next := make([]bool, len(uri)+1)
	at[0] = true
	for rest := tmpl; rest != ""; {
		clear(next)
		open := strings.IndexByte(rest, '{')
		if open != 0 {
			lit := rest
			if open > 0 {
				lit = rest[:open]
			}
			rest = rest[len(lit):]
			for i, ok := range at {
				if ok && strings.HasPrefix(uri[i:], lit) {
					next[i+len(lit)] = true
				}
			}
		} else {
			end := strings.IndexByte(rest, '}')
			if end < 0 {
				return false
			}
			plus := strings.HasPrefix(rest, "{+")
			rest = rest[end+1:]
			// reach says a start position before i, from which the
			// variable's text up to i is allowed, can be reached.
			reach := false
			for i := range uri {
				if !plus && (uri[i] == '/' || uri[i] == '?' || uri[i] == '#') {
					reach = false
				} else {
					reach = reach || at[i]
					next[i+1] = next[i+1] || reach
				}
			}
		}
		at, next = next, at
	}
	return at[len(uri)]
}
