package mcpotel_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpgen/mcpgen/internal/tokentest"
	"github.com/mcpgen/mcpgen/runtime/mcpotel"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

const (
	traceID    = "4bf92f3577b34da6a3ce929d0e0e4736"
	parentSpan = "00f067aa0ba902b7"
	traceMeta  = `"_meta":{"traceparent":"00-` + traceID + `-` + parentSpan + `-01","baggage":"user=alice"}`
)

// telemetry is a server instrumented into an in-memory span recorder and
// a manual metric reader.
type telemetry struct {
	srv    *mcpserver.Server
	spans  *tracetest.SpanRecorder
	reader *sdkmetric.ManualReader
	tp     *sdktrace.TracerProvider
}

func newTelemetry(t *testing.T, capture bool, tools ...mcprt.Tool) *telemetry {
	tel := &telemetry{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	tel.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(tel.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(tel.reader))
	t.Cleanup(func() { tel.tp.Shutdown(context.Background()); mp.Shutdown(context.Background()) })
	tel.srv = mcpserver.New(mcprt.Identity{Name: "t", Version: "1", EnableTasks: true}, tools...)
	mcpotel.Instrument(tel.srv, mcpotel.Options{
		TracerProvider:   tel.tp,
		MeterProvider:    mp,
		Propagator:       propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}),
		CaptureArguments: capture,
		CapturePrincipal: capture,
	})
	return tel
}

// span returns the one ended span named name.
func (tel *telemetry) span(t *testing.T, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	var found []sdktrace.ReadOnlySpan
	for _, s := range tel.spans.Ended() {
		if s.Name() == name {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		var names []string
		for _, s := range tel.spans.Ended() {
			names = append(names, s.Name())
		}
		t.Fatalf("%d spans named %q among %q", len(found), name, names)
	}
	return found[0]
}

// attrs returns the attributes of s as strings.
func attrs(s sdktrace.ReadOnlySpan) map[string]string {
	m := make(map[string]string)
	for _, kv := range s.Attributes() {
		m[string(kv.Key)] = kv.Value.Emit()
	}
	return m
}

// hasAttrs checks that got has every attribute of want, and none of the
// keys of absent.
func hasAttrs(t *testing.T, what string, got map[string]string, want map[string]string, absent ...string) {
	t.Helper()
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s = %q, want %q (all: %v)", what, k, got[k], v, got)
		}
	}
	for _, k := range absent {
		if _, ok := got[k]; ok {
			t.Errorf("%s: %s = %q, want none", what, k, got[k])
		}
	}
}

// histogram returns the data points of the histogram name, and checks its
// unit and buckets.
func (tel *telemetry) histogram(t *testing.T, name string) []metricdata.HistogramDataPoint[float64] {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := tel.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
			if m.Unit != "s" {
				t.Errorf("%s: unit %q, want s", name, m.Unit)
			}
			h, ok := m.Data.(metricdata.Histogram[float64])
			if !ok {
				t.Fatalf("%s is a %T", name, m.Data)
			}
			want := []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}
			for _, dp := range h.DataPoints {
				if !slices.Equal(dp.Bounds, want) {
					t.Errorf("%s: bounds %v, want %v", name, dp.Bounds, want)
				}
			}
			return h.DataPoints
		}
	}
	t.Fatalf("no metric %s", name)
	return nil
}

// point returns the attributes of the data point whose attributes include
// key=value.
func point(t *testing.T, dps []metricdata.HistogramDataPoint[float64], kvs ...attribute.KeyValue) map[string]string {
	t.Helper()
	for _, dp := range dps {
		all := true
		for _, kv := range kvs {
			if v, ok := dp.Attributes.Value(kv.Key); !ok || v.Emit() != kv.Value.Emit() {
				all = false
			}
		}
		if all {
			m := make(map[string]string)
			for _, kv := range dp.Attributes.ToSlice() {
				m[string(kv.Key)] = kv.Value.Emit()
			}
			if dp.Count == 0 {
				t.Errorf("data point %v has no count", m)
			}
			return m
		}
	}
	t.Fatalf("no data point with %v", kvs)
	return nil
}

// lineClient talks to a server over ServeStream.
type lineClient struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan struct{}
}

func startStdio(t *testing.T, srv *mcpserver.Server) *lineClient {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &lineClient{t: t, in: inW, lines: make(chan string, 16), done: make(chan struct{})}
	go func() {
		srv.ServeStream(context.Background(), inR, outW)
		outW.Close()
		close(c.done)
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	t.Cleanup(c.close)
	return c
}

// call sends line and returns the next line the server writes.
func (c *lineClient) call(line string) string {
	c.t.Helper()
	c.send(line)
	select {
	case l := <-c.lines:
		return l
	case <-time.After(5 * time.Second):
		c.t.Fatal("no answer")
	}
	return ""
}

func (c *lineClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatal(err)
	}
}

