package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

func TestToolsListPagination(t *testing.T) {
	t.Parallel()
	var tools []mcprt.Tool
	for _, n := range []string{"e", "d", "c", "b", "a"} { // insertion order, not sorted
		tools = append(tools, textTool(n, n))
	}
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v", PageSize: 2}, tools...))
	c.initialize(wire.Rev20250618, `{}`)
	desc := func(n string) string { return `{"name":"` + n + `","inputSchema":{"type":"object"}}` }
	c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[`+desc("e")+`,`+desc("d")+`],"nextCursor":"`+encodeCursor(2)+`"}}`)
	c.call(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"`+encodeCursor(2)+`"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"tools":[`+desc("c")+`,`+desc("b")+`],"nextCursor":"`+encodeCursor(4)+`"}}`)
	c.call(`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"`+encodeCursor(4)+`"}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"tools":[`+desc("a")+`]}}`)
	for i, bad := range []string{`"nonsense!"`, `""`, `"` + encodeCursor(6) + `"`, `"b0xZ"`, `7`} {
		c.call(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list","params":{"cursor":%s}}`, 10+i, bad),
			fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"error":{"code":-32602,"message":"invalid params: %s"}}`, 10+i,
				map[bool]string{true: "cursor must not be a number", false: "invalid cursor"}[bad == "7"]))
	}
}

func TestToolsListPerRevision(t *testing.T) {
	t.Parallel()
	tool := mcprt.Tool{
		Name: "add", Title: "Add", Description: "Adds.",
		InputSchema:  []byte(`{"type":"object"}`),
		OutputSchema: []byte(`{"type":"object"}`),
		Hints:        mcprt.Hints{ReadOnly: new(true)},
		Icons:        []mcprt.Icon{{Src: "https://x/i.png"}},
		TaskSupport:  mcprt.TaskOptional,
	}
	for _, rev := range []wire.Revision{wire.Rev20241105, wire.Rev20250326, wire.Rev20250618, wire.Rev20251125} {
		t.Run(string(rev), func(t *testing.T) {
			c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}, tool))
			c.initialize(rev, `{}`)
			c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
				`{"jsonrpc":"2.0","id":1,"result":{"tools":[`+string(wire.AppendTool(nil, &tool, rev))+`]}}`)
		})
	}
	// Spot-check that the revisions differ as they should.
	if d := string(wire.AppendTool(nil, &tool, wire.Rev20241105)); strings.Contains(d, "annotations") {
		t.Errorf("2024-11-05 descriptor has annotations: %s", d)
	}
}

func TestToolsCall(t *testing.T) {
	t.Parallel()
	echo := handlerTool("echo", func(ctx context.Context, args []byte) mcprt.Result {
		return mcprt.TextResult("args=" + string(args))
	})
	boom := handlerTool("boom", func(ctx context.Context, args []byte) mcprt.Result { panic("kaputt") })
	structured := handlerTool("s", func(ctx context.Context, args []byte) mcprt.Result {
		return mcprt.StructuredResult([]byte(`{"n":1}`))
	})
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}, echo, boom, structured))
	c.initialize(wire.Rev20250618, `{}`)
	tests := []struct{ name, params, result string }{
		{"args", `{"name":"echo","arguments":{"a":1}}`, `"result":{"content":[{"type":"text","text":"args={\"a\":1}"}]}`},
		{"no args", `{"name":"echo"}`, `"result":{"content":[{"type":"text","text":"args="}]}`},
		{"null args", `{"name":"echo","arguments":null}`, `"result":{"content":[{"type":"text","text":"args="}]}`},
		{"structured", `{"name":"s"}`, `"result":{"content":[{"type":"text","text":"{\"n\":1}"}],"structuredContent":{"n":1}}`},
		{"panic", `{"name":"boom"}`, `"result":{"content":[{"type":"text","text":"internal error: tool boom panicked: kaputt"}],"isError":true}`},
		{"unknown", `{"name":"nope"}`, `"error":{"code":-32602,"message":"invalid params: unknown tool \"nope\""}`},
		{"no name", `{}`, `"error":{"code":-32602,"message":"invalid params: tool name is missing"}`},
		{"args not an object", `{"name":"echo","arguments":[1]}`, `"error":{"code":-32602,"message":"invalid params: arguments must be an object"}`},
		{"params not an object", `[1]`, `"error":{"code":-32602,"message":"invalid params: params must be an object"}`},
		{"still serving after a panic", `{"name":"echo"}`, `"result":{"content":[{"type":"text","text":"args="}]}`},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.t = t
			c.call(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, i, tt.params),
				fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,%s}`, i, tt.result))
		})
	}
}

