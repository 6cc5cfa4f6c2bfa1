package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestLongRequestLetsOthersThrough checks that a request answered on the
// reading goroutine (nothing else ran when it came) does not keep later
// requests waiting: they are read and answered while it still runs.
func TestLongRequestLetsOthersThrough(t *testing.T) {
	t.Parallel()
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

// TestLineWriterKeepsMessagesWhole checks that messages sent while
// another sender writes are written after it, whole and in order, also
// when a write outgrows the buffer kept for reuse.
func TestLineWriterKeepsMessagesWhole(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", maxSpare+1)
	later := []string{"1", "2", big, "3", "4", "5"}
	var got strings.Builder
	lw := &lineWriter{}
	lw.w = writerFunc(func(b []byte) (int, error) {
		if len(later) > 0 { // a message sent while this write runs is queued
			next := later[0]
			later = later[1:]
			lw.send([]byte(next))
		}
		got.Write(b)
		return len(b), nil
	})
	if err := lw.send([]byte("0")); err != nil {
		t.Fatal(err)
	}
	if want := "0\n1\n2\n" + big + "\n3\n4\n5\n"; got.String() != want {
		t.Errorf("wrote %.40q (%d bytes), want %.40q (%d): messages lost, split or out of order", got.String(), got.Len(), want, len(want))
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }
