package gosdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"reflect"
	"runtime/debug"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/authgate"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// Use runs interceptors of the built-in server, [mcpserver.Interceptor],
// around every request and notification srv receives, as one go-sdk
// receiving middleware added now: middleware added later runs inside it.
// So the same interceptors, mcpserver.RequestLog and package mcpotel's
// among them, serve both servers. What go-sdk's middleware does not tell
// differs, as the package documentation lists.
//
// The interceptors also see each request the authorization of
// [HTTPHandler] refuses (401, 403, the 404 of another principal's
// session), as on the built-in server: Outcome.Refused says why, and next
// serves nothing.
func Use(srv *mcp.Server, interceptors ...mcpserver.Interceptor) {
	if len(interceptors) == 0 {
		return
	}
	reg := registryOf(srv)
	reg.mu.Lock()
	reg.interceptors = append(reg.interceptors, interceptors...)
	reg.mu.Unlock()
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			return intercept(ctx, reg.logger(), method, req, next, interceptors)
		}
	})
}

// intercept runs one request through interceptors, with go-sdk's next at
// their end, and maps the outcome back onto go-sdk's result and error. An
// interceptor's panic is logged to log.
func intercept(ctx context.Context, log *slog.Logger, method string, req mcp.Request, next mcp.MethodHandler, interceptors []mcpserver.Interceptor) (res mcp.Result, err error) {
	r := describe(method, req)
	ran := false
	final := func(ctx context.Context) mcpserver.Outcome {
		start := time.Now()
		res, err = next(ctx, method, req)
		ran = true
		if ir, ok := res.(*mcp.InitializeResult); ok && ir != nil {
			r.Revision = ir.ProtocolVersion // negotiated by the call, as on the built-in server
		}
		o := outcome(ctx, res, err)
		o.Duration = time.Since(start)
		return o
	}
	var o mcpserver.Outcome
	func() {
		defer func() {
			if p := recover(); p != nil {
				log.Error("mcp interceptor panicked", "method", method, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				o = mcpserver.Outcome{Error: &mcpserver.Error{Code: jsonrpc.CodeInternalError, Message: "internal error"}}
				ran = false
			}
		}()
		o = link(ctx, r, interceptors, final)
	}()
	switch {
	case r.Notification:
		return res, err
	case o.Error != nil && (!ran || err == nil):
		// A refusal, or an interceptor's own error after the call.
		return nil, &jsonrpc.Error{Code: int64(o.Error.Code), Message: o.Error.Message, Data: o.Error.Data}
	case !ran:
		// go-sdk wants a result of its own types, which an interceptor
		// answering by itself does not give.
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal error: an interceptor answered without calling next"}
	}
	return res, err
}

// link calls interceptors[0] with a next that calls the rest, then final.
func link(ctx context.Context, r *mcpserver.Request, interceptors []mcpserver.Interceptor, final mcpserver.Next) mcpserver.Outcome {
	if len(interceptors) == 0 {
		return final(ctx)
	}
	return interceptors[0](ctx, r, func(ctx context.Context) mcpserver.Outcome { return link(ctx, r, interceptors[1:], final) })
}

// describe tells interceptors what go-sdk's middleware knows of a request.
// The JSON-RPC id is not among it.
func describe(method string, req mcp.Request) *mcpserver.Request {
	r := &mcpserver.Request{Method: method, Notification: isNotification(method)}
	params := req.GetParams()
	if params != nil && reflect.ValueOf(params).IsNil() {
		params = nil // a message without params holds a nil pointer
	}
	if params != nil {
		if b, err := json.Marshal(params); err == nil {
			r.Params = b
		}
		if meta := params.GetMeta(); len(meta) > 0 {
			if b, err := json.Marshal(meta); err == nil {
				r.Meta = b
			}
		}
	}
	switch p := params.(type) {
	case *mcp.CallToolParamsRaw:
		r.Name, r.Arguments = p.Name, p.Arguments
	case *mcp.GetPromptParams:
		r.Name = p.Name
	case *mcp.ReadResourceParams:
		r.URI = p.URI
	case *mcp.SubscribeParams:
		r.URI = p.URI
	case *mcp.UnsubscribeParams:
		r.URI = p.URI
	}
	if extra := req.GetExtra(); extra != nil && extra.Header != nil {
		r.Transport = mcpserver.TransportHTTP
		r.Revision = extra.Header.Get("MCP-Protocol-Version")
	}
	if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
		if r.Transport == mcpserver.TransportHTTP {
			r.SessionID = ss.ID()
		}
		if ip := ss.InitializeParams(); ip != nil {
			r.Revision = ip.ProtocolVersion
		}
	}
	return r
}

