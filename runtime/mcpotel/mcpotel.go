// Package mcpotel traces and measures an mcpserver.Server with
// OpenTelemetry, as the OpenTelemetry semantic conventions for the Model
// Context Protocol say. It is built on [mcpserver.Server.Use] and
// [mcpserver.Server.OnSessionEnd], so the server itself depends on no
// part of OpenTelemetry.
//
//	mcpotel.Instrument(srv, mcpotel.Options{}) // the global providers
//
// # Spans
//
// Every request and notification gets a SERVER span named
// "{mcp.method.name} {target}", where the conventions name a
// low-cardinality target: "tools/call add", "prompts/get greet"; any other
// method, resources/read included, is named by its method alone. Its
// attributes: mcp.method.name; gen_ai.tool.name and
// gen_ai.operation.name=execute_tool for tools/call; gen_ai.prompt.name
// for prompts/get; mcp.resource.uri for resources/read, subscribe and
// unsubscribe; jsonrpc.request.id for requests; mcp.session.id where
// there is a session (Streamable HTTP sessions; stdio and 2026-07-28
// have no id); mcp.protocol.version (on initialize, the revision it
// negotiated); network.transport ("pipe" on stdio,
// "tcp" over HTTP, where network.protocol.name is "http").
//
// The span's parent is the trace context in the request's params._meta
// (traceparent and tracestate; baggage goes into the handler's context),
// read with Options.Propagator. When there is one, the span of the
// surrounding context, such as that of the HTTP request made by HTTP
// middleware, is linked; without one, that span is the parent.
//
// # Errors
//
// A request answered with a JSON-RPC error has error.type and
// rpc.response.status_code set to its code ("-32602") and the span's
// status Error with the error's message. A tool result with isError set
// has error.type "tool_error" and status Error. A request the client
// cancelled, which gets no answer, has error.type "cancelled" and status
// Error. A request the HTTP transport refused before serving it (no valid
// token, a scope missing, an unknown session, a bad request) has
// error.type its reason ("insufficient_scope", the Reason constants of
// mcpserver), http.response.status_code, rpc.response.status_code when
// it was answered with a JSON-RPC error, and status Error. These are the
// only values of error.type this package reports.
//
// With Options.CapturePrincipal, a request with a verified token has
// enduser.id, the token's subject, on its span (never on the metrics). It
// names a person, so it is off unless asked for.
//
// # Metrics
//
// Histograms in seconds with the conventions' bucket boundaries:
// mcp.server.operation.duration per request and notification (with
// mcp.method.name, gen_ai.tool.name, gen_ai.prompt.name,
// gen_ai.operation.name, error.type, rpc.response.status_code,
// mcp.protocol.version and network.transport), and
// mcp.server.session.duration per session that ends (with
// mcp.protocol.version and network.transport).
//
// # Tasks
//
// A tool call run as a task is traced as the tools/call request the
// client sent, ending with its answer (the task's creation when it became
// one); tasks/get, tasks/result and tasks/cancel get spans of their own.
// The task's run in the background between them has no span of this
// package: a tool that wants one starts it from its context, which is
// the tools/call span's.
//
// # Arguments
//
// Tool arguments and results are recorded (gen_ai.tool.call.arguments and
// gen_ai.tool.call.result, as JSON text) only with Options.CaptureArguments:
// they may hold what should not leave the server.
package mcpotel

import (
	"context"
	"strconv"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// ScopeName is the instrumentation scope of the spans and metrics.
const ScopeName = "github.com/mcpgen/mcpgen/runtime/mcpotel"

// Options choose where telemetry goes. Nil fields mean OpenTelemetry's
// global providers and propagator (otel.GetTracerProvider and so on).
type Options struct {
	TracerProvider trace.TracerProvider
	MeterProvider  metric.MeterProvider
	// Propagator reads the trace context and baggage of params._meta.
	// OpenTelemetry's global one propagates nothing until the program sets
	// one (otel.SetTextMapPropagator), so without either no parent is read.
	Propagator propagation.TextMapPropagator
	// CaptureArguments records tool arguments and results on spans.
	CaptureArguments bool
	// CapturePrincipal records the verified token's subject as enduser.id
	// on spans.
	CapturePrincipal bool
}

// durationBuckets are the bucket boundaries, in seconds, the conventions
// give both histograms.
var durationBuckets = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}

