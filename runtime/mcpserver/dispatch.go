package mcpserver

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/internal/wire"
)

// exchange is one request being handled. It carries what the method and,
// for tools/call, the handler's [mcprt.Caller] need: the revision the
// request is served under, its _meta, the client's capabilities and where
// messages to the client go while it runs.
type exchange struct {
	srv  *Server
	sess *session // nil for a stateless request over HTTP
	id   json.RawMessage
	rev  wire.Revision
	meta requestMeta
	caps clientCaps
	out  sender
	// scratch, when set, is a pooled buffer holding the result; handle
	// returns it to the pool once the response is written.
	scratch *[]byte
}

// withResultType marks a result of a 2026-07-28 request with resultType, which
// that revision requires on every result.
func (x *exchange) withResultType(result []byte) []byte {
	if !x.rev.Stateless() || len(result) < 2 {
		return result
	}
	const field = `"resultType":"complete"`
	sep := ","
	if result[1] == '}' {
		sep = ""
	}
	out := make([]byte, 0, len(result)+len(field)+1)
	out = append(out, '{')
	out = append(out, field...)
	out = append(out, sep...)
	return append(out, result[1:]...)
}

// handle handles one message and returns the response to send, or nil for
// notifications, responses and cancelled requests.
func (s *Server) handle(ctx context.Context, sess *session, m *message, out sender) []byte {
	switch {
	case m.isResponse():
		if sess != nil {
			sess.deliver(m)
		}
		return nil
	case m.isNotification():
		s.notification(sess, m)
		return nil
	}
	x := exchange{srv: s, sess: sess, id: m.id, meta: m.meta, out: out}
	var running *inflight
	if sess != nil && runsHandler(m.method) {
		// Only handlers run long enough for a cancellation to matter; the
		// other methods answer at once, and may ignore it.
		ctx, running = sess.start(ctx, m.id)
	}
	result, rerr := s.route(ctx, &x, m)
	if running != nil && running.finish() {
		putBuffer(x.scratch)
		return nil
	}
	if rerr != nil && !x.meta.checkArgs() {
		rerr = errParse // whatever else is wrong, the message is not JSON
	}
	var resp []byte
	if rerr == errParse { // malformed arguments: the message has no id to answer
		resp = appendError(nil, nil, rerr)
	} else if rerr != nil {
		resp = appendError(nil, m.id, rerr)
	} else {
		resp = appendResponse(make([]byte, 0, len(result)+len(m.id)+len(`{"jsonrpc":"2.0","id":,"result":}`)), m.id, result)
	}
	putBuffer(x.scratch)
	return resp
}

// runsHandler reports whether method runs a handler of the server's user
// (a tool, a prompt, a resource read or a completer) or lasts until
// cancelled (subscriptions/listen).
func runsHandler(method string) bool {
	switch method {
	case "tools/call", "prompts/get", "resources/read", "completion/complete", "subscriptions/listen":
		return true
	}
	return false
}

// buffers are scratch buffers for results that are copied into their
// response: a tool's result is written into one, then the response.
var buffers = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

func getBuffer() *[]byte { return buffers.Get().(*[]byte) }

// putBuffer returns b to the pool, unless it is nil or grew too large to
// keep.
func putBuffer(b *[]byte) {
	if b != nil && cap(*b) <= 64<<10 {
		buffers.Put(b)
	}
}

// route picks the era of a request: a request whose _meta names a
// 2026-07-28-era revision is served statelessly; anything else belongs to
// the legacy session.
func (s *Server) route(ctx context.Context, x *exchange, m *message) ([]byte, *rpcError) {
	if rev, modern, err := modernRevision(m, x.meta); err != nil {
		return nil, err
	} else if modern {
		x.rev = rev
		x.caps = parseClientCaps(x.meta.ClientCapabilities)
		return s.modern(ctx, x, m)
	}
	if x.sess == nil {
		return nil, errorf(codeInvalidRequest, "invalid request: no session")
	}
	return s.legacy(ctx, x, m)
}

// modernRevision reports whether m is a 2026-07-28-era request and under
// which revision. A _meta revision the server does not support is the
// UnsupportedProtocolVersion error; a legacy revision in _meta is ignored.
func modernRevision(m *message, meta requestMeta) (wire.Revision, bool, *rpcError) {
	if !m.isRequest() || m.method == "initialize" || meta.ProtocolVersion == "" {
		return "", false, nil
	}
	rev := wire.Revision(meta.ProtocolVersion)
	if !rev.Supported() {
		return "", true, unsupportedVersion(meta.ProtocolVersion)
	}
	return rev, rev.Stateless(), nil
}

// unsupportedVersion is the error for a revision the server lacks; its data
// lists the supported ones.
func unsupportedVersion(requested string) *rpcError {
	data := append([]byte(nil), `{"supported":[`...)
	for i, r := range wire.Revisions {
		if i > 0 {
			data = append(data, ',')
		}
		data = jsonx.AppendString(data, string(r))
	}
	data = append(data, `],"requested":`...)
	data = append(jsonx.AppendString(data, requested), '}')
	return &rpcError{code: codeUnsupportedProtocol, message: "Unsupported protocol version", data: data}
}