func isNotification(method string) bool {
	return len(method) > len("notifications/") && method[:len("notifications/")] == "notifications/"
}

// outcome describes go-sdk's answer to interceptors.
func outcome(ctx context.Context, res mcp.Result, err error) mcpserver.Outcome {
	var o mcpserver.Outcome
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			o.Cancelled = true
			return o
		}
		var werr *jsonrpc.Error
		if errors.As(err, &werr) {
			o.Error = &mcpserver.Error{Code: int(werr.Code), Message: werr.Message, Data: werr.Data}
		} else {
			o.Error = &mcpserver.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
		return o
	}
	if res != nil {
		if b, merr := json.Marshal(res); merr == nil {
			o.Result = b
		}
		if ctr, ok := res.(*mcp.CallToolResult); ok && ctr != nil {
			o.IsError = ctr.IsError
		}
	}
	return o
}

// refused tells the interceptors Use added to s of a request the gate
// refused, once for each message of its body; a refusal of no message (a
// GET, a DELETE) is logged to log at Info, as the built-in server does.
func refused(s *mcp.Server, log *slog.Logger, r *http.Request, ref authgate.Refusal) {
	reg := registryOf(s)
	reg.mu.Lock()
	interceptors := reg.interceptors
	reg.mu.Unlock()
	told := false
	for i := range ref.Ops {
		op := &ref.Ops[i]
		if op.Method == "" {
			continue // a response of the client
		}
		told = true
		if len(interceptors) == 0 {
			continue
		}
		out := mcpserver.Outcome{Refused: &mcpserver.Refusal{Status: ref.Status, Reason: ref.Reason, Message: ref.Message}}
		if ref.Error != nil {
			var e struct {
				Code    int             `json:"code"`
				Message string          `json:"message"`
				Data    json.RawMessage `json:"data"`
			}
			_ = json.Unmarshal(ref.Error, &e) // written by the gate
			out.Error = &mcpserver.Error{Code: e.Code, Message: e.Message, Data: e.Data}
		}
		func() {
			defer func() {
				if p := recover(); p != nil {
					log.Error("mcp interceptor panicked", "method", op.Method, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				}
			}()
			link(r.Context(), refusedRequest(r, op), interceptors, func(context.Context) mcpserver.Outcome { return out })
		}()
	}
	if !told {
		authgate.LogRefusal(log, r, ref)
	}
}

// refusedRequest describes op, a message of the refused HTTP request r,
// to interceptors: the revision its _meta or its header names, the
// session its header names.
func refusedRequest(r *http.Request, op *authgate.Operation) *mcpserver.Request {
	req := &mcpserver.Request{Method: op.Method, ID: op.ID, Notification: op.ID == nil, Name: op.Name, URI: op.URI,
		Params: op.Params, Meta: op.Meta, Transport: mcpserver.TransportHTTP}
	if op.Method == "tools/call" {
		req.Arguments = op.Arguments
	}
	if op.Method != "tools/call" && op.Method != "prompts/get" {
		req.Name = ""
	}
	req.Revision = r.Header.Get("MCP-Protocol-Version")
	if v, ok := req.MetaString("io.modelcontextprotocol/protocolVersion"); ok {
		req.Revision = v
	}
	if !wire.Revision(req.Revision).Stateless() {
		req.SessionID = r.Header.Get("Mcp-Session-Id")
	}
	return req
}
