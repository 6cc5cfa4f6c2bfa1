package mcpgo

import (
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/internal/fixture"
	"github.com/mcpgen/mcpgen/internal/servertest"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestListsPerRevision lists tools, prompts, resources and templates on
// every revision and compares them with what the built-in server's
// writers produce for that revision, but for the annotations member
// mcp-go always writes (see TestDifferences): a 2024-11-05 client sees no
// annotations, a 2025-03-26 client no title or output schema, icons come
// with 2025-11-25 and execution with it alone (the server enables tasks,
// without which no task support is published). The structured result of a
// call is wrapped as the output schema listed to the same client.
func TestListsPerRevision(t *testing.T) {
	t.Parallel()
	s := NewServer(mcprt.Identity{Name: "t", Version: "1", EnableTasks: true}, fixture.SampleTools()...)
	AddPrompts(s, fixture.Kinds)
	rs := fixture.Resources()
	AddResources(s, rs[0], fixture.DataTemplate)
	tools := fixture.SampleTools()
	sorted := []mcprt.Tool{tools[1], tools[0]} // mcp-go lists by name
	for _, rev := range wire.Revisions {
		t.Run(string(rev), func(t *testing.T) {
			var want []byte
			for i := range sorted {
				if i > 0 {
					want = append(want, ',')
				}
				want = wire.AppendTool(want, &sorted[i], rev)
			}
			servertest.SameJSON(t, "tools/list", withoutEmptyAnnotations(t, call(t, s, string(rev), "tools/list", `{}`)), `{"tools":[`+string(want)+`]}`, statelessMembers...)
			servertest.SameJSON(t, "prompts/list", call(t, s, string(rev), "prompts/list", `{}`), `{"prompts":[`+string(wire.AppendPrompt(nil, &fixture.Kinds, rev))+`]}`, statelessMembers...)
			servertest.SameJSON(t, "resources/list", call(t, s, string(rev), "resources/list", `{}`), `{"resources":[`+fixture.Join(rs[:1], wire.AppendResource, rev)+`]}`, statelessMembers...)
			servertest.SameJSON(t, "resources/templates/list", call(t, s, string(rev), "resources/templates/list", `{}`), `{"resourceTemplates":[`+fixture.Join([]mcprt.Resource{fixture.DataTemplate}, wire.AppendResourceTemplate, rev)+`]}`, statelessMembers...)
			res := mcprt.Result{Content: []mcprt.Content{mcprt.Text("[1,2]")}, StructuredContent: []byte(`[1,2]`), WrapStructured: true}
			servertest.SameJSON(t, "tools/call", call(t, s, string(rev), "tools/call", `{"name":"b_full","arguments":{}}`), string(wire.AppendResult(nil, &res, rev)), statelessMembers...)
		})
	}
}

// withoutEmptyAnnotations removes the annotations members that are {}
// from a tools/list result.
func withoutEmptyAnnotations(t *testing.T, got string) string {
	t.Helper()
	var r map[string]any
	if err := json.Unmarshal([]byte(got), &r); err != nil {
		t.Fatalf("%v: %s", err, got)
	}
	for _, tool := range r["tools"].([]any) {
		m := tool.(map[string]any)
		if a, ok := m["annotations"].(map[string]any); ok && len(a) == 0 {
			delete(m, "annotations")
		}
	}
	js, _ := json.Marshal(r)
	return string(js)
}
