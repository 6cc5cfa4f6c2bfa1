package authgate

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// Operation is one JSON-RPC message of a POST body: its method, the
// name (tools/call, prompts/get) or URI (resources/read) it names, and
// its raw parts as sent.
type Operation struct {
	Method, Name, URI string
	// ID is the id as sent; nil for a notification, which has none.
	ID json.RawMessage
	// Params, Meta (params._meta) and Arguments (params.arguments) as
	// sent; nil when absent.
	Params, Meta, Arguments json.RawMessage
}

// Operations reads the messages of a POST body, one message or a batch.
// It reports false for a body that is not JSON-RPC, which the server
// behind the gate answers as it does any other. The id returned is that
// of a single message, nil for a batch.
func Operations(body []byte) ([]Operation, json.RawMessage, bool) {
	type params struct {
		Name      string          `json:"name"`
		URI       string          `json:"uri"`
		Meta      json.RawMessage `json:"_meta"`
		Arguments json.RawMessage `json:"arguments"`
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
		return Operation{Method: r.Method, Name: p.Name, URI: p.URI, ID: r.ID, Params: r.Params, Meta: p.Meta, Arguments: p.Arguments}
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

// Refusal is a request Protect refused: the HTTP status answered, the
// reason (one of the Reason constants), the message of the answer, and
// the messages of the POST body (none for GET and DELETE, or a body that
// is not JSON-RPC). Error is the JSON-RPC error answered, nil when the
// answer is plain HTTP.
type Refusal struct {
	Status  int
	Reason  string
	Message string
	Ops     []Operation
	Error   json.RawMessage
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
	// Refused, when set, is told of every request Protect refuses, after
	// it has answered; r is the request, with the token in its context
	// when one was verified.
	Refused func(r *http.Request, ref Refusal)
}

// Catalog is what a server knows of the scopes it declares: those of one
// operation, and all of them (the adapters' wire.Catalog).
type Catalog interface {
	ScopesOf(method, name, uri string) []string
	AllScopes() []string
}

// CatalogOptions are the options of Protect for a server whose scopes c
// holds, logging refusals to log.
func CatalogOptions(c Catalog, log *slog.Logger) ProtectOptions {
	return ProtectOptions{
		Scopes:   func(op Operation) []string { return c.ScopesOf(op.Method, op.Name, op.URI) },
		Declared: c.AllScopes,
		Log:      log,
	}
}

// Protect puts an SDK's Streamable HTTP handler behind g, as the built-in
// server is: the metadata on its well-known paths; 401 (or 503) for a
// request Verify denies; 404 for a session another principal
// created; 403 for a POST one of whose requests needs a scope the token
// lacks (a batch as a whole). What passes reaches next with the token in
// its context (mcprt.Token) and the body as it came; what is refused is
// told to ProtectOptions.Refused.
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
	t, r2, denied := p.g.Verify(w, r, p.o.Log)
	if t == nil {
		var ops []Operation
		if p.o.Refused != nil && r.Method == http.MethodPost {
			// Read before answering, as HTTP/1 may not read after: the
			// refusal tells what the body asked for.
			if body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, p.o.MaxBody)); err == nil {
				ops, _, _ = Operations(body)
			}
		}
		p.g.Unauthorized(w, denied)
		p.refused(r, Refusal{Status: denied.Status, Reason: denied.Reason, Message: denied.Message, Ops: ops})
		return
	}
	r = r2
	var ops []Operation
	var id json.RawMessage
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
		ops, id, _ = Operations(body)
	}
	who := Principal(t)
	sid := r.Header.Get("Mcp-Session-Id")
	if sid != "" && !p.owns(sid, who) {
		http.Error(w, MessageUnknown, http.StatusNotFound)
		p.refused(r, Refusal{Status: http.StatusNotFound, Reason: ReasonUnknown, Message: MessageUnknown, Ops: ops})
		return
	}
	if len(ops) > 0 {
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
			resp := ErrorResponse(id, need)
			p.g.ForbidToken(w, t, need, resp)
			p.refused(r, Refusal{Status: http.StatusForbidden, Reason: ReasonScope, Message: ScopeMessage(need), Ops: ops, Error: ErrorObject(need)})
			return
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

// refused tells ProtectOptions.Refused of ref, if it is set.
func (p *protected) refused(r *http.Request, ref Refusal) {
	if p.o.Refused != nil {
		p.o.Refused(r, ref)
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
	dst = append(append(dst, `,"error":`...), ErrorObject(need)...)
	return append(dst, '}')
}

// ErrorObject is the JSON-RPC error object of ErrorResponse.
func ErrorObject(need []string) []byte {
	dst := append([]byte(nil), `{"code":-32600,"message":`...)
	dst = jsonx.AppendString(dst, ScopeMessage(need))
	dst = append(dst, `,"data":{"scopes":[`...)
	for i, s := range need {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendString(dst, s)
	}
	return append(dst, "]}}"...)
}

// LogRefusal logs ref, a refusal of r, at Info: a line "mcp request
// refused" for each message of its body, with the JSON-RPC method and
// what it names, or one line "mcp HTTP request refused" with the HTTP
// method when the body held none (a GET, a DELETE). Each line has the
// status, the reason, the session and the principal (the subject of the
// verified token).
func LogRefusal(log *slog.Logger, r *http.Request, ref Refusal) {
	ctx := r.Context()
	if !log.Enabled(ctx, slog.LevelInfo) {
		return
	}
	tail := []slog.Attr{slog.Int("status", ref.Status), slog.String("reason", ref.Reason)}
	if sid := r.Header.Get("Mcp-Session-Id"); sid != "" {
		tail = append(tail, slog.String("session", sid))
	}
	if tok, ok := mcprt.Token(ctx); ok {
		tail = append(tail, slog.String("principal", tok.Subject))
	}
	told := false
	for _, op := range ref.Ops {
		if op.Method == "" {
			continue // a response of the client
		}
		told = true
		attrs := []slog.Attr{slog.String("method", op.Method)}
		if target := op.Name + op.URI; target != "" {
			attrs = append(attrs, slog.String("target", target))
		}
		log.LogAttrs(ctx, slog.LevelInfo, "mcp request refused", append(attrs, tail...)...)
	}
	if !told {
		log.LogAttrs(ctx, slog.LevelInfo, "mcp HTTP request refused", append([]slog.Attr{slog.String("method", r.Method)}, tail...)...)
	}
}