// close ends the input and waits for the server to stop.
func (c *lineClient) close() {
	c.in.Close()
	<-c.done
}

const initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`

// baggageOf returns the baggage member user of ctx.
func baggageOf(ctx context.Context) string { return baggage.FromContext(ctx).Member("user").Value() }

func textTool(name, text string) mcprt.Tool {
	return mcprt.Tool{Name: name, InputSchema: []byte(`{"type":"object"}`), Handler: func(ctx context.Context, args []byte) mcprt.Result {
		return mcprt.TextResult(text)
	}}
}

// TestStdio checks spans and metrics over stdio: names, kind, the parent
// from _meta.traceparent, attributes, JSON-RPC errors, tool errors and a
// cancelled call; and the session's duration when the stream ends.
func TestStdio(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	var inHandler trace.SpanContext
	var user string
	tel := newTelemetry(t, false,
		mcprt.Tool{Name: "add", InputSchema: []byte(`{"type":"object"}`), Handler: func(ctx context.Context, args []byte) mcprt.Result {
			inHandler = trace.SpanContextFromContext(ctx)
			user = baggageOf(ctx)
			return mcprt.TextResult("3")
		}},
		mcprt.Tool{Name: "fails", InputSchema: []byte(`{"type":"object"}`), Handler: func(ctx context.Context, args []byte) mcprt.Result {
			return mcprt.ErrorResult(context.DeadlineExceeded)
		}},
		mcprt.Tool{Name: "slow", InputSchema: []byte(`{"type":"object"}`), Handler: func(ctx context.Context, args []byte) mcprt.Result {
			close(started)
			<-ctx.Done()
			return mcprt.TextResult("late")
		}})
	tel.srv.AddResources(mcprt.Resource{URI: "file:///a.txt", Name: "a", Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
		return []mcprt.ResourceContents{{Text: "A"}}, nil
	}})
	c := startStdio(t, tel.srv)
	c.call(initialize)
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.call(`{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2},` + traceMeta + `}}`)
	c.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fails"}}`)
	c.call(`{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"none"}}`)
	c.call(`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"file:///a.txt"}}`)
	c.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow"}}`)
	<-started
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`)
	c.close()

	s := tel.span(t, "tools/call add")
	if s.SpanKind() != trace.SpanKindServer {
		t.Errorf("kind %v", s.SpanKind())
	}
	if got := s.Parent(); got.TraceID().String() != traceID || got.SpanID().String() != parentSpan || !got.IsRemote() {
		t.Errorf("parent %v, want %s/%s from _meta", got, traceID, parentSpan)
	}
	if len(s.Links()) != 0 {
		t.Errorf("links %v, without a surrounding span", s.Links())
	}
	if inHandler.SpanID() != s.SpanContext().SpanID() {
		t.Errorf("the handler runs in span %v, want %v", inHandler.SpanID(), s.SpanContext().SpanID())
	}
	if user != "alice" {
		t.Errorf("baggage user = %q, want alice", user)
	}
	hasAttrs(t, "tools/call add", attrs(s), map[string]string{
		"mcp.method.name": "tools/call", "gen_ai.tool.name": "add", "gen_ai.operation.name": "execute_tool",
		"jsonrpc.request.id": "c1", "mcp.protocol.version": "2025-11-25", "network.transport": "pipe",
	}, "mcp.session.id", "error.type", "rpc.response.status_code", "gen_ai.tool.call.arguments", "gen_ai.tool.call.result")
	if s.Status().Code != codes.Unset {
		t.Errorf("status %v", s.Status())
	}

	s = tel.span(t, "tools/call fails")
	hasAttrs(t, "tool error", attrs(s), map[string]string{"error.type": "tool_error"}, "rpc.response.status_code")
	if s.Status().Code != codes.Error {
		t.Errorf("tool error: status %v", s.Status())
	}
	if s.Parent().IsValid() {
		t.Errorf("a call without _meta has parent %v", s.Parent())
	}

	s = tel.span(t, "prompts/get none")
	hasAttrs(t, "JSON-RPC error", attrs(s), map[string]string{"gen_ai.prompt.name": "none", "error.type": "-32601", "rpc.response.status_code": "-32601", "jsonrpc.request.id": "3"})
	if st := s.Status(); st.Code != codes.Error || st.Description != "method not found: prompts/get" {
		t.Errorf("JSON-RPC error: status %v", st)
	}

	s = tel.span(t, "resources/read")
	hasAttrs(t, "resources/read", attrs(s), map[string]string{"mcp.resource.uri": "file:///a.txt"}, "error.type")

	s = tel.span(t, "tools/call slow")
	hasAttrs(t, "cancelled", attrs(s), map[string]string{"error.type": "cancelled"})
	tel.span(t, "notifications/cancelled")
	tel.span(t, "notifications/initialized")
	// The revision is negotiated by initialize itself.
	hasAttrs(t, "initialize", attrs(tel.span(t, "initialize")), map[string]string{"mcp.protocol.version": "2025-11-25"})

	ops := tel.histogram(t, "mcp.server.operation.duration")
	hasAttrs(t, "metric of tools/call add", point(t, ops, attribute.String("gen_ai.tool.name", "add")), map[string]string{
		"mcp.method.name": "tools/call", "gen_ai.operation.name": "execute_tool", "mcp.protocol.version": "2025-11-25", "network.transport": "pipe",
	}, "jsonrpc.request.id", "mcp.session.id", "error.type", "mcp.resource.uri")
	hasAttrs(t, "metric of tools/call fails", point(t, ops, attribute.String("gen_ai.tool.name", "fails")), map[string]string{"error.type": "tool_error"})
	hasAttrs(t, "metric of prompts/get", point(t, ops, attribute.String("mcp.method.name", "prompts/get")), map[string]string{"error.type": "-32601", "rpc.response.status_code": "-32601"})
	point(t, ops, attribute.String("mcp.method.name", "notifications/initialized"))
	hasAttrs(t, "metric of initialize", point(t, ops, attribute.String("mcp.method.name", "initialize")), map[string]string{"mcp.protocol.version": "2025-11-25"})

	sessions := tel.histogram(t, "mcp.server.session.duration")
	hasAttrs(t, "session", point(t, sessions), map[string]string{"mcp.protocol.version": "2025-11-25", "network.transport": "pipe"}, "error.type")
}

// TestHTTP checks spans over Streamable HTTP: the session id, tcp, the
// span of the HTTP request linked when _meta names the parent and the
// parent otherwise, a 2026-07-28 request without a session, arguments and
// results when captured, and the session's duration after DELETE.
func TestHTTP(t *testing.T) {
	t.Parallel()
	tel := newTelemetry(t, true, textTool("a", "A"))
	// What HTTP middleware such as otelhttp does: a span per HTTP request.
	httpTracer := tel.tp.Tracer("http")
	var httpSpans []trace.SpanContext
	handler := tel.srv.HTTPHandler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, span := httpTracer.Start(r.Context(), "POST /mcp", trace.WithSpanKind(trace.SpanKindServer))
		defer span.End()
		httpSpans = append(httpSpans, span.SpanContext())
		handler.ServeHTTP(w, r.WithContext(ctx))
	}))
	defer ts.Close()
	var sid string
	post := func(body string, headers ...string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
		}
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	sid = post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}`).Header.Get("Mcp-Session-Id")
	post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"q":"x"},` + traceMeta + `}}`)
	s := tel.span(t, "tools/call a")
	hasAttrs(t, "session call", attrs(s), map[string]string{
		"mcp.session.id": sid, "network.transport": "tcp", "network.protocol.name": "http", "mcp.protocol.version": "2025-06-18",
		"gen_ai.tool.call.arguments": `{"q":"x"}`, "gen_ai.tool.call.result": `{"content":[{"type":"text","text":"A"}]}`,
	})
	if s.Parent().SpanID().String() != parentSpan {
		t.Errorf("parent %v, want the one of _meta", s.Parent())
	}
	if links := s.Links(); len(links) != 1 || links[0].SpanContext.SpanID() != httpSpans[1].SpanID() {
		t.Errorf("links %v, want the HTTP request's span %v", links, httpSpans[1].SpanID())
	}

	init := tel.span(t, "initialize")
	if init.Parent().SpanID() != httpSpans[0].SpanID() || len(init.Links()) != 0 {
		t.Errorf("without _meta: parent %v links %v, want the HTTP span %v", init.Parent(), init.Links(), httpSpans[0].SpanID())
	}

	req, _ := http.NewRequest(http.MethodDelete, ts.URL, nil)
	req.Header.Set("Mcp-Session-Id", sid)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %v %v", resp, err)
	}
	sid = ""
	post(`{"jsonrpc":"2.0","id":"s","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
		"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/list")
	hasAttrs(t, "stateless", attrs(tel.span(t, "tools/list")), map[string]string{"mcp.protocol.version": "2026-07-28", "network.transport": "tcp", "jsonrpc.request.id": "s"}, "mcp.session.id", "error.type")

	sessions := tel.histogram(t, "mcp.server.session.duration")
	hasAttrs(t, "session", point(t, sessions), map[string]string{"mcp.protocol.version": "2025-06-18", "network.transport": "tcp"})
}

