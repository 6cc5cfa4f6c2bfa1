package mcptest_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
	"github.com/mcpgen/mcpgen/runtime/mcptest"
)

// catalogTools are a few tools of two areas, some in groups.
func catalogTools() []mcprt.Tool {
	mk := func(name, desc string, groups ...string) mcprt.Tool {
		t := tool(name, func(ctx context.Context, args []byte) mcprt.Result {
			return mcprt.TextResult(name + " " + string(args))
		})
		t.Description, t.Groups = desc, groups
		t.InputSchema = []byte(`{"type":"object","properties":{"id":{"type":"string","description":"ID of the thing"}}}`)
		return t
	}
	refund := mk("refund_charge", "Gives money back to the customer for a charge.", "payments")
	refund.Pin = true
	return []mcprt.Tool{
		mk("create_invoice", "Creates an invoice for a customer.", "payments", "billing"),
		refund,
		mk("reboot_instance", "Restarts a virtual machine.", "compute"),
		mk("list_instances", "Lists the virtual machines of a project."),
	}
}

func names(tools []mcptest.Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return out
}

func TestToolSearchListsTwoAndPinned(t *testing.T) {
	t.Parallel()
	for _, rev := range mcptest.Revisions() {
		c := mcptest.New(t, mcptest.Tools(catalogTools()...), mcptest.Revision(rev),
			mcptest.ToolSearch(mcpserver.ToolSearch{Pin: []string{"list_instances", "no_such_tool"}}))
		got := names(c.ListTools())
		want := []string{"search_tools", "call_tool", "refund_charge", "list_instances"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: tools/list in search mode (-want +got):\n%s", rev, diff)
		}
	}
}

func TestToolSearchFinds(t *testing.T) {
	t.Parallel()
	c := mcptest.New(t, mcptest.Tools(catalogTools()...), mcptest.ToolSearch(mcpserver.ToolSearch{}))
	found := c.SearchTools("restart the VM", 2)
	if len(found) == 0 || found[0].Name != "reboot_instance" {
		t.Fatalf("search for restarting a VM found %v, want reboot_instance first", names(found))
	}
	if len(found) > 2 {
		t.Errorf("limit 2 returned %d tools", len(found))
	}
	// The descriptor is the full one, as tools/list writes it.
	if !strings.Contains(string(found[0].InputSchema), `"id"`) || found[0].Description != "Restarts a virtual machine." {
		t.Errorf("search result is not the full descriptor: %s", found[0].Raw)
	}
	if got := c.SearchTools("quantum chromodynamics", 0); len(got) != 0 {
		t.Errorf("a query sharing no word found %v", names(got))
	}
}

func TestToolSearchCalls(t *testing.T) {
	t.Parallel()
	c := mcptest.New(t, mcptest.Tools(catalogTools()...), mcptest.ToolSearch(mcpserver.ToolSearch{}))
	// By name, though it is not listed.
	if r := c.CallTool("reboot_instance", map[string]any{"id": "i-1"}); r.IsError || r.Text() != `reboot_instance {"id":"i-1"}` {
		t.Errorf("call by name: %s", r.Raw)
	}
	// Through call_tool.
	if r := c.CallTool("call_tool", map[string]any{"name": "reboot_instance", "arguments": map[string]any{"id": "i-2"}}); r.IsError || r.Text() != `reboot_instance {"id":"i-2"}` {
		t.Errorf("call_tool: %s", r.Raw)
	}
	if r := c.CallTool("call_tool", map[string]any{"name": "reboot_instance"}); r.IsError || r.Text() != `reboot_instance ` {
		t.Errorf("call_tool without arguments: %s", r.Raw)
	}
	for _, tc := range []struct {
		name string
		args any
		want string
	}{
		{"call_tool", map[string]any{"name": "nope"}, `unknown tool "nope"; search_tools finds the tools of this server`},
		{"call_tool", map[string]any{"name": "call_tool"}, "invalid arguments: name: call_tool calls the server's tools, not call_tool"},
		{"call_tool", map[string]any{"arguments": map[string]any{}}, "invalid arguments: name: want the name of a tool, a string"},
		{"call_tool", map[string]any{"name": "list_instances", "arguments": []int{1}}, "invalid arguments: arguments: want an object"},
		{"search_tools", map[string]any{}, "invalid arguments: query is required: say in words what the tool should do"},
		{"search_tools", map[string]any{"query": "x", "limit": 51}, "invalid arguments: limit: want an integer from 1 to 50, got 51"},
		{"search_tools", map[string]any{"query": "x", "limit": 1.5}, "invalid arguments: limit: want an integer from 1 to 50, got 1.5"},
	} {
		r := c.CallTool(tc.name, tc.args)
		if !r.IsError || r.Text() != tc.want {
			t.Errorf("%s %v: got %s, want the error %q", tc.name, tc.args, r.Raw, tc.want)
		}
	}
}

// TestToolSearchOff checks that without ToolSearch the two tools do not
// exist.
func TestToolSearchOff(t *testing.T) {
	t.Parallel()
	c := mcptest.New(t, mcptest.Tools(catalogTools()...))
	if got := names(c.ListTools()); slices.Contains(got, "search_tools") || len(got) != 4 {
		t.Errorf("tools/list without search mode: %v", got)
	}
	if _, err := c.Request("tools/call", map[string]any{"name": "search_tools", "arguments": map[string]any{"query": "x"}}); err == nil {
		t.Error("search_tools answered without search mode")
	}
}

