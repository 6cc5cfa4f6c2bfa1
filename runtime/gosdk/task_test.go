package gosdk

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestTaskToolsRunAsCalls checks what the package documentation says of
// tasks, which go-sdk does not have: a tool annotated task=required, added
// with AddTools, runs as an ordinary call, whether the client asks for a
// task or not, and nothing of tasks is published or served, even where the
// identity enables them.
func TestTaskToolsRunAsCalls(t *testing.T) {
	t.Parallel()
	must := mcprt.Tool{Name: "must", Description: "runs only as a task elsewhere", InputSchema: []byte(`{"type":"object"}`), TaskSupport: mcprt.TaskRequired,
		Handler: func(ctx context.Context, _ []byte) mcprt.Result { return mcprt.TextResult("ran") }}
	for name, s := range map[string]*mcp.Server{
		"NewServer with EnableTasks": NewServer(mcprt.Identity{Name: "t", Version: "1", EnableTasks: true}),
		"a server the caller made":   mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil),
	} {
		t.Run(name, func(t *testing.T) {
			AddTools(s, must)
			res, err := connect(t, s, "2025-11-25", nil).CallTool(context.Background(), &mcp.CallToolParams{Name: "must", Arguments: map[string]any{}})
			if err != nil || len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != "ran" {
				t.Errorf("go-sdk's client: %+v, %v", res, err)
			}
			r := dial(t, s, "2026-07-28") // no handshake: this one follows
			if got := r.call("initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`); !strings.Contains(got, `"capabilities":{`) || strings.Contains(got, `"tasks"`) {
				t.Errorf("initialize: %s, want no tasks capability", got)
			}
			r.write(&jsonrpc.Request{Method: "notifications/initialized", Params: json.RawMessage(`{}`)})
			if got := r.call("tools/list", `{}`); !strings.Contains(got, `"name":"must"`) || strings.Contains(got, "execution") {
				t.Errorf("tools/list: %s, want must without execution", got)
			}
			if got, want := r.call("tools/call", `{"name":"must","arguments":{},"task":{"ttl":1000}}`), `{"content":[{"type":"text","text":"ran"}]}`; got != want {
				t.Errorf("a call with task\n got %s\nwant %s", got, want)
			}
			if got := r.call("tasks/list", `{}`); !strings.Contains(got, `"code":-32601`) {
				t.Errorf("tasks/list: %s, want -32601", got)
			}
		})
	}
}
