package mcpserver

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestConn drives a connection of the caller's own transport: responses
// come back from Handle, progress goes to the send function, bad input is
// answered with positioned JSON-RPC errors, and a closed connection fails
// requests to the client.
func TestConn(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var sent []string
	srv := New(mcprt.Identity{Name: "t", Version: "1"},
		textTool("hello", "hi"),
		handlerTool("slow", func(ctx context.Context, args []byte) mcprt.Result {
			if err := mcprt.Progress(ctx, 1, 2, "half"); err != nil {
				return mcprt.ErrorResult(err)
			}
			return mcprt.TextResult("done")
		}))
	ctx := context.Background()
	c := srv.Connect(ctx, func(msg []byte) error {
		mu.Lock()
		sent = append(sent, string(msg))
		mu.Unlock()
		return nil
	})
	handle := func(in string) string { return string(c.Handle(ctx, []byte(in))) }

	sameJSON(t, handle(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`),
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request: the session is not initialized; send initialize first"}}`)
	if got := handle(`{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`); !strings.Contains(got, `"protocolVersion":"2025-06-18"`) {
		t.Fatalf("initialize: %s", got)
	}
	if got := handle(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); got != "" {
		t.Errorf("notification answered with %s", got)
	}
	sameJSON(t, handle(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"hello"}}`),
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hi"}]}}`)
	sameJSON(t, handle(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"p"}}}`),
		`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"done"}]}}`)
	mu.Lock()
	if len(sent) != 1 {
		t.Fatalf("sent %d messages, want the one progress notification: %q", len(sent), sent)
	}
	sameJSON(t, sent[0], `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1,"total":2,"message":"half"}}`)
	mu.Unlock()
	sameJSON(t, handle(`{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"cursor":7}}`),
		`{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"invalid params: cursor must not be a number"}}`)
	sameJSON(t, handle(`{"jsonrpc":"2.0","id":5,"method":"tools/list","params":["x"]}`),
		`{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"invalid params: params must be an object"}}`)
	sameJSON(t, handle(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":1}}`),
		`{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"invalid params: name must not be a number"}}`)
	sameJSON(t, handle(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"hello"`),
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`)
	sameJSON(t, handle(`[{"jsonrpc":"2.0","id":7,"method":"ping"}]`),
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: batches are supported only by protocol revision 2025-03-26"}}`)
	c.Close()
	srv.mu.Lock()
	_, tracked := srv.sessions[c.sess]
	srv.mu.Unlock()
	if tracked {
		t.Error("a closed connection is still tracked")
	}
}

// TestListCacheFollowsAdd checks that the shared tools/list result is
// rebuilt when tools are added.
func TestListCacheFollowsAdd(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "t", Version: "1"}, textTool("a", "a"))
	before := string(srv.tools.fullList(wire.Rev20250618, nil))
	srv.AddTools(textTool("b", "b"))
	after := string(srv.tools.fullList(wire.Rev20250618, nil))
	if strings.Contains(before, `"b"`) || !strings.Contains(after, `"name":"b"`) {
		t.Errorf("list before Add %s, after %s", before, after)
	}
}

// TestConnTaskResult checks that tasks/result on a Conn waits for the
// task and answers with its result.
func TestConnTaskResult(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := taskServer(mcprt.Tool{Name: "work", InputSchema: []byte(`{"type":"object"}`), TaskSupport: mcprt.TaskOptional,
		Handler: func(ctx context.Context, args []byte) mcprt.Result {
			<-release
			return mcprt.TextResult("done")
		}})
	ctx := context.Background()
	c := srv.Connect(ctx, func([]byte) error { return nil })
	defer c.Close()
	c.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`))
	id, _, _ := taskOf(t, string(c.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"work","task":{}}}`))))
	close(release)
	sameJSON(t, string(c.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":2,"method":"tasks/result","params":{"taskId":"`+id+`"}}`))),
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"done"}],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"`+id+`"}}}}`)
}