// legacy serves a request of an initialize-based revision.
func (s *Server) legacy(ctx context.Context, x *exchange, m *message) ([]byte, *rpcError) {
	switch m.method {
	case "initialize":
		return s.initialize(x, m.params)
	case "ping":
		return []byte(`{}`), nil
	}
	if !legacyMethods[m.method] {
		return nil, methodNotFound(m.method)
	}
	x.sess.mu.Lock()
	x.rev, x.caps = x.sess.rev, x.sess.caps
	x.sess.mu.Unlock()
	if x.rev == "" {
		return nil, errorf(codeInvalidRequest, "invalid request: the session is not initialized; send initialize first")
	}
	switch m.method {
	case "logging/setLevel":
		return s.setLevel(x, m.params)
	case "resources/subscribe":
		return s.subscribe(x, m.method, m.params, true)
	case "resources/unsubscribe":
		return s.subscribe(x, m.method, m.params, false)
	}
	return s.serve(ctx, x, m)
}

// legacyMethods are the methods a legacy session serves once initialized.
var legacyMethods = map[string]bool{
	"tools/list": true, "tools/call": true, "logging/setLevel": true, "completion/complete": true,
	"prompts/list": true, "prompts/get": true, "resources/list": true, "resources/templates/list": true,
	"resources/read": true, "resources/subscribe": true, "resources/unsubscribe": true,
}

// modern serves a 2026-07-28-era request.
func (s *Server) modern(ctx context.Context, x *exchange, m *message) ([]byte, *rpcError) {
	if m.method == "server/discover" {
		return s.discover(), nil
	}
	if m.method == "subscriptions/listen" {
		return s.listen(ctx, x, m.params)
	}
	return s.serve(ctx, x, m)
}

// serve serves the methods both eras have. Those of prompts and resources
// exist only while the server publishes the capability.
func (s *Server) serve(ctx context.Context, x *exchange, m *message) ([]byte, *rpcError) {
	switch m.method {
	case "tools/list":
		return s.listTools(x, m.params)
	case "tools/call":
		return s.callTool(ctx, x, m.params)
	case "completion/complete":
		return s.complete(ctx, x, m.params)
	}
	caps := s.caps.Load()
	if caps.prompts {
		switch m.method {
		case "prompts/list":
			return s.listPrompts(x, m.params)
		case "prompts/get":
			return s.getPrompt(ctx, x, m.params)
		}
	}
	if caps.resources {
		switch m.method {
		case "resources/list":
			return s.listResources(x, m.params)
		case "resources/templates/list":
			return s.listTemplates(x, m.params)
		case "resources/read":
			return s.readResource(ctx, x, m.params)
		}
	}
	return nil, methodNotFound(m.method)
}

func methodNotFound(method string) *rpcError {
	return errorf(codeMethodNotFound, "method not found: "+method)
}

// notification handles a client notification. Unknown ones are ignored,
// as JSON-RPC asks.
func (s *Server) notification(sess *session, m *message) {
	if sess == nil || m.method != "notifications/cancelled" {
		return
	}
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if unmarshalParams(m.params, &p) == nil && p.RequestID != nil {
		sess.cancel(p.RequestID)
	}
}

// handleBatch handles a JSON-RPC batch: accepted only on 2025-03-26
// sessions, its requests run concurrently and their responses come back as
// one array, in order. It returns nil when nothing is to be answered.
func (s *Server) handleBatch(ctx context.Context, sess *session, items []json.RawMessage, out sender) []byte {
	if sess == nil || sess.revision() != wire.Rev20250326 {
		return appendError(nil, nil, errorf(codeInvalidRequest, "invalid request: batches are supported only by protocol revision 2025-03-26"))
	}
	if len(items) == 0 {
		return appendError(nil, nil, errorf(codeInvalidRequest, "invalid request: empty batch"))
	}
	resps := make([][]byte, len(items))
	var wg sync.WaitGroup
	for i, raw := range items {
		m, id, rerr := parseMessage(raw)
		switch {
		case rerr != nil:
			resps[i] = appendError(nil, id, rerr)
		case m.isRequest() && m.method == "initialize":
			resps[i] = appendError(nil, m.id, errorf(codeInvalidRequest, "invalid request: initialize must not be part of a batch"))
		case m.isRequest():
			wg.Go(func() { resps[i] = s.handle(ctx, sess, m, out) })
		default:
			s.handle(ctx, sess, m, out)
		}
	}
	wg.Wait()
	return joinBatch(resps)
}

// joinBatch makes a JSON array of the non-nil responses, nil if none.
func joinBatch(resps [][]byte) []byte {
	var dst []byte
	for _, r := range resps {
		if r == nil {
			continue
		}
		if dst == nil {
			dst = append(dst, '[')
		} else {
			dst = append(dst, ',')
		}
		dst = append(dst, r...)
	}
	if dst == nil {
		return nil
	}
	return append(dst, ']')
}