// Instrument adds tracing and metrics to srv. Call it before serving, as
// Server.Use says. Errors creating the instruments go to OpenTelemetry's
// error handler (otel.Handle), and the instrument concerned records
// nothing.
func Instrument(srv *mcpserver.Server, opts Options) {
	in := New(opts)
	srv.Use(in.Intercept)
	srv.OnSessionEnd(in.SessionEnd)
}

// Instrumentation is the interceptor and the session-end function that
// Instrument adds, for servers that take them otherwise: the go-sdk
// adapter's gosdk.Use, for one.
type Instrumentation struct {
	tracer    trace.Tracer
	prop      propagation.TextMapPropagator
	capture   bool
	principal bool
	operation metric.Float64Histogram
	session   metric.Float64Histogram
}

// New makes the instruments of opts, as Instrument does.
func New(opts Options) *Instrumentation {
	tp, mp, prop := opts.TracerProvider, opts.MeterProvider, opts.Propagator
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	if prop == nil {
		prop = otel.GetTextMapPropagator()
	}
	meter := mp.Meter(ScopeName)
	in := &Instrumentation{tracer: tp.Tracer(ScopeName), prop: prop, capture: opts.CaptureArguments, principal: opts.CapturePrincipal}
	var err error
	in.operation, err = meter.Float64Histogram("mcp.server.operation.duration",
		metric.WithUnit("s"), metric.WithDescription("How long the server took to handle an MCP request or notification."),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	if err != nil {
		otel.Handle(err)
	}
	in.session, err = meter.Float64Histogram("mcp.server.session.duration",
		metric.WithUnit("s"), metric.WithDescription("How long an MCP session lasted on the server."),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	if err != nil {
		otel.Handle(err)
	}
	return in
}

// metaCarrier reads the trace context of a request's params._meta.
type metaCarrier struct{ req *mcpserver.Request }

func (c metaCarrier) Get(key string) string { v, _ := c.req.MetaString(key); return v }
func (c metaCarrier) Set(string, string)    {} // the server only reads
func (c metaCarrier) Keys() []string {
	var keys []string
	for _, k := range []string{"traceparent", "tracestate", "baggage"} {
		if _, ok := c.req.MetaString(k); ok {
			keys = append(keys, k)
		}
	}
	return keys
}

// transport is the network.transport of t, and whether there is one: a
// Conn's transport is the caller's own.
func transport(t mcpserver.Transport) (attribute.KeyValue, bool) {
	switch t {
	case mcpserver.TransportStdio:
		return semconv.NetworkTransportPipe, true
	case mcpserver.TransportHTTP:
		return semconv.NetworkTransportTCP, true
	}
	return attribute.KeyValue{}, false
}

// requestID is the string form of a JSON-RPC id: a string's value, a
// number's text.
func requestID(raw []byte) string {
	if len(raw) >= 2 && raw[0] == '"' {
		if s, err := strconv.Unquote(string(raw)); err == nil {
			return s
		}
	}
	return string(raw)
}

// Intercept traces and measures one request or notification; it is an
// [mcpserver.Interceptor].
func (in *Instrumentation) Intercept(ctx context.Context, req *mcpserver.Request, next mcpserver.Next) mcpserver.Outcome {
	start := time.Now()
	// Attributes both the span and the metric have.
	common := make([]attribute.KeyValue, 0, 8)
	common = append(common, semconv.McpMethodNameKey.String(req.Method))
	name := req.Method
	switch req.Method {
	case "tools/call":
		if req.Name != "" {
			name += " " + req.Name
			common = append(common, semconv.GenAIToolNameKey.String(req.Name))
		}
		common = append(common, semconv.GenAIOperationNameExecuteTool)
	case "prompts/get":
		if req.Name != "" {
			name += " " + req.Name
			common = append(common, semconv.GenAIPromptNameKey.String(req.Name))
		}
	}
	if req.Revision != "" {
		common = append(common, semconv.McpProtocolVersionKey.String(req.Revision))
	}
	if t, ok := transport(req.Transport); ok {
		common = append(common, t)
	}
	if req.Transport == mcpserver.TransportHTTP {
		common = append(common, semconv.NetworkProtocolName("http"))
	}

	attrs := append(make([]attribute.KeyValue, 0, len(common)+4), common...)
	if req.URI != "" {
		attrs = append(attrs, semconv.McpResourceURIKey.String(req.URI))
	}
	if req.ID != nil {
		attrs = append(attrs, semconv.JSONRPCRequestIDKey.String(requestID(req.ID)))
	}
	if req.SessionID != "" {
		attrs = append(attrs, semconv.McpSessionIDKey.String(req.SessionID))
	}
	if in.capture && req.Arguments != nil {
		attrs = append(attrs, semconv.GenAIToolCallArgumentsKey.String(string(req.Arguments)))
	}
	if tok, ok := mcprt.Token(ctx); ok && in.principal {
		attrs = append(attrs, semconv.EnduserID(tok.Subject))
	}

	spanOpts := []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...), trace.WithTimestamp(start)}
	ambient := trace.SpanContextFromContext(ctx)
	parent := in.prop.Extract(ctx, metaCarrier{req})
	if remote := trace.SpanContextFromContext(parent); remote.IsValid() && ambient.IsValid() && !remote.Equal(ambient) {
		spanOpts = append(spanOpts, trace.WithLinks(trace.Link{SpanContext: ambient}))
	}
	ctx, span := in.tracer.Start(parent, name, spanOpts...)
	defer span.End()

	rev := req.Revision
	out := next(ctx)

	var end []attribute.KeyValue
	if rev == "" && req.Revision != "" {
		// initialize: the revision is negotiated by the call.
		end = append(end, semconv.McpProtocolVersionKey.String(req.Revision))
	}
	switch {
	case out.Refused != nil:
		end = append(end, semconv.ErrorTypeKey.String(out.Refused.Reason), semconv.HTTPResponseStatusCode(out.Refused.Status))
		if out.Error != nil {
			end = append(end, semconv.RPCResponseStatusCodeKey.String(strconv.Itoa(out.Error.Code)))
		}
		span.SetStatus(codes.Error, out.Refused.Message)
	case out.Error != nil:
		code := strconv.Itoa(out.Error.Code)
		end = append(end, semconv.ErrorTypeKey.String(code), semconv.RPCResponseStatusCodeKey.String(code))
		span.SetStatus(codes.Error, out.Error.Message)
	case out.IsError:
		end = append(end, semconv.ErrorTypeKey.String("tool_error"))
		span.SetStatus(codes.Error, "")
	case out.Cancelled:
		end = append(end, semconv.ErrorTypeKey.String("cancelled"))
		span.SetStatus(codes.Error, "cancelled by the client")
	}
	span.SetAttributes(end...)
	if in.capture && req.Method == "tools/call" && out.Error == nil && !out.IsError && out.Result != nil {
		span.SetAttributes(semconv.GenAIToolCallResultKey.String(string(out.Result)))
	}
	if in.operation != nil {
		in.operation.Record(ctx, time.Since(start).Seconds(), metric.WithAttributes(append(common, end...)...))
	}
	return out
}

// SessionEnd measures a session that ended; it is a function for
// [mcpserver.Server.OnSessionEnd].
func (in *Instrumentation) SessionEnd(e mcpserver.SessionEnd) {
	if in.session == nil {
		return
	}
	attrs := []attribute.KeyValue{semconv.McpProtocolVersionKey.String(e.Revision)}
	if t, ok := transport(e.Transport); ok {
		attrs = append(attrs, t)
	}
	if e.Transport == mcpserver.TransportHTTP {
		attrs = append(attrs, semconv.NetworkProtocolName("http"))
	}
	in.session.Record(context.Background(), e.Duration.Seconds(), metric.WithAttributes(attrs...))
}
