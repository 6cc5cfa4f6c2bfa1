package mcpserver

import (
	"context"
	"encoding/json"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"slices"
	"sync"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// exchange is one request being handled. It carries what the method and,
// for tools/call, the handler's [mcprt.Caller] need: the revision the
// request is served under, its _meta, the client's capabilities and where
// messages to the client go while it runs.
type exchange struct {
	exchangeCore
	meta requestMeta
	// scratch, when set, is a pooled buffer holding the result; handle
	// returns it to the pool once the response is written.
	scratch *[]byte
	// own, for an HTTP request of a session, is the context the request
	// was given (see session.bind), which its registration for
	// cancellation takes rather than making one.
	own *inflight
	// running is the request's registration for cancellation, if any;
	// its context is the one run passes on.
	running *inflight
}

// exchangeCore is what a handler's [mcprt.Caller] needs of its exchange,
// and all that a handler may keep: a copy of it is the Caller, where a
// copy of the whole exchange, params and all, would be twice the size.
type exchangeCore struct {
	srv  *Server
	sess *session // nil for a stateless request over HTTP
	id   json.RawMessage
	rev  wire.Revision
	// hm is what the Caller reads of the request's _meta.
	hm   handlerMeta
	caps clientCaps
	out  sender
	// q, on a 2026-07-28 request whose handler may ask the client, is
	// what it asked (see rounds).
	q *questions
	// task, for a tool call run as a task, is its run.
	task *taskRun
	// token is the request's verified bearer token, nil without
	// authorization: what the request creates belongs to its principal.
	token *mcprt.TokenInfo
}

// handlerMeta is what a Caller reads of a request's _meta.
type handlerMeta struct {
	progressToken, clientInfo, clientCaps json.RawMessage
	logLevel                              mcprt.LogLevel
}

// newExchange is the exchange of the request m.
func newExchange(s *Server, sess *session, m *message, out sender) exchange {
	return exchange{
		exchangeCore: exchangeCore{srv: s, sess: sess, id: m.id, out: out, hm: handlerMeta{
			progressToken: m.meta.ProgressToken, clientInfo: m.meta.ClientInfo,
			clientCaps: m.meta.ClientCapabilities, logLevel: m.meta.LogLevel,
		}},
		meta: m.meta,
	}
}

// withResultType marks a result of a 2026-07-28 request with resultType, which
// that revision requires on every result.
func (x *exchangeCore) withResultType(result []byte) []byte {
	if !x.rev.Stateless() {
		return result
	}
	return markComplete(result)
}

// markComplete adds "resultType":"complete" to the result object, first.
func markComplete(result []byte) []byte {
	if len(result) < 2 {
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

// insertComplete is markComplete in result's own buffer, which it may
// grow.
func insertComplete(result []byte) []byte {
	if len(result) < 2 {
		return result
	}
	if result[1] == '}' {
		return slices.Insert(result, 1, completeField[:len(completeField)-1]...)
	}
	return slices.Insert(result, 1, completeField...)
}

// completeField is what insertComplete inserts before a result's first
// member.
var completeField = []byte(`"resultType":"complete",`)

// handle handles one message and returns the response to send, or nil for
// notifications, responses and cancelled requests.
func (s *Server) handle(ctx context.Context, sess *session, m *message, out sender) []byte {
	return s.handleIn(ctx, nil, sess, m, out, nil)
}

// handleIn is handle with own, when not nil, the context ctx of an HTTP
// request of sess, bound to it (see session.bind), and the response
// appended to dst, as answer says.
func (s *Server) handleIn(ctx context.Context, own *inflight, sess *session, m *message, out sender, dst []byte) []byte {
	switch {
	case m.isResponse():
		if sess != nil {
			sess.deliver(m)
		}
		return nil
	case m.isNotification():
		if s.interceptors != nil {
			s.interceptNotification(ctx, sess, m)
			return nil
		}
		s.notification(sess, m)
		return nil
	}
	x := newExchange(s, sess, m, out)
	x.token = tokenOf(ctx)
	if s.interceptors == nil {
		// An interceptor may call on several times, each with a context
		// of its own: then each call has its own registration.
		x.own = own
	}
	resp, _ := s.answer(ctx, &x, m, false, dst)
	return resp
}

// answer serves the request m and returns its response, nil for a
// request the client cancelled, and the code of the error answered (0 for
// a result), from which HTTP picks a status. A stateless request (HTTP,
// 2026-07-28) is served by stateless, any other by route. The response
// is appended to dst, a pooled buffer of a transport that writes it
// at once, or to a new one when dst is nil.
func (s *Server) answer(ctx context.Context, x *exchange, m *message, stateless bool, dst []byte) ([]byte, int) {
	defer func() { putBuffer(x.scratch) }()
	var result []byte
	var rerr *rpcError
	var cancelled bool
	if s.interceptors == nil {
		result, rerr, cancelled = s.run(ctx, x, m, stateless)
	} else {
		result, rerr, cancelled = s.intercepted(ctx, x, m, stateless)
	}
	switch {
	case cancelled:
		return nil, 0
	case rerr == errParse: // malformed arguments: the message has no id to answer
		return appendError(dst, nil, rerr), rerr.code
	case rerr != nil:
		return appendError(dst, m.id, rerr), rerr.code
	}
	if dst == nil {
		dst = make([]byte, 0, len(result)+len(m.id)+len(`{"jsonrpc":"2.0","id":,"result":}`))
	}
	return appendResponse(dst, m.id, result), 0
}

// putResponse gives back the pooled buffer b once resp, which was
// appended to it, is written and kept by nobody; a resp that outgrew b
// goes back in its stead.
func putResponse(b *[]byte, resp []byte) {
	if cap(resp) > cap(*b) {
		*b = resp[:0]
	}
	putBuffer(b)
}

// run serves the request m, as answer says: its result or error, or
// cancelled when the client cancelled it.
func (s *Server) run(ctx context.Context, x *exchange, m *message, stateless bool) (result []byte, rerr *rpcError, cancelled bool) {
	var running *inflight
	if x.sess != nil && runsHandler(m.method) {
		// Only handlers run long enough for a cancellation to matter; the
		// other methods answer at once, and may ignore it.
		ctx, running = x.sess.start(ctx, m.id, x.own)
		x.running = running
	}
	if stateless {
		result, rerr = s.stateless(ctx, x, m)
	} else {
		result, rerr = s.route(ctx, x, m)
	}
	if running != nil && running.finish() {
		return nil, nil, true
	}
	if rerr != nil && !x.meta.checkArgs() {
		rerr = errParse // whatever else is wrong, the message is not JSON
	}
	return result, rerr, false
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

// route picks the era of a request (see era) and serves it.
func (s *Server) route(ctx context.Context, x *exchange, m *message) ([]byte, *rpcError) {
	rev, stateless, err := era(m, "")
	switch {
	case err != nil:
		return nil, err
	case stateless:
		x.rev = rev
		x.caps = parseClientCaps(x.meta.ClientCapabilities)
		return s.stateless(ctx, x, m)
	case x.sess == nil:
		return nil, errorf(codeInvalidRequest, "invalid request: no session")
	}
	return s.legacy(ctx, x, m)
}

// The _meta keys of a 2026-07-28 request.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
)

// era classifies a request: served statelessly under a 2026-07-28-era
// revision, or by its legacy session. The revision comes from _meta, or
// from header, the MCP-Protocol-Version header over HTTP ("" on stdio);
// the two must agree. A revision the server lacks is the
// UnsupportedProtocolVersion error; a legacy revision belongs to the
// session. A 2026-07-28 request must carry its revision and the client's
// capabilities in _meta.
func era(m *message, header string) (wire.Revision, bool, *rpcError) {
	if !m.isRequest() {
		return "", false, nil
	}
	v := m.meta.ProtocolVersion
	if header != "" && v != "" && header != v {
		return "", true, errorf(codeHeaderMismatch, "header mismatch: MCP-Protocol-Version "+header+" does not match _meta "+metaProtocolVersion+" "+v)
	}
	want := v
	if want == "" {
		want = header
	}
	rev := wire.Revision(want)
	switch {
	case want == "":
		return "", false, nil
	case !rev.Supported():
		return "", true, unsupportedVersion(want)
	case !rev.Stateless():
		return "", false, nil
	case v == "":
		return rev, true, errorf(codeInvalidParams, "invalid params: a "+want+" request carries "+metaProtocolVersion+" in params._meta")
	case m.meta.ClientCapabilities == nil:
		return rev, true, errorf(codeInvalidParams, "invalid params: a "+want+" request carries "+metaClientCapabilities+" in params._meta")
	}
	return rev, true, nil
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
	"skills/list": true, "skills/get": true, "resources/directory/read": true,
	"tasks/get": true, "tasks/result": true, "tasks/list": true, "tasks/cancel": true,
	"groups/list": true,
}

// stateless serves a 2026-07-28-era request.
func (s *Server) stateless(ctx context.Context, x *exchange, m *message) ([]byte, *rpcError) {
	switch {
	case m.method == "server/discover":
		return s.discover(), nil
	case asksClient(m.method):
		return s.rounds(ctx, x, m)
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
	case "tasks/get", "tasks/result", "tasks/list", "tasks/cancel", "tasks/update":
		return s.tasks(ctx, x, m)
	case "groups/list":
		if s.groupsOn() {
			return s.listGroups(x, m.params)
		}
	}
	if result, rerr, ok := s.serveSkills(ctx, x, m); ok {
		return result, rerr
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
		if s.Sessions != nil && sess.id != "" {
			// The request may run on another replica of the session.
			s.publish(context.Background(), mcpstore.BusEvent{Kind: mcpstore.BusCancel, Session: sess.id, Data: p.RequestID})
		}
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
