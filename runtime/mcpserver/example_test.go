package mcpserver_test

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/time/rate"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// ExampleServer_Use limits tool calls to one a minute with a burst of
// two, refusing the rest with a JSON-RPC error the client can act on.
func ExampleServer_Use() {
	srv := mcpserver.New(mcprt.Identity{Name: "limited", Version: "1.0.0"}, mcprt.Tool{
		Name:        "hello",
		InputSchema: []byte(`{"type":"object"}`),
		Handler: func(ctx context.Context, args []byte) mcprt.Result {
			return mcprt.TextResult("hi")
		},
	})
	limit := rate.NewLimiter(rate.Every(time.Minute), 2)
	srv.Use(func(ctx context.Context, req *mcpserver.Request, next mcpserver.Next) mcpserver.Outcome {
		if req.Method == "tools/call" && !limit.Allow() {
			return mcpserver.Refuse(-32000, "rate limited: try again in a minute")
		}
		return next(ctx)
	})

	ctx := context.Background()
	conn := srv.Connect(ctx, func([]byte) error { return nil })
	defer conn.Close()
	conn.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`))
	conn.Handle(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	for id := 1; id <= 3; id++ {
		fmt.Printf("%s\n", conn.Handle(ctx, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"hello"}}`, id)))
	}
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}]}}
	// {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hi"}]}}
	// {"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"rate limited: try again in a minute"}}
}
