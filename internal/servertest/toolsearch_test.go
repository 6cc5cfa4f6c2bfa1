package servertest_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/gosdk"
	"github.com/mcpgen/mcpgen/runtime/mcpgo"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// toolSearch puts the path's server in tool search mode.
func toolSearch(s pathServer, ts mcpserver.ToolSearch) {
	switch s := s.(type) {
	case builtinServer:
		s.s.ToolSearch = &ts
	case gosdkServer:
		gosdk.ToolSearch(s.s, ts)
	case mcpgoServer:
		mcpgo.ToolSearch(s.s, ts)
	}
}

// searchTools are tools of two areas, in groups, one pinned.
func searchTools() []mcprt.Tool {
	mk := func(name, desc string) mcprt.Tool {
		return mcprt.Tool{Name: name, Description: desc, Groups: []string{"area"},
			InputSchema: []byte(`{"type":"object","properties":{"id":{"type":"string","description":"ID of the thing"}}}`),
			Handler:     func(_ context.Context, args []byte) mcprt.Result { return mcprt.TextResult(name + " " + string(args)) }}
	}
	pinned := mk("list_instances", "Lists the virtual machines of a project.")
	pinned.Pin = true
	return []mcprt.Tool{mk("reboot_instance", "Restarts a virtual machine."), mk("refund_charge", "Gives money back for a charge."), pinned}
}

// TestToolSearch runs tool search mode on every path and revision: the
// listing, a search, call_tool and a call by name; no path publishes the
// tools' groups, as none serves groups here.
func TestToolSearch(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		s := m.new(mcprt.Identity{Name: "t", Version: "1"}, searchTools()...)
		toolSearch(s, mcpserver.ToolSearch{})
		for _, rev := range m.revisions {
			cs := s.connect(t, string(rev), nil)
			ctx := context.Background()
			list, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tl := range list.Tools {
				names = append(names, tl.Name)
				if tl.Meta != nil {
					t.Errorf("%s: %s lists _meta %v", rev, tl.Name, tl.Meta)
				}
			}
			if want := []string{"search_tools", "call_tool", "list_instances"}; !slices.Equal(names, want) {
				t.Errorf("%s: tools/list %v, want %v", rev, names, want)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_tools", Arguments: map[string]any{"query": "restart the VM", "limit": 1}})
			if err != nil || res.IsError {
				t.Fatalf("%s: search_tools: %v %+v", rev, err, res)
			}
			var found struct{ Tools []map[string]json.RawMessage }
			if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &found); err != nil || len(found.Tools) != 1 {
				t.Fatalf("%s: search answered %v, %v", rev, res.Content, err)
			}
			if got := string(found.Tools[0]["name"]); got != `"reboot_instance"` || found.Tools[0]["inputSchema"] == nil || found.Tools[0]["_meta"] != nil {
				t.Errorf("%s: search found %v, want reboot_instance's descriptor without groups", rev, found.Tools[0])
			}
			for _, call := range []*mcp.CallToolParams{
				{Name: "call_tool", Arguments: map[string]any{"name": "refund_charge", "arguments": map[string]any{"id": "c1"}}},
				{Name: "refund_charge", Arguments: map[string]any{"id": "c1"}},
			} {
				res, err := cs.CallTool(ctx, call)
				if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != `refund_charge {"id":"c1"}` {
					t.Errorf("%s: %s: %v %+v", rev, call.Name, err, res)
				}
			}
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "call_tool", Arguments: map[string]any{"name": "nope"}})
			if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `unknown tool "nope"`) {
				t.Errorf("%s: call_tool of an unknown tool: %v %+v", rev, err, res)
			}
		}
	})
}
