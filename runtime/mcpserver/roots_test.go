package mcpserver

import (
	"context"
	"testing"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

var rootsTool = handlerTool("roots", func(ctx context.Context, args []byte) mcprt.Result {
	roots, err := mcprt.ListRoots(ctx)
	if err != nil {
		return mcprt.ErrorResult(err)
	}
	text := ""
	for _, r := range roots {
		text += r.URI + " (" + r.Name + ");"
	}
	return mcprt.TextResult(text)
})

func TestListRootsRoundTrip(t *testing.T) {
	t.Parallel()
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}, rootsTool))
	c.initialize(wire.Rev20241105, `{"roots":{"listChanged":true}}`)
	c.send(`{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"roots"}}`)
	c.expect(`{"jsonrpc":"2.0","id":1,"method":"roots/list","params":{}}`)
	c.send(`{"jsonrpc":"2.0","id":1,"result":{"roots":[{"uri":"file:///src","name":"src"},{"uri":"file:///doc"}]}}`)
	c.expect(`{"jsonrpc":"2.0","id":"call","result":{"content":[{"type":"text","text":"file:///src (src);file:///doc ();"}]}}`)
	// A malformed answer is an error the handler sees.
	c.send(`{"jsonrpc":"2.0","id":"call2","method":"tools/call","params":{"name":"roots"}}`)
	c.recv()
	c.send(`{"jsonrpc":"2.0","id":2,"result":{"roots":"none"}}`)
	c.expect(`{"jsonrpc":"2.0","id":"call2","result":{"content":[{"type":"text","text":"malformed roots result: {\"roots\":\"none\"}"}],"isError":true}}`)
}

func TestListRootsNeedsTheCapability(t *testing.T) {
	t.Parallel()
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}, rootsTool))
	c.initialize(wire.Rev20250618, `{"sampling":{}}`)
	c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"roots"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"the client did not declare the roots capability"}],"isError":true}}`)
}