// TestTask checks a tool call run as a task: its tools/call span ends
// with the task's creation, the run's context is that span's, and
// tasks/result has a span of its own.
func TestTask(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var inRun trace.SpanContext
	tel := newTelemetry(t, false, mcprt.Tool{
		Name: "work", InputSchema: []byte(`{"type":"object"}`), TaskSupport: mcprt.TaskOptional,
		Handler: func(ctx context.Context, args []byte) mcprt.Result {
			<-release
			inRun = trace.SpanContextFromContext(ctx)
			return mcprt.TextResult("done")
		},
	})
	ctx := context.Background()
	conn := tel.srv.Connect(ctx, func([]byte) error { return nil })
	defer conn.Close()
	conn.Handle(ctx, []byte(initialize))
	created := conn.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"work","task":{}}}`))
	var r struct {
		Result struct {
			Task struct {
				TaskID string `json:"taskId"`
			} `json:"task"`
		} `json:"result"`
	}
	if err := json.Unmarshal(created, &r); err != nil || r.Result.Task.TaskID == "" {
		t.Fatalf("no task created: %s", created)
	}
	call := tel.span(t, "tools/call work")
	hasAttrs(t, "task call", attrs(call), map[string]string{"gen_ai.tool.name": "work"}, "error.type", "network.transport")
	close(release)
	if got := conn.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":2,"method":"tasks/result","params":{"taskId":"`+r.Result.Task.TaskID+`"}}`)); !strings.Contains(string(got), `"done"`) {
		t.Fatalf("tasks/result: %s", got)
	}
	hasAttrs(t, "tasks/result", attrs(tel.span(t, "tasks/result")), map[string]string{"mcp.method.name": "tasks/result", "jsonrpc.request.id": "2"}, "error.type")
	if inRun.SpanID() != call.SpanContext().SpanID() {
		t.Errorf("the run's span %v, want the call's %v", inRun.SpanID(), call.SpanContext().SpanID())
	}
}

