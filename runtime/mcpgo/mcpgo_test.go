package mcpgo

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/bench/pricing"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// send hands one JSON-RPC request to s in process and returns the encoded
// response.
func send(t *testing.T, s *server.MCPServer, req string) string {
	t.Helper()
	out, err := json.Marshal(s.HandleMessage(context.Background(), json.RawMessage(req)))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestDescriptorCarriesSchemasAndHintsAsWritten(t *testing.T) {
	t.Parallel()
	tool := pricing.MCPTools()[0]
	s := NewServer(mcprt.Identity{Name: "t", Version: "1"}, tool)
	var resp struct {
		Result struct{ Tools []map[string]json.RawMessage }
	}
	if err := json.Unmarshal([]byte(send(t, s, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)), &resp); err != nil {
		t.Fatal(err)
	}
	if len(resp.Result.Tools) != 1 {
		t.Fatalf("listed %d tools, want 1", len(resp.Result.Tools))
	}
	got := resp.Result.Tools[0]
	if string(got["inputSchema"]) != string(tool.InputSchema) {
		t.Errorf("inputSchema\n got %s\nwant %s (the generator's bytes)", got["inputSchema"], tool.InputSchema)
	}
	if want := `{"title":"Bulk price update","destructiveHint":true,"idempotentHint":false,"openWorldHint":false}`; string(got["annotations"]) != want {
		t.Errorf("annotations %s, want %s", got["annotations"], want)
	}
	if string(got["title"]) != `"Bulk price update"` {
		t.Errorf("title %s", got["title"])
	}
}

func TestCallFailuresAreToolResults(t *testing.T) {
	t.Parallel()
	boom := mcprt.Tool{Name: "boom", Description: "panics", InputSchema: []byte(`{"type":"object"}`),
		Handler: func(context.Context, []byte) mcprt.Result { panic("kaput") }}
	s := NewServer(mcprt.Identity{Name: "t", Version: "1"}, append(pricing.MCPTools(), boom)...)
	for _, tc := range []struct{ name, req, want string }{
		{"bad arguments", `{"name":"bulk_price_update","arguments":{"region":"mars","changes":[]}}`,
			`{"content":[{"type":"text","text":"invalid arguments:\nregion: \"mars\" is not one of \"emea\", \"amer\", \"apac\""}],"isError":true}`},
		{"panic", `{"name":"boom","arguments":{}}`,
			`{"content":[{"type":"text","text":"internal error: tool boom panicked: kaput"}],"isError":true}`},
		{"good", `{"name":"bulk_price_update","arguments":{"region":"emea","changes":[{"product_id":"a","new_price":"1.5"}]}}`,
			`{"content":[{"type":"text","text":"updated 1 prices in emea"}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := send(t, s, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":`+tc.req+`}`)
			if want := `{"jsonrpc":"2.0","id":1,"result":` + tc.want + `}`; got != want {
				t.Errorf("\n got %s\nwant %s", got, want)
			}
		})
	}
	if got := send(t, s, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"nope"}}`); !strings.Contains(got, `"code":-32602`) {
		t.Errorf("unknown tool: %s, want error -32602", got)
	}
}

func TestRawArgumentsFromGoValues(t *testing.T) {
	t.Parallel()
	req := mcp.CallToolRequest{Params: mcp.CallToolParams{Arguments: map[string]any{"a": 1}}}
	if got, err := rawArguments(&req); err != nil || string(got) != `{"a":1}` {
		t.Errorf("rawArguments of Go values = %s, %v", got, err)
	}
	req.Params.RawArguments = json.RawMessage(`{"a": 2}`)
	if got, _ := rawArguments(&req); string(got) != `{"a": 2}` {
		t.Errorf("rawArguments = %s, want the bytes as sent", got)
	}
	req.Params.RawArguments = json.RawMessage(`null`)
	if got, _ := rawArguments(&req); got != nil {
		t.Errorf("rawArguments of null = %s, want nil", got)
	}
}

// TestResultPerRevision checks that blocks a revision lacks are converted
// and structured content is sent only where the revision has it.
func TestResultPerRevision(t *testing.T) {
	t.Parallel()
	r := mcprt.Result{
		Content: []mcprt.Content{
			mcprt.Audio([]byte{1}, "audio/wav"),
			mcprt.ResourceLink("file:///a", "a"),
			mcprt.BlobResource("file:///b", "application/octet-stream", []byte{0xff}),
			mcprt.TextResource("file:///c", "text/plain", "c"),
		},
		StructuredContent: []byte(`{"v":1}`),
	}
	for _, tc := range []struct {
		rev  wire.Revision
		want string
	}{
		{wire.Rev20241105, `{"content":[{"type":"text","text":"[audio content of type audio/wav, 1 bytes, is not supported by protocol revision 2024-11-05]"},{"type":"text","text":"resource: file:///a"},{"type":"resource","resource":{"uri":"file:///b","mimeType":"application/octet-stream","blob":"/w=="}},{"type":"resource","resource":{"uri":"file:///c","mimeType":"text/plain","text":"c"}}]}`},
		{wire.Rev20250326, `{"content":[{"type":"audio","data":"AQ==","mimeType":"audio/wav"},{"type":"text","text":"resource: file:///a"},{"type":"resource","resource":{"uri":"file:///b","mimeType":"application/octet-stream","blob":"/w=="}},{"type":"resource","resource":{"uri":"file:///c","mimeType":"text/plain","text":"c"}}]}`},
		{wire.Rev20250618, `{"content":[{"type":"audio","data":"AQ==","mimeType":"audio/wav"},{"type":"resource_link","uri":"file:///a","name":"a","description":"","mimeType":""},{"type":"resource","resource":{"uri":"file:///b","mimeType":"application/octet-stream","blob":"/w=="}},{"type":"resource","resource":{"uri":"file:///c","mimeType":"text/plain","text":"c"}}],"structuredContent":{"v":1}}`},
	} {
		js, err := json.Marshal(result(r, tc.rev, tc.rev))
		if err != nil {
			t.Fatal(err)
		}
		if string(js) != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.rev, js, tc.want)
		}
	}
}