// TestConcurrentCalls holds every handler until all of them run at once,
// which only happens when calls are served concurrently.
func TestConcurrentCalls(t *testing.T) {
	t.Parallel()
	const n = 16
	var arrived sync.WaitGroup
	arrived.Add(n)
	all := make(chan struct{})
	go func() { arrived.Wait(); close(all) }()
	wait := handlerTool("wait", func(ctx context.Context, args []byte) mcprt.Result {
		arrived.Done()
		select {
		case <-all:
			return mcprt.TextResult("ok")
		case <-time.After(timeout):
			return mcprt.Errorf("not concurrent")
		}
	})
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}, wait))
	c.initialize(wire.Rev20251125, `{}`)
	for i := range n {
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"wait"}}`, i))
	}
	seen := map[string]bool{}
	for range n {
		line := c.recv()
		if !strings.Contains(line, `"text":"ok"`) {
			t.Fatalf("call failed: %s", line)
		}
		seen[line] = true
	}
	if len(seen) != n {
		t.Errorf("%d distinct responses, want %d", len(seen), n)
	}
}

func TestToolListChanged(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableToolNotifications: true}, textTool("a", "A"))
	c := startStdio(t, srv)
	c.initialize(wire.Rev20250618, `{}`)
	srv.AddTools(textTool("b", "B"))
	c.expect(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
	c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"b"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"B"}]}}`)
	// A tool removed may come back, at the end.
	srv.RemoveTools("a")
	c.expect(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
	srv.AddTools(textTool("a", "A2"))
	c.expect(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
	c.call(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"b","inputSchema":{"type":"object"}},{"name":"a","inputSchema":{"type":"object"}}]}}`)
}

// TestDeprecatedAdd checks that Add, kept for servers that call it, adds
// and notifies as AddTools does.
func TestDeprecatedAdd(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableToolNotifications: true})
	c := startStdio(t, srv)
	c.initialize(wire.Rev20250618, `{}`)
	srv.Add(textTool("b", "B"))
	c.expect(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
	c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"b"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"B"}]}}`)
}

func TestNoListChangedWithoutSwitch(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v"})
	c := startStdio(t, srv)
	c.initialize(wire.Rev20250618, `{}`)
	srv.AddTools(textTool("b", "B"))
	c.call(`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"result":{}}`)
}

// Named functions, which the duplicate's panic names as they are.
func firstRead(ctx context.Context, uri string) ([]mcprt.ResourceContents, error)  { return nil, nil }
func secondRead(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) { return nil, nil }
func firstCall(ctx context.Context, args []byte) mcprt.Result                      { return mcprt.Result{} }
func firstGet(ctx context.Context, args map[string]string) (mcprt.PromptResult, error) {
	return mcprt.PromptResult{}, nil
}

// TestDuplicatesPanic checks that a second tool, prompt, resource or
// template of one name or URI panics, naming the functions of both, and
// adds nothing of the call that panicked.
func TestDuplicatesPanic(t *testing.T) {
	t.Parallel()
	const pkg = "github.com/mcpgen/mcpgen/runtime/mcpserver."
	srv := New(mcprt.Identity{Name: "n", Version: "v"}, handlerTool("a", firstCall))
	srv.AddResources(mcprt.Resource{URI: "kb://x", Name: "x", Read: firstRead}, mcprt.Resource{URI: "kb://{id}", Name: "t", Read: firstRead})
	srv.AddPrompts(mcprt.Prompt{Name: "p", Get: firstGet})
	for _, tt := range []struct {
		name string
		add  func()
		want string
	}{
		{"New", func() { New(mcprt.Identity{}, handlerTool("b", firstCall), handlerTool("b", firstCall)) },
			`mcpserver: New: tool "b" is added twice, both times with ` + pkg + `firstCall; a server serves one tool of a name: RemoveTools the first to replace it`},
		{"AddTools", func() { srv.AddTools(textTool("c", "C"), handlerTool("a", nil)) },
			`mcpserver: AddTools: tool "a" is added twice: first with ` + pkg + `firstCall, then with no function; a server serves one tool of a name: RemoveTools the first to replace it`},
		{"AddPrompts", func() { srv.AddPrompts(mcprt.Prompt{Name: "p", Get: firstGet}) },
			`mcpserver: AddPrompts: prompt "p" is added twice, both times with ` + pkg + `firstGet; a server serves one prompt of a name: RemovePrompts the first to replace it`},
		{"AddResources", func() { srv.AddResources(mcprt.Resource{URI: "kb://x", Name: "x2", Read: secondRead}) },
			`mcpserver: AddResources: resource "kb://x" is added twice: first with ` + pkg + `firstRead, then with ` + pkg + `secondRead; a server serves one resource of a URI: RemoveResources the first to replace it`},
		{"AddResources template", func() {
			srv.AddResources(mcprt.Resource{URI: "kb://y", Name: "y", Read: secondRead}, mcprt.Resource{URI: "kb://{id}", Name: "t2", Read: secondRead})
		},
			`mcpserver: AddResources: resource template "kb://{id}" is added twice: first with ` + pkg + `firstRead, then with ` + pkg + `secondRead; a server serves one resource template of a URI: RemoveResources the first to replace it`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if got := fmt.Sprint(recover()); got != tt.want {
					t.Errorf("panicked with\n %s\nwant\n %s", got, tt.want)
				}
			}()
			tt.add()
		})
	}
	// Nothing of a call that panicked was added.
	c := startStdio(t, srv)
	c.initialize(wire.Rev20250618, `{}`)
	c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}}`)
	c.call(`{"jsonrpc":"2.0","id":2,"method":"resources/list"}`, `{"jsonrpc":"2.0","id":2,"result":{"resources":[{"uri":"kb://x","name":"x"}]}}`)
}