func TestToolSearchGeneratedIndex(t *testing.T) {
	t.Parallel()
	tools := catalogTools()
	// An index of the tools but the last, as a package would generate it
	// for the tools it declares: list_instances is not searched.
	ix := mcprt.NewSearchIndex(tools[:3]...)
	c := mcptest.New(t, mcptest.Tools(tools...), mcptest.ToolSearch(mcpserver.ToolSearch{Index: ix}))
	if got := names(c.SearchTools("virtual machines project", 5)); !slices.Equal(got, []string{"reboot_instance"}) {
		t.Errorf("search with the given index found %v, want only reboot_instance", got)
	}
}

func TestGroups(t *testing.T) {
	t.Parallel()
	groups := []mcprt.Group{
		{Name: "payments"}, {Name: "compute", Title: "Compute", Description: "Virtual machines"},
		{Name: "payments", Title: "Payments", Description: "Money in and out"}, {Name: "billing", Groups: []string{"payments"}},
	}
	prompt := mcprt.Prompt{Name: "summarize", Description: "s", Groups: []string{"billing"},
		Get: func(context.Context, map[string]string) (mcprt.PromptResult, error) { return mcprt.PromptResult{}, nil }}
	res := mcprt.Resource{URI: "kb://x", Name: "x", Groups: []string{"compute"},
		Read: func(context.Context, string) ([]mcprt.ResourceContents, error) { return nil, nil }}
	for _, rev := range mcptest.Revisions() {
		c := mcptest.New(t, mcptest.Tools(catalogTools()...), mcptest.Prompts(prompt), mcptest.Resources(res),
			mcptest.Groups(groups...), mcptest.Revision(rev))
		withMeta := rev >= "2025-06-18"
		got := c.ListGroups()
		want := []mcprt.Group{{Name: "payments", Title: "Payments", Description: "Money in and out"},
			{Name: "compute", Title: "Compute", Description: "Virtual machines"}, {Name: "billing", Groups: []string{"payments"}}}
		if !withMeta {
			want[0].Title, want[1].Title, want[2].Groups = "", "", nil
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: groups/list (-want +got):\n%s", rev, diff)
		}
		tools := c.ListTools()
		var wantGroups [][]string
		if withMeta {
			wantGroups = [][]string{{"payments", "billing"}, {"payments"}, {"compute"}, nil}
		} else {
			wantGroups = [][]string{nil, nil, nil, nil}
		}
		var gotGroups [][]string
		for _, tl := range tools {
			gotGroups = append(gotGroups, tl.Groups)
		}
		if diff := cmp.Diff(wantGroups, gotGroups); diff != "" {
			t.Errorf("%s: tools' groups (-want +got):\n%s", rev, diff)
		}
		for _, m := range []struct{ method, member, want string }{{"prompts/list", "prompts", `["billing"]`}, {"resources/list", "resources", `["compute"]`}} {
			raw, err := c.Request(m.method, nil)
			if err != nil {
				t.Fatal(err)
			}
			if has := strings.Contains(string(raw), `"io.modelcontextprotocol/groups":`+m.want); has != withMeta {
				t.Errorf("%s: %s carries groups %v, want %v: %s", rev, m.method, has, withMeta, raw)
			}
		}
		if caps := capabilities(t, c); !strings.Contains(caps, `"groups":{}`) {
			t.Errorf("%s: capabilities without groups: %s", rev, caps)
		}
	}
}

func TestGroupsOff(t *testing.T) {
	t.Parallel()
	c := mcptest.New(t, mcptest.Tools(catalogTools()...))
	for _, tl := range c.ListTools() {
		if tl.Groups != nil || strings.Contains(string(tl.Raw), "groups") {
			t.Errorf("tool %s lists groups on a server without Groups: %s", tl.Name, tl.Raw)
		}
	}
	if _, err := c.Request("groups/list", nil); err == nil {
		t.Error("groups/list answered on a server without Groups")
	}
	if caps := capabilities(t, c); strings.Contains(caps, "groups") {
		t.Errorf("capabilities declare groups: %s", caps)
	}
}

// TestGroupsInSearch checks that search mode lists and finds tools with
// their groups when the server serves groups.
func TestGroupsInSearch(t *testing.T) {
	t.Parallel()
	c := mcptest.New(t, mcptest.Tools(catalogTools()...), mcptest.Groups(mcprt.Group{Name: "payments"}),
		mcptest.ToolSearch(mcpserver.ToolSearch{}))
	listed := c.ListTools()
	if len(listed) != 3 || !slices.Equal(listed[2].Groups, []string{"payments"}) {
		t.Errorf("pinned refund_charge without its groups: %v", listed)
	}
	found := c.SearchTools("invoice", 1)
	if len(found) != 1 || !slices.Equal(found[0].Groups, []string{"payments", "billing"}) {
		t.Errorf("search found %v without groups", found)
	}
}

// capabilities returns the server's capabilities as the client's
// revision publishes them, asked on a connection of its own.
func capabilities(t *testing.T, c *mcptest.Client) string {
	t.Helper()
	conn := c.Server().Connect(t.Context(), func([]byte) error { return nil })
	defer conn.Close()
	msg := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + c.Revision() + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	if c.Revision() >= "2026-07-28" {
		msg = `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"` + c.Revision() + `","io.modelcontextprotocol/clientCapabilities":{}}}}`
	}
	var r struct {
		Result struct {
			Capabilities json.RawMessage `json:"capabilities"`
		} `json:"result"`
	}
	out := conn.Handle(t.Context(), []byte(msg))
	if err := json.Unmarshal(out, &r); err != nil || r.Result.Capabilities == nil {
		t.Fatalf("%s answered %s", msg, out)
	}
	return string(r.Result.Capabilities)
}
