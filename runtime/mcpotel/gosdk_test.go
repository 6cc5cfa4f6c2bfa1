package mcpotel_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpgen/mcpgen/runtime/gosdk"
	"github.com/mcpgen/mcpgen/runtime/mcpotel"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestGoSDK checks spans of a server on go-sdk, through gosdk.Use: the
// name, kind, parent from _meta and attributes, less the request id,
// which go-sdk's middleware does not tell.
func TestGoSDK(t *testing.T) {
	t.Parallel()
	tel := &telemetry{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(tel.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(tel.reader))
	srv := gosdk.NewServer(mcprt.Identity{Name: "t", Version: "1"}, textTool("add", "3"))
	gosdk.Use(srv, mcpotel.New(mcpotel.Options{TracerProvider: tp, MeterProvider: mp, Propagator: propagation.TraceContext{}}).Intercept)

	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "add", Meta: mcp.Meta{"traceparent": "00-" + traceID + "-" + parentSpan + "-01"}}); err != nil {
		t.Fatal(err)
	}
	s := tel.span(t, "tools/call add")
	if s.SpanKind() != trace.SpanKindServer || s.Parent().SpanID().String() != parentSpan {
		t.Errorf("kind %v parent %v", s.SpanKind(), s.Parent())
	}
	hasAttrs(t, "go-sdk call", attrs(s), map[string]string{"mcp.method.name": "tools/call", "gen_ai.tool.name": "add", "mcp.protocol.version": "2025-06-18"}, "jsonrpc.request.id", "error.type")
	point(t, tel.histogram(t, "mcp.server.operation.duration"), attribute.String("gen_ai.tool.name", "add"))
	hasAttrs(t, "go-sdk initialize", attrs(tel.span(t, "initialize")), map[string]string{"mcp.protocol.version": "2025-06-18"})
}
