package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/internal/wire"
)

// Interceptor wraps the handling of every request and notification the
// server receives, as a gRPC UnaryServerInterceptor wraps a call. It runs
// after the transport has read the message (and, over HTTP, after
// authorization) and before the method is dispatched. It calls next, at
// most once and before it returns, to go on, and returns the outcome next
// returned, or one of its own: an interceptor refuses a request by
// returning [Refuse] without calling next.
//
// ctx is the request's context: over HTTP it derives from the
// *http.Request's, so it carries what HTTP middleware put there (a span
// of the HTTP request, for one), and [mcprt.Token] gives the verified
// token of an authorized request, which names the principal. An
// interceptor may pass next a context of its own, derived from ctx, and
// the handler runs with it.
//
// A notification has no answer: its Outcome is empty and what an
// interceptor returns for it is ignored, so refusing one drops it.
//
// A request the Streamable HTTP transport refuses before it is served is
// seen too, so that logs and traces show every refusal: no valid token
// (401), a scope the token lacks (403), a session unknown or another
// principal's (404), and headers, _meta or arguments it cannot be served
// with (400). ctx carries the token where one was verified; next serves
// nothing and returns the refusal ([Outcome.Refused]); what the
// interceptor returns changes nothing. Each message of a refused batch
// is seen; a refused GET or DELETE, which carries none, is logged on
// Server.Logger at Info instead.
//
// A tool call run as a task (2025-11-25 with a task parameter, or a
// 2026-07-28 call that outlives Server.TaskGrace) is seen once, as the
// tools/call request the client sent; its outcome is the answer that
// request got, the task's creation when it became a task. The task's
// later requests (tasks/get, tasks/result, tasks/cancel) are seen as they
// come, tasks/result with the tool's result; the run in the background
// between them is not a request and is not intercepted.
type Interceptor func(ctx context.Context, req *Request, next Next) Outcome

// Next hands a request on: to the next interceptor, or to the server.
type Next func(ctx context.Context) Outcome

// Transport names the transport a request came on.
type Transport string

// The transports of a [Request] and a [SessionEnd].
const (
	TransportStdio Transport = "stdio" // ServeStdio and ServeStream
	TransportHTTP  Transport = "http"  // HTTPHandler
	TransportConn  Transport = "conn"  // a Conn of Server.Connect
)

// Request is what an interceptor sees of one request or notification. Its
// byte slices point into the message as read and stay valid only until
// the interceptor returns; copy what you keep.
type Request struct {
	// Method is the JSON-RPC method ("tools/call", "notifications/cancelled").
	Method string
	// Notification is set for a notification, which has no answer.
	Notification bool
	// ID is the JSON-RPC id as sent (a number or a quoted string); nil for
	// a notification, and where the server does not tell it (go-sdk's).
	ID json.RawMessage
	// Name is the tool of tools/call or the prompt of prompts/get; empty
	// for other methods.
	Name string
	// URI is the resource of resources/read, resources/subscribe and
	// resources/unsubscribe; empty for other methods.
	URI string
	// Revision is the protocol revision the request is served under: the
	// session's, or the one a 2026-07-28 request names. It is empty on a
	// session not initialized yet; for initialize itself it is set to the
	// revision negotiated once next returns, so an interceptor reads it
	// after the call.
	Revision string
	// SessionID is the Mcp-Session-Id of an HTTP session; empty on stdio,
	// on a Conn and for 2026-07-28 requests, which have none.
	SessionID string
	// Transport is the transport the request came on.
	Transport Transport
	// Params are the request's params as sent; nil when it has none.
	Params json.RawMessage
	// Meta is params._meta as sent; nil when it has none. Use MetaString
	// for one of its string members, such as traceparent.
	Meta json.RawMessage
	// Arguments are the arguments of tools/call as sent; nil otherwise.
	Arguments json.RawMessage
}

// MetaString returns the string member key of params._meta, and whether
// there is one. It reads the bytes of Meta, with no decoding into maps.
func (r *Request) MetaString(key string) (string, bool) {
	var val string
	found := false
	jsonx.Members(r.Meta, func(_, k, v []byte) {
		if !found && string(k) == key {
			val, found = stringValue(v)
		}
	})
	return val, found
}

// Outcome is how a request ended. Exactly one of Result, Error,
// Cancelled and Refused describes the answer (a refusal answered with a
// JSON-RPC error sets Error too); a notification's Outcome is empty,
// unless it was refused.
type Outcome struct {
	// Result is the JSON result answered. It is valid only until the
	// interceptor returns; copy what you keep.
	Result json.RawMessage
	// IsError is set when Result is a tool result with isError set, as a
	// tool reports its own failure.
	IsError bool
	// Error is the JSON-RPC error answered.
	Error *Error
	// Cancelled is set when the client cancelled the request, which is
	// then not answered.
	Cancelled bool
	// Refused is set when the HTTP transport refused the request before
	// serving it (see Interceptor); nil otherwise.
	Refused *Refusal
	// Duration is how long the server took to serve the request, from
	// when the innermost next was called until it returned.
	Duration time.Duration
}

// Error is a JSON-RPC error object.
type Error struct {
	Code    int
	Message string
	// Data, when set, is raw JSON.
	Data json.RawMessage
}

func (e *Error) Error() string {
	return "mcp error " + strconv.Itoa(e.Code) + ": " + e.Message
}

// Refuse returns the outcome of a request refused with a JSON-RPC error.
// An interceptor returns it, without calling next, to refuse a request.
func Refuse(code int, message string) Outcome {
	return Outcome{Error: &Error{Code: code, Message: message}}
}

// SessionEnd tells that a session ended: an HTTP session deleted or idle
// too long, a stdio stream or a Conn that ended. Only sessions that were
// initialized end: 2026-07-28 requests have none.
type SessionEnd struct {
	// ID is the Mcp-Session-Id of an HTTP session; empty otherwise.
	ID string
	// Revision is the protocol revision the session negotiated.
	Revision string
	// Transport is the transport the session was on.
	Transport Transport
	// Started is when the session was created, Duration how long it lived.
	Started  time.Time
	Duration time.Duration
	// Reason is why it ended: "deleted" (an HTTP DELETE), "idle" (the
	// idle timeout) or "closed" (the end of the stream or of the Conn).
	Reason string
}

// Use adds interceptors. The first one added is the outermost: it sees a
// request first and its outcome last. Call Use before serving; a server
// without interceptors does no work for them on its call path.
func (s *Server) Use(interceptors ...Interceptor) {
	for _, ic := range interceptors {
		if ic != nil {
			s.interceptors = append(s.interceptors, ic)
		}
	}
}

// OnSessionEnd adds functions called when a session ends, each in turn on
// the goroutine that ended it. Call it before serving.
func (s *Server) OnSessionEnd(fns ...func(SessionEnd)) {
	for _, fn := range fns {
		if fn != nil {
			s.sessionEnds = append(s.sessionEnds, fn)
		}
	}
}

// newRequest describes the message m of x to interceptors.
func (s *Server) newRequest(x *exchange, m *message) *Request {
	req := &Request{Method: m.method, ID: m.id, Notification: m.id == nil, Params: m.params, Meta: m.rawMeta, Revision: string(x.rev)}
	switch {
	case x.sess != nil:
		req.Transport, req.SessionID = x.sess.transport, x.sess.id
	default:
		req.Transport = TransportHTTP
	}
	if req.Revision == "" {
		if rev := wire.Revision(m.meta.ProtocolVersion); rev.Stateless() && rev.Supported() {
			req.Revision = string(rev)
		} else if x.sess != nil {
			req.Revision = string(x.sess.revision())
		}
	}
	if wire.Revision(req.Revision).Stateless() {
		req.SessionID = ""
	}
	req.name(m)
	return req
}

// name sets what the message m names: the tool and its arguments, the
// prompt, or the resource.
func (req *Request) name(m *message) {
	switch m.method {
	case "tools/call":
		req.Name, _ = stringValue(m.meta.toolName)
		req.Arguments = m.meta.toolArgs
	case "prompts/get":
		req.Name, _ = stringValue(m.meta.toolName)
	case "resources/read", "resources/subscribe", "resources/unsubscribe", "skills/get", "resources/directory/read":
		req.URI, _ = stringValue(m.meta.uri)
	}
}

