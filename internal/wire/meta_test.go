package wire

import (
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestMeta: Meta is published as it is, or with the ui of UI in place of
// its own; contents keep a ui of their own; a Meta that is no object is
// not published.
func TestMeta(t *testing.T) {
	t.Parallel()
	ui := &mcprt.ToolUI{ResourceURI: "ui://a", Visibility: []string{"app"}}
	page := &mcprt.ResourceUI{FrameDomains: []string{"https://f"}, BaseURIDomains: []string{"https://b"}, Domain: "d", Permissions: []string{"camera", "microphone"}}
	for _, tc := range []struct {
		name, got, want string
	}{
		{"meta alone", string(ToolMeta(&mcprt.Tool{Meta: []byte(`{"traceparent":"00-1"}`)})), `{"traceparent":"00-1"}`},
		{"no meta", string(ToolMeta(&mcprt.Tool{})), ``},
		{"meta no object", string(ToolMeta(&mcprt.Tool{Meta: []byte(`[1]`)})), ``},
		{"ui replaces meta's ui", string(ToolMeta(&mcprt.Tool{UI: ui, Meta: []byte(`{"ui":{"x":1},"a":2}`)})), `{"a":2,"ui":{"resourceUri":"ui://a","visibility":["app"]}}`},
		{"ui and bad meta", string(ToolMeta(&mcprt.Tool{UI: ui, Meta: []byte(`nope`)})), `{"ui":{"resourceUri":"ui://a","visibility":["app"]}}`},
		{"resource ui", string(ResourceMeta(&mcprt.Resource{UI: page})), `{"ui":{"csp":{"frameDomains":["https://f"],"baseUriDomains":["https://b"]},"permissions":{"camera":{},"microphone":{}},"domain":"d"}}`},
		{"empty resource ui", string(AppendResourceUI(nil, &mcprt.ResourceUI{})), `{}`},
		{"contents own ui", string(ContentsMeta([]byte(`{"ui":{"prefersBorder":false}}`), &mcprt.Resource{UI: page})), `{"ui":{"prefersBorder":false}}`},
		{"contents get ui", string(ContentsMeta([]byte(`{"k":1}`), &mcprt.Resource{UI: &mcprt.ResourceUI{PrefersBorder: mcprt.Bool(true)}})), `{"k":1,"ui":{"prefersBorder":true}}`},
		{"contents without ui", string(ContentsMeta([]byte(`{"k":1}`), &mcprt.Resource{})), `{"k":1}`},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, tc.got, tc.want)
		}
	}
}

// TestParseSampled reads results of one block, of several, of tool uses
// only, and refuses what is malformed.
func TestParseSampled(t *testing.T) {
	t.Parallel()
	c, uses, err := ParseSampled([]byte(`{"type":"text","text":"hi"}`))
	if err != nil || c.Text != "hi" || uses != nil {
		t.Errorf("one block: %+v %+v %v", c, uses, err)
	}
	c, uses, err = ParseSampled([]byte(`[{"type":"tool_use","id":"1","name":"a","input":{}},{"type":"text","text":"x"},{"type":"text","text":"y"}]`))
	if err != nil || c.Text != "x" || len(uses) != 1 || uses[0].Name != "a" || string(uses[0].Input) != `{}` {
		t.Errorf("blocks: %+v %+v %v", c, uses, err)
	}
	for _, bad := range []string{`[]`, `[{"type":"tool_use","id":"1","name":"a","input":[1]}]`, `[{"type":"tool_use","name":"a","input":{}}]`, `[1]`, `{"type":""}`} {
		if _, _, err := ParseSampled([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestCheckSample refuses tools before 2025-11-25 and a message of tool
// results with anything else; it takes the same request on 2025-11-25.
func TestCheckSample(t *testing.T) {
	t.Parallel()
	results := mcprt.SampleMessage{Role: "user", ToolResults: []mcprt.ToolResult{{ToolUseID: "1"}}}
	req := mcprt.SampleRequest{Messages: []mcprt.SampleMessage{results}, Tools: []mcprt.SampleTool{{Name: "a"}}}
	if err := CheckSample(&req, Rev20251125); err != nil {
		t.Errorf("2025-11-25: %v", err)
	}
	if err := CheckSample(&req, Rev20250618); err == nil {
		t.Error("2025-06-18 took tools")
	}
	results.ToolUses = []mcprt.ToolUse{{ID: "2", Name: "a"}}
	req.Messages = []mcprt.SampleMessage{results}
	if err := CheckSample(&req, Rev20251125); err == nil {
		t.Error("tool results beside tool uses were taken")
	}
	if err := CheckSample(&mcprt.SampleRequest{Tools: []mcprt.SampleTool{{}}}, Rev20251125); err == nil {
		t.Error("a tool without a name was taken")
	}
}

func TestGroupsMeta(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, got, want string }{
		{"tool", string(ToolMeta(&mcprt.Tool{Groups: []string{"billing", "ops"}})), `{"io.modelcontextprotocol/groups":["billing","ops"]}`},
		{"tool with meta and ui", string(ToolMeta(&mcprt.Tool{Groups: []string{"b"}, Meta: []byte(`{"x":1}`), UI: &mcprt.ToolUI{ResourceURI: "ui://a"}})),
			`{"io.modelcontextprotocol/groups":["b"],"ui":{"resourceUri":"ui://a"},"x":1}`},
		{"own groups replaced", string(ToolMeta(&mcprt.Tool{Groups: []string{"b"}, Meta: []byte(`{"io.modelcontextprotocol/groups":["z"]}`)})), `{"io.modelcontextprotocol/groups":["b"]}`},
		{"no groups", string(ToolMeta(&mcprt.Tool{Meta: []byte(`{"x":1}`)})), `{"x":1}`},
		{"prompt", string(PromptMeta(&mcprt.Prompt{Groups: []string{"p"}})), `{"io.modelcontextprotocol/groups":["p"]}`},
		{"resource", string(ResourceMeta(&mcprt.Resource{Groups: []string{"r"}})), `{"io.modelcontextprotocol/groups":["r"]}`},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.name, tt.got, tt.want)
		}
	}
}