// TestRefusals checks the spans of requests the HTTP transport refused
// before serving them: the reason as error.type, the HTTP status, the
// JSON-RPC code where there is one, status Error, and the principal of a
// verified token as enduser.id when asked for, and never without.
func TestRefusals(t *testing.T) {
	t.Parallel()
	t.Run("capture", func(t *testing.T) { testRefusals(t, true) })
	t.Run("no capture", func(t *testing.T) { testRefusals(t, false) })
}

func testRefusals(t *testing.T, capture bool) {
	w := textTool("w", "W")
	w.Scopes = []string{"kb:write"}
	tel := newTelemetry(t, capture, w)
	tel.srv.Auth = &mcpserver.Auth{Resource: "https://kb.example.com/mcp", AuthorizationServers: []string{"https://as.example.com"},
		Verifier: tokentest.Tokens{"alice": {Issuer: "https://as.example.com", Subject: "alice"}}}
	ts := httptest.NewServer(tel.srv.HTTPHandler())
	defer ts.Close()
	post := func(token string) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"w","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := post(""); got != http.StatusUnauthorized {
		t.Fatalf("without a token: %d", got)
	}
	s := tel.span(t, "tools/call w")
	hasAttrs(t, "401", attrs(s), map[string]string{"error.type": "missing_token", "http.response.status_code": "401", "mcp.protocol.version": "2026-07-28"},
		"rpc.response.status_code", "enduser.id")
	if st := s.Status(); st.Code != codes.Error || st.Description != "Unauthorized" {
		t.Errorf("401: status %v", st)
	}
	tel.spans.Reset()
	if got := post("alice"); got != http.StatusForbidden {
		t.Fatalf("without kb:write: %d", got)
	}
	s = tel.span(t, "tools/call w")
	if capture {
		hasAttrs(t, "403", attrs(s), map[string]string{"error.type": "insufficient_scope", "http.response.status_code": "403", "rpc.response.status_code": "-32600", "enduser.id": "alice"})
	} else {
		hasAttrs(t, "403", attrs(s), map[string]string{"error.type": "insufficient_scope", "http.response.status_code": "403"}, "enduser.id")
	}
	if st := s.Status(); st.Code != codes.Error || !strings.Contains(st.Description, "kb:write") {
		t.Errorf("403: status %v", st)
	}
	hasAttrs(t, "metric of 403", point(t, tel.histogram(t, "mcp.server.operation.duration"), attribute.String("error.type", "insufficient_scope")),
		map[string]string{"http.response.status_code": "403"}, "enduser.id")
}
