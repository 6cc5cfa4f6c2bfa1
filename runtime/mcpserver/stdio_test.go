package mcpserver

import (
	"context"
	"testing"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestLongRequestLetsOthersThrough checks that a request answered on the
// reading goroutine (nothing else ran when it came) does not keep later
// requests waiting: they are read and answered while it still runs.
func TestLongRequestLetsOthersThrough(t *testing.T) {
	release := make(chan struct{})
	slow := handlerTool("slow", func(ctx context.Context, args []byte) mcprt.Result {
		<-release
		return mcprt.TextResult("late")
	})
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}, slow, textTool("quick", "soon")))
	c.initialize(wire.Rev20250618, `{}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`)
	c.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"quick"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"soon"}]}}`)
	c.call(`{"jsonrpc":"2.0","id":3,"method":"ping"}`, `{"jsonrpc":"2.0","id":3,"result":{}}`)
	close(release)
	c.expect(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"late"}]}}`)
}
