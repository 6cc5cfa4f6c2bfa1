package mcpserver

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

func TestStatelessDiscover(t *testing.T) {
	t.Parallel()
	c := startStdio(t, New(fullIdentity))
	c.call(`{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{`+statelessMeta+`}}`,
		`{"jsonrpc":"2.0","id":"d","result":{"resultType":"complete",`+
			`"supportedVersions":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"],`+
			`"capabilities":{"logging":{},"completions":{},"extensions":{"io.modelcontextprotocol/tasks":{}},"tools":{"listChanged":true}},"instructions":"Use add.","ttlMs":0,"cacheScope":"public",`+
			`"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"calc","version":"1.2.3","title":"Calculator","description":"Adds numbers","websiteUrl":"https://example.com","icons":[{"src":"https://example.com/i.png","mimeType":"image/png"}]}}}}`)
}

func TestStatelessRequests(t *testing.T) {
	t.Parallel()
	tools := []mcprt.Tool{textTool("a", "A"), textTool("b", "B"), logTool}
	srv := New(mcprt.Identity{Name: "n", Version: "v", PageSize: 2, EnableLogging: true, EnableCompletions: true}, tools...)
	srv.AddPrompts(mcprt.Prompt{Name: "p"})
	c := startStdio(t, srv)
	// No initialize needed.
	c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+statelessMeta+`}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"b","inputSchema":{"type":"object"}}],"nextCursor":"`+encodeCursor(2)+`","ttlMs":0,"cacheScope":"public"}}`)
	c.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{`+statelessMeta+`,"name":"a","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"A"}]}}`)
	c.call(`{"jsonrpc":"2.0","id":3,"method":"completion/complete","params":{`+statelessMeta+`,"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"x","value":""}}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","completion":{"values":[],"total":0,"hasMore":false}}}`)
	// Removed in 2026-07-28.
	for _, m := range []string{"ping", "logging/setLevel"} {
		c.call(`{"jsonrpc":"2.0","id":4,"method":"`+m+`","params":{`+statelessMeta+`}}`,
			`{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"method not found: `+m+`"}}`)
	}
	// The log level comes with each request.
	c.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"error"},"name":"log"}}`)
	c.expect(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","logger":"t","data":{"at":"error"}}}`)
	c.expect(`{"jsonrpc":"2.0","id":5,"result":{"resultType":"complete","content":[{"type":"text","text":"logged"}]}}`)
	c.call(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{`+statelessMeta+`,"name":"log"}}`,
		`{"jsonrpc":"2.0","id":6,"result":{"resultType":"complete","content":[{"type":"text","text":"logged"}]}}`)
}

func TestStatelessUnsupportedVersion(t *testing.T) {
	t.Parallel()
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}))
	c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01"}}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"],"requested":"1900-01-01"}}}`)
}

// TestStatelessBesideLegacy serves both eras on one stream.
func TestStatelessBesideLegacy(t *testing.T) {
	t.Parallel()
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}, textTool("a", "A")))
	c.initialize(wire.Rev20241105, `{}`)
	c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`+statelessMeta+`,"name":"a"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"A"}]}}`)
	c.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"a"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"A"}]}}`)
}

// TestServeStreamWaitsForHandlers checks that the end of input lets a
// running handler finish and write its response before ServeStream returns.
func TestServeStreamWaitsForHandlers(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	slow := handlerTool("slow", func(ctx context.Context, args []byte) mcprt.Result {
		<-release
		return mcprt.TextResult("late")
	})
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}, slow))
	c.initialize(wire.Rev20250618, `{}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`)
	time.AfterFunc(50*time.Millisecond, func() { close(release) })
	rest := c.rest()
	if len(rest) != 1 || !strings.Contains(rest[0], "late") {
		t.Errorf("got %q, want the slow response", rest)
	}
}

func TestServeStreamContextCancel(t *testing.T) {
	t.Parallel()
	started, cancelled := make(chan struct{}), make(chan struct{})
	srv := New(mcprt.Identity{Name: "n", Version: "v"}, blockTool(started, cancelled))
	inR, inW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.ServeStream(ctx, inR, io.Discard) }()
	io.WriteString(inW, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`+"\n")
	io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block"}}`+"\n")
	<-started
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeStream = %v, want nil", err)
		}
	case <-time.After(timeout):
		t.Fatal("ServeStream did not return after cancel")
	}
	select {
	case <-cancelled:
	default:
		t.Error("the handler was not cancelled")
	}
}

func TestServeStreamWriteError(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v"})
	err := srv.ServeStream(context.Background(), strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"), failingWriter{})
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("ServeStream = %v, want the write error", err)
	}
}

type failingWriter struct{}

func (failingWriter) Write(b []byte) (int, error) { return 0, errors.New("disk full") }