// intercepted runs the request of x through the interceptors, with run at
// their end, and returns what to answer. A panic in an interceptor is
// logged and answered as an internal error; the server goes on serving.
//
// The interceptors' closures keep x and m, so they work on copies: were x
// and m themselves captured, they would move to the heap on every call,
// interceptors or none.
func (s *Server) intercepted(ctx context.Context, x *exchange, m *message, stateless bool) (result []byte, rerr *rpcError, cancelled bool) {
	hx, hm := new(exchange), new(message)
	*hx, *hm = *x, *m
	defer func() { *x = *hx }()
	req := s.newRequest(hx, hm)
	final := func(ctx context.Context) Outcome {
		start := time.Now()
		result, rerr, cancelled := s.run(ctx, hx, hm, stateless)
		o := Outcome{Result: result, Cancelled: cancelled}
		if rerr != nil {
			o.Result = nil
			o.Error = &Error{Code: rerr.code, Message: rerr.message, Data: rerr.data}
		} else if !cancelled && (hm.method == "tools/call" || hm.method == "tasks/result") {
			o.IsError = isToolError(result)
		}
		o.Duration = time.Since(start)
		if hm.method == "initialize" && rerr == nil && hx.sess != nil {
			req.Revision = string(hx.sess.revision())
		}
		return o
	}
	o, ok := s.chain(ctx, req, final)
	switch {
	case !ok:
		return nil, errorf(codeInternalError, "internal error"), false
	case o.Cancelled:
		return nil, nil, true
	case o.Error != nil:
		return nil, &rpcError{code: o.Error.Code, message: o.Error.Message, data: o.Error.Data}, false
	case len(o.Result) == 0:
		s.logger().Error("mcp interceptor returned no outcome", "method", m.method)
		return nil, errorf(codeInternalError, "internal error"), false
	}
	return o.Result, nil, false
}

// interceptNotification runs the notification m through the interceptors,
// with its handling at their end.
func (s *Server) interceptNotification(ctx context.Context, sess *session, m *message) {
	hm := new(message) // a copy, as intercepted says why
	*hm = *m
	x := newExchange(s, sess, m, nil)
	x.id = nil
	req := s.newRequest(&x, hm)
	s.chain(ctx, req, func(context.Context) Outcome {
		s.notification(sess, hm)
		return Outcome{}
	})
}

// chain calls the interceptors in the order they were added, final last.
// It reports false when one of them panicked, which it logs.
func (s *Server) chain(ctx context.Context, req *Request, final Next) (o Outcome, ok bool) {
	defer func() {
		if p := recover(); p != nil {
			s.logger().Error("mcp interceptor panicked", "method", req.Method, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			o, ok = Outcome{}, false
		}
	}()
	return s.link(ctx, req, 0, final), true
}

// link calls interceptor i with a next that calls the rest of the chain.
func (s *Server) link(ctx context.Context, req *Request, i int, final Next) Outcome {
	if i == len(s.interceptors) {
		return final(ctx)
	}
	return s.interceptors[i](ctx, req, func(ctx context.Context) Outcome { return s.link(ctx, req, i+1, final) })
}

// isToolError reports whether result, a tools/call result, has isError
// set at its top level.
func isToolError(result []byte) bool {
	isErr := false
	jsonx.Members(result, func(_, k, v []byte) {
		if string(k) == "isError" && string(v) == "true" {
			isErr = true
		}
	})
	return isErr
}

// sessionEnded tells the OnSessionEnd functions that sess ended for
// reason. A session never initialized is not told of; a panic in one of
// the functions is logged.
func (s *Server) sessionEnded(sess *session, reason string) {
	if len(s.sessionEnds) == 0 {
		return
	}
	rev := sess.revision()
	if rev == "" || !sess.ending() {
		return
	}
	now := s.clock()
	end := SessionEnd{ID: sess.id, Revision: string(rev), Transport: sess.transport, Started: sess.started, Duration: now.Sub(sess.started), Reason: reason}
	for _, fn := range s.sessionEnds {
		func() {
			defer func() {
				if p := recover(); p != nil {
					s.logger().Error("mcp session end function panicked", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				}
			}()
			fn(end)
		}()
	}
}
