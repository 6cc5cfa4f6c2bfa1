package mcpserver

import (
	"testing"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

func TestJSONRPCErrors(t *testing.T) {
	t.Parallel()
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}))
	tests := []struct{ name, in, want string }{
		{"malformed", `{"jsonrpc":"2.0","id":1,"method":`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`},
		{"not an object", `"hello"`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: not a JSON-RPC object"}}`},
		{"wrong version", `{"jsonrpc":"1.0","id":7,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"invalid request: \"jsonrpc\" must be \"2.0\""}}`},
		{"version missing", `{"id":"x","method":"ping"}`,
			`{"jsonrpc":"2.0","id":"x","error":{"code":-32600,"message":"invalid request: \"jsonrpc\" must be \"2.0\""}}`},
		{"version a number", `{"jsonrpc":2.0,"id":8,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":8,"error":{"code":-32600,"message":"invalid request: \"jsonrpc\" must be \"2.0\""}}`},
		{"id an object", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: id must be a string or a number"}}`},
		{"id a bool", `{"jsonrpc":"2.0","id":true,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: id must be a string or a number"}}`},
		{"method missing", `{"jsonrpc":"2.0","id":9}`,
			`{"jsonrpc":"2.0","id":9,"error":{"code":-32600,"message":"invalid request: method is missing"}}`},
		{"method not a string", `{"jsonrpc":"2.0","id":10,"method":5}`,
			`{"jsonrpc":"2.0","id":10,"error":{"code":-32600,"message":"invalid request: method must be a non-empty string"}}`},
		{"unknown method", `{"jsonrpc":"2.0","id":11,"method":"nope"}`,
			`{"jsonrpc":"2.0","id":11,"error":{"code":-32601,"message":"method not found: nope"}}`},
		{"batch before initialize", `[{"jsonrpc":"2.0","id":12,"method":"ping"}]`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: batches are supported only by protocol revision 2025-03-26"}}`},
		{"malformed batch", `[{"jsonrpc":"2.0"`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.t = t
			c.call(tt.in, tt.want)
		})
	}
}

// TestIDsEchoedExactly checks that ids come back byte for byte, whatever
// their spelling.
func TestIDsEchoedExactly(t *testing.T) {
	t.Parallel()
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}))
	for _, id := range []string{`"abc"`, `"\u00e9\n"`, `1e2`, `-0`, `12345678901234567890`, `1.50`} {
		c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		want := `{"jsonrpc":"2.0","id":` + id + `,"result":{}}`
		if got := c.recv(); got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
}

func TestNotificationsGetNoAnswer(t *testing.T) {
	t.Parallel()
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}))
	c.send(`{"jsonrpc":"2.0","method":"notifications/unknown"}`)
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}`)
	c.send(`{"jsonrpc":"2.0","id":5,"result":{}}`) // a response to no request of ours
	c.call(`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"result":{}}`)
}

func TestBatches(t *testing.T) {
	t.Parallel()
	tools := []mcprt.Tool{textTool("a", "A")}
	t.Run("2025-03-26", func(t *testing.T) {
		c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}, tools...))
		c.initialize(wire.Rev20250326, `{}`)
		c.call(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},`+
			`{"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"a"}},{"jsonrpc":"1.0","id":3,"method":"ping"},`+
			`{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}]`,
			`[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":"b","result":{"content":[{"type":"text","text":"A"}]}},`+
				`{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"invalid request: \"jsonrpc\" must be \"2.0\""}},`+
				`{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"invalid request: initialize must not be part of a batch"}}]`)
		c.call(`[]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: empty batch"}}`)
		// A batch of notifications only is not answered.
		c.send(`[{"jsonrpc":"2.0","method":"notifications/x"}]`)
		c.call(`{"jsonrpc":"2.0","id":9,"method":"ping"}`, `{"jsonrpc":"2.0","id":9,"result":{}}`)
	})
	for _, rev := range []wire.Revision{wire.Rev20241105, wire.Rev20250618, wire.Rev20251125} {
		t.Run(string(rev), func(t *testing.T) {
			c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}, tools...))
			c.initialize(rev, `{}`)
			c.call(`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
				`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: batches are supported only by protocol revision 2025-03-26"}}`)
		})
	}
}
