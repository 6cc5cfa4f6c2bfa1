package mcpserver

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// decodingTool is a tool whose handler reads its arguments with a
// Decoder, as generated handlers do, and so may get them unchecked: an
// object with one integer property "n", answered as "n=<n>".
func decodingTool(name string, calls *atomic.Int32) mcprt.Tool {
	return mcprt.Tool{
		Name:            name,
		InputSchema:     []byte(`{"type":"object","properties":{"n":{"type":"integer"}}}`),
		ChecksArguments: true,
		Handler: func(ctx context.Context, args []byte) mcprt.Result {
			var d mcpimpl.Decoder
			d.Start(ctx, args)
			var n int64
			if d.Object() {
				for d.NextField() {
					if string(d.Key()) == "n" {
						n = d.Int(64)
					} else {
						d.UnknownField([]string{"n"})
					}
				}
			}
			if err := d.Finish(); err != nil {
				return mcprt.ErrorResult(err)
			}
			calls.Add(1)
			return mcprt.TextResult("n=" + strings.Repeat("|", int(n)))
		},
	}
}

// TestMalformedArgumentsAreParseErrors checks that arguments the parse
// leaves to the tool's decoder are a parse error (id null) whenever they
// are not JSON, on every path a request can take, and that no tool runs
// on them; and that well-formed arguments with problems are results.
func TestMalformedArgumentsAreParseErrors(t *testing.T) {
	t.Parallel()
	var decoded, plain atomic.Int32
	ignoring := handlerTool("ignoring", func(ctx context.Context, args []byte) mcprt.Result {
		plain.Add(1) // a hand-written handler that never looks at args
		return mcprt.TextResult("ran")
	})
	srv := New(mcprt.Identity{Name: "n", Version: "v"}, decodingTool("dec", &decoded), ignoring)
	c := startStdio(t, srv)
	const parseError = `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`
	call := func(id, name, args string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args + `}}`
	}
	// Before initialize: the session error must not hide the parse error.
	c.call(call("1", "dec", `{"n":1]`), parseError)
	c.initialize(wire.Rev20251125, `{}`)
	for _, args := range []string{
		`{"n":1]`,           // brackets mismatched: the skip ends, the decoder fails
		`{"n":tru}`,         // a bad literal inside
		`{"n":"x","m":[1,}`, // a problem first, then bad syntax
		`{"n":1,"x":"\q"}`,  // a bad escape in a property the decoder skips
		`{"x":{"y":[1 2]},"n":1}`,
	} {
		c.call(call("2", "dec", args), parseError)
		c.call(call("3", "ignoring", args), parseError)
		c.call(call("4", "missing", args), parseError)
		c.call(`{"jsonrpc":"2.0","id":5,"method":"ping","params":{"arguments":`+args+`}}`, parseError)
		c.call(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{"arguments":`+args+`}}`, parseError)
		c.call(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":7,"arguments":`+args+`}}`, parseError)
	}
	if decoded.Load() != 0 || plain.Load() != 0 {
		t.Fatalf("tools ran on malformed arguments: decoding %d, hand-written %d", decoded.Load(), plain.Load())
	}
	// Well-formed arguments: problems are results, and both tools run.
	c.call(call("7", "dec", `{"n":2}`), `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"n=||"}]}}`)
	c.call(call("8", "dec", `{"n":"x"}`),
		`{"jsonrpc":"2.0","id":8,"result":{"content":[{"type":"text","text":"invalid arguments:\nn: expected integer, got \"x\""}],"isError":true}}`)
	deep := strings.Repeat(`{"x":`, 100) + `1` + strings.Repeat(`}`, 100)
	c.call(call("9", "dec", deep),
		`{"jsonrpc":"2.0","id":9,"result":{"content":[{"type":"text","text":"invalid arguments:\n`+
			`x: unknown property; did you mean \"n\"?\nx: nesting deeper than 64 levels"}],"isError":true}}`)
	c.call(call("10", "ignoring", `{"x":[{}]}`), `{"jsonrpc":"2.0","id":10,"result":{"content":[{"type":"text","text":"ran"}]}}`)
	c.call(call("11", "missing", `{}`), `{"jsonrpc":"2.0","id":11,"error":{"code":-32602,"message":"invalid params: unknown tool \"missing\""}}`)
	if decoded.Load() != 1 || plain.Load() != 1 {
		t.Fatalf("calls with well-formed arguments: decoding %d, hand-written %d; want 1 and 1", decoded.Load(), plain.Load())
	}
	// Deeper than a whole message may nest is a parse error, as before.
	tooDeep := strings.Repeat(`[`, maxNesting) + strings.Repeat(`]`, maxNesting)
	c.call(call("12", "dec", `{"x":`+tooDeep+`}`), parseError)
}

// TestHTTPMalformedArguments checks that over HTTP malformed arguments are
// refused with status 400 before the session is even looked at.
func TestHTTPMalformedArguments(t *testing.T) {
	t.Parallel()
	var decoded atomic.Int32
	c := startHTTP(t, New(mcprt.Identity{Name: "n", Version: "v"}, decodingTool("dec", &decoded)))
	c.post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dec","arguments":{"n":1]}}`, 400,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`, nil)
	if decoded.Load() != 0 {
		t.Fatal("the tool ran on malformed arguments")
	}
}
