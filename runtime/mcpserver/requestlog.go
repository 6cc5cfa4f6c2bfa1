package mcpserver

import (
	"context"
	"log/slog"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// RequestLogOptions tune [RequestLog]. The zero value logs every request,
// without notifications or arguments.
type RequestLogOptions struct {
	// Level is the level of a request answered with a result, a tool
	// error included, or cancelled. A request answered with a JSON-RPC
	// error is logged at slog.LevelWarn, or at Level if that is higher.
	Level slog.Level
	// Notifications logs the client's notifications too, one line each.
	Notifications bool
	// Arguments adds the arguments of tools/call, as the client sent them.
	// They may hold what should not be logged, so they are left out
	// unless asked for.
	Arguments bool
}

// RequestLog returns an interceptor writing one line to logger per
// request, once it is answered: "mcp request" with its method, target (the
// tool, prompt or resource it names), id, duration, outcome ("ok",
// "tool_error", "error", "cancelled" or "refused"), the error's code and
// message, the revision, transport, session id and principal (the
// subject of the verified token). A request the HTTP transport refused
// (see [Interceptor]) is logged, notification or not, with its HTTP
// status and reason. Add it with [Server.Use]; a server without it logs
// no requests. Nothing is formatted when logger does not log at the
// level.
func RequestLog(logger *slog.Logger, opts *RequestLogOptions) Interceptor {
	var o RequestLogOptions
	if opts != nil {
		o = *opts
	}
	errLevel := max(o.Level, slog.LevelWarn)
	return func(ctx context.Context, req *Request, next Next) Outcome {
		out := next(ctx)
		if req.Notification && !o.Notifications && out.Refused == nil {
			return out
		}
		level := o.Level
		if out.Error != nil || out.Refused != nil {
			level = errLevel
		}
		if !logger.Enabled(ctx, level) {
			return out
		}
		attrs := make([]slog.Attr, 0, 12)
		attrs = append(attrs, slog.String("method", req.Method))
		if t := target(req); t != "" {
			attrs = append(attrs, slog.String("target", t))
		}
		if req.ID != nil {
			attrs = append(attrs, slog.String("id", string(req.ID)))
		}
		if !req.Notification && out.Refused == nil {
			attrs = append(attrs, slog.Duration("duration", out.Duration))
		}
		switch {
		case out.Refused != nil:
			attrs = append(attrs, slog.String("outcome", "refused"), slog.Int("status", out.Refused.Status), slog.String("reason", out.Refused.Reason))
			if out.Error != nil {
				attrs = append(attrs, slog.Int("code", out.Error.Code))
			}
			attrs = append(attrs, slog.String("error", out.Refused.Message))
		case req.Notification:
		case out.Cancelled:
			attrs = append(attrs, slog.String("outcome", "cancelled"))
		case out.Error != nil:
			attrs = append(attrs, slog.String("outcome", "error"), slog.Int("code", out.Error.Code), slog.String("error", out.Error.Message))
		case out.IsError:
			attrs = append(attrs, slog.String("outcome", "tool_error"))
		default:
			attrs = append(attrs, slog.String("outcome", "ok"))
		}
		if req.Revision != "" {
			attrs = append(attrs, slog.String("revision", req.Revision))
		}
		attrs = append(attrs, slog.String("transport", string(req.Transport)))
		if req.SessionID != "" {
			attrs = append(attrs, slog.String("session", req.SessionID))
		}
		if tok, ok := mcprt.Token(ctx); ok {
			attrs = append(attrs, slog.String("principal", tok.Subject))
		}
		if o.Arguments && req.Arguments != nil {
			attrs = append(attrs, slog.String("arguments", string(req.Arguments)))
		}
		logger.LogAttrs(ctx, level, "mcp request", attrs...)
		return out
	}
}

// target is what a request names: its tool or prompt, or its resource.
func target(req *Request) string {
	if req.Name != "" {
		return req.Name
	}
	return req.URI
}
