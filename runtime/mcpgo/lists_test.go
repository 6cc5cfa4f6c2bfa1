package mcpgo

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// sampleTools are tools with everything a descriptor may hold: a title
// and hints, a list result (its output schema wrapped before 2026-07-28),
// icons and task support; and one with neither title nor hints.
func sampleTools() []mcprt.Tool {
	return []mcprt.Tool{
		{Name: "b_full", Title: "Full", Description: "Has everything.",
			InputSchema:  []byte(`{"type":"object","properties":{"n":{"type":["integer","null"]}},"additionalProperties":false}`),
			OutputSchema: []byte(`{"type":"array","items":{"type":"integer"}}`), WrapOutput: true,
			Hints: mcprt.Hints{ReadOnly: new(true), OpenWorld: new(false)},
			Icons: []mcprt.Icon{{Src: "https://example.com/f.png", MIMEType: "image/png", Sizes: []string{"48x48"}}}, TaskSupport: mcprt.TaskOptional,
			Handler: func(context.Context, []byte) mcprt.Result {
				return mcprt.Result{Content: []mcprt.Content{mcprt.Text("[1,2]")}, StructuredContent: []byte(`[1,2]`), WrapStructured: true}
			}},
		{Name: "a_bare", Description: "Has no title and no hints.", InputSchema: []byte(`{"type":"object"}`),
			Handler: func(context.Context, []byte) mcprt.Result {
				return mcprt.Result{Content: []mcprt.Content{mcprt.Text("bare")}}
			}},
	}
}

// TestListsPerRevision lists tools, prompts, resources and templates on
// every revision and compares them with what the built-in server's
// writers produce for that revision, but for the annotations member
// mcp-go always writes (see TestDifferences): a 2024-11-05 client sees no
// annotations, a 2025-03-26 client no title or output schema, icons come
// with 2025-11-25 and execution with it alone (the server enables tasks,
// without which no task support is published). The structured result of a
// call is wrapped as the output schema listed to the same client.
func TestListsPerRevision(t *testing.T) {
	s := NewServer(mcprt.Identity{Name: "t", Version: "1", EnableTasks: true}, sampleTools()...)
	AddPrompts(s, kinds)
	rs := fixtures()
	AddResources(s, rs[0], dataTemplate)
	tools := sampleTools()
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
			sameJSON(t, "tools/list", withoutEmptyAnnotations(t, call(t, s, string(rev), "tools/list", `{}`)), `{"tools":[`+string(want)+`]}`, statelessMembers...)
			sameJSON(t, "prompts/list", call(t, s, string(rev), "prompts/list", `{}`), `{"prompts":[`+string(wire.AppendPrompt(nil, &kinds, rev))+`]}`, statelessMembers...)
			sameJSON(t, "resources/list", call(t, s, string(rev), "resources/list", `{}`), `{"resources":[`+list(rs[:1], wire.AppendResource, rev)+`]}`, statelessMembers...)
			sameJSON(t, "resources/templates/list", call(t, s, string(rev), "resources/templates/list", `{}`), `{"resourceTemplates":[`+list([]mcprt.Resource{dataTemplate}, wire.AppendResourceTemplate, rev)+`]}`, statelessMembers...)
			res := mcprt.Result{Content: []mcprt.Content{mcprt.Text("[1,2]")}, StructuredContent: []byte(`[1,2]`), WrapStructured: true}
			sameJSON(t, "tools/call", call(t, s, string(rev), "tools/call", `{"name":"b_full","arguments":{}}`), string(wire.AppendResult(nil, &res, rev)), statelessMembers...)
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
