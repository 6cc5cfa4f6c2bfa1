package gosdk

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mcpgen/mcpgen/internal/servertest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// TestUse checks interceptors on go-sdk: their order around the call,
// what they are told of requests, notifications and outcomes, a refusal,
// and a panic answered -32603 while the server goes on serving.
func TestUse(t *testing.T) {
	t.Parallel()
	logger, log := servertest.NewLog()
	srv := NewServer(mcprt.Identity{Name: "t", Version: "1"},
		mcprt.Tool{Name: "add", InputSchema: []byte(`{"type":"object"}`), Handler: func(ctx context.Context, args []byte) mcprt.Result {
			return mcprt.TextResult("3")
		}},
		mcprt.Tool{Name: "fails", InputSchema: []byte(`{"type":"object"}`), Handler: func(ctx context.Context, args []byte) mcprt.Result {
			return mcprt.ErrorResult(context.DeadlineExceeded)
		}})
	SetLogger(srv, logger)
	var mu sync.Mutex
	var trail []string
	seen := map[string]mcpserver.Outcome{}
	reqs := map[string]mcpserver.Request{}
	Use(srv, func(ctx context.Context, req *mcpserver.Request, next mcpserver.Next) mcpserver.Outcome {
		key := req.Method + " " + req.Name
		switch req.Name {
		case "refused":
			return mcpserver.Refuse(-32000, "rate limited")
		case "boom":
			panic("interceptor bug")
		}
		mu.Lock()
		trail = append(trail, "outer "+key)
		mu.Unlock()
		o := next(ctx)
		mu.Lock()
		seen[key], reqs[key] = o, *req
		mu.Unlock()
		return o
	}, func(ctx context.Context, req *mcpserver.Request, next mcpserver.Next) mcpserver.Outcome {
		mu.Lock()
		trail = append(trail, "inner "+req.Method+" "+req.Name)
		mu.Unlock()
		return next(ctx)
	})
	r := dial(t, srv, "2025-06-18")
	if got := r.call("tools/call", `{"name":"add","arguments":{"a":1},"_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}`); !strings.Contains(got, `"3"`) {
		t.Fatalf("add: %s", got)
	}
	r.call("tools/call", `{"name":"fails"}`)
	if got := r.call("tools/call", `{"name":"refused"}`); got != `{"error":{"code":-32000,"message":"rate limited"}}` {
		t.Errorf("refused: %s", got)
	}
	if got := r.call("tools/call", `{"name":"boom"}`); got != `{"error":{"code":-32603,"message":"internal error"}}` {
		t.Errorf("panic: %s", got)
	}
	if !strings.Contains(log.String(), "interceptor bug") {
		t.Errorf("the panic was not logged: %s", log.String())
	}
	r.call("ping", `{}`)

	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(trail[:4], ", "); got != "outer initialize , inner initialize , outer notifications/initialized , inner notifications/initialized " {
		t.Errorf("trail %s", got)
	}
	add, o := reqs["tools/call add"], seen["tools/call add"]
	if add.Revision != "2025-06-18" || string(add.Arguments) != `{"a":1}` || add.Notification {
		t.Errorf("request %+v", add)
	}
	if tp, _ := add.MetaString("traceparent"); tp != "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" {
		t.Errorf("traceparent %q", tp)
	}
	if o.Error != nil || o.IsError || !strings.Contains(string(o.Result), `"3"`) {
		t.Errorf("add: outcome %+v", o)
	}
	if o := seen["tools/call fails"]; !o.IsError || o.Error != nil {
		t.Errorf("tool error: outcome %+v", o)
	}
	if n := reqs["notifications/initialized "]; !n.Notification {
		t.Errorf("notification %+v", n)
	}
	if _, ok := seen["ping "]; !ok {
		t.Error("the server stopped serving after the panic")
	}
}

// TestUseWithoutParams: a message without params, which go-sdk holds as
// a nil pointer, reaches the interceptors without params and does not
// crash the server.
func TestUseWithoutParams(t *testing.T) {
	t.Parallel()
	srv := NewServer(mcprt.Identity{Name: "t", Version: "1"})
	var mu sync.Mutex
	var methods []string
	Use(srv, func(ctx context.Context, req *mcpserver.Request, next mcpserver.Next) mcpserver.Outcome {
		mu.Lock()
		methods = append(methods, req.Method+" "+string(req.Params))
		mu.Unlock()
		return next(ctx)
	})
	r := dial(t, srv, "2025-06-18")
	r.write(&jsonrpc.Request{Method: "notifications/roots/list_changed"})
	if got := r.call("ping", ``); got != `{}` {
		t.Fatalf("ping after a notification without params: %s", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(strings.Join(methods, "\n"), "notifications/roots/list_changed \n") {
		t.Errorf("interceptors saw %q", methods)
	}
}
