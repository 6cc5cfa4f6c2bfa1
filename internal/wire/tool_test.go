package wire

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

func sampleTool() mcprt.Tool {
	return mcprt.Tool{
		Name:         "bulk_price_update",
		Title:        "Bulk <price> update",
		Description:  "Applies a price change.",
		InputSchema:  []byte(`{"type":"object"}`),
		OutputSchema: []byte(`{"type":"object","properties":{"n":{"type":"integer"}}}`),
		Hints:        mcprt.Hints{Destructive: new(true), OpenWorld: new(false)},
		Icons:        []mcprt.Icon{{Src: "https://example.com/i.png", MIMEType: "image/png", Sizes: []string{"48x48"}, Theme: "dark"}},
		TaskSupport:  mcprt.TaskOptional,
	}
}

func TestAppendToolPerRevision(t *testing.T) {
	t.Parallel()
	tool := sampleTool()
	tests := []struct {
		rev  Revision
		want string
	}{
		{Rev20241105, `{"name":"bulk_price_update","description":"Applies a price change.","inputSchema":{"type":"object"}}`},
		{Rev20250326, `{"name":"bulk_price_update","description":"Applies a price change.","inputSchema":{"type":"object"},"annotations":{"title":"Bulk \u003cprice\u003e update","destructiveHint":true,"openWorldHint":false}}`},
		{Rev20250618, `{"name":"bulk_price_update","title":"Bulk \u003cprice\u003e update","description":"Applies a price change.","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"n":{"type":"integer"}}},"annotations":{"title":"Bulk \u003cprice\u003e update","destructiveHint":true,"openWorldHint":false}}`},
		{Rev20251125, `{"name":"bulk_price_update","title":"Bulk \u003cprice\u003e update","description":"Applies a price change.","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"n":{"type":"integer"}}},"annotations":{"title":"Bulk \u003cprice\u003e update","destructiveHint":true,"openWorldHint":false},"icons":[{"src":"https://example.com/i.png","mimeType":"image/png","sizes":["48x48"],"theme":"dark"}],"execution":{"taskSupport":"optional"}}`},
		{Rev20260728, `{"name":"bulk_price_update","title":"Bulk \u003cprice\u003e update","description":"Applies a price change.","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"n":{"type":"integer"}}},"annotations":{"title":"Bulk \u003cprice\u003e update","destructiveHint":true,"openWorldHint":false},"icons":[{"src":"https://example.com/i.png","mimeType":"image/png","sizes":["48x48"],"theme":"dark"}]}`},
	}
	for _, tt := range tests {
		got := string(AppendTool(nil, &tool, tt.rev))
		if got != tt.want {
			t.Errorf("AppendTool(%s):\n got %s\nwant %s", tt.rev, got, tt.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("AppendTool(%s) is not valid JSON: %s", tt.rev, got)
		}
	}
}

func TestAnnotationsOnlyWhenTitleOrHint(t *testing.T) {
	t.Parallel()
	tool := mcprt.Tool{Name: "x", InputSchema: []byte(`{"type":"object"}`)}
	if got := string(AppendTool(nil, &tool, Rev20251125)); strings.Contains(got, "annotations") {
		t.Errorf("descriptor without title or hints has annotations: %s", got)
	}
	tool.Hints.ReadOnly = new(false)
	if got := string(AppendTool(nil, &tool, Rev20251125)); !strings.Contains(got, `"annotations":{"readOnlyHint":false}`) {
		t.Errorf("an explicit false hint is not published: %s", got)
	}
}

func TestCallRecoversPanic(t *testing.T) {
	t.Parallel()
	tool := mcprt.Tool{Name: "boom", Handler: func(context.Context, []byte) mcprt.Result { panic("kaboom") }}
	log, logs := testLog()
	res, panicked := CallToolChecked(context.Background(), log, &tool, nil)
	if !res.IsError || len(res.Content) != 1 || !strings.Contains(res.Content[0].Text, "kaboom") || panicked != "kaboom" {
		t.Fatalf("Call of a panicking handler = %+v, %v; want an isError result naming the panic", res, panicked)
	}
	if !strings.Contains(logs.String(), `msg="mcp tool panicked" tool=boom panic=kaboom`) {
		t.Errorf("the panic was not logged to the logger given:\n%s", logs)
	}
}

func TestResultAppendJSONPerRevision(t *testing.T) {
	t.Parallel()
	r := mcprt.Result{
		Content: []mcprt.Content{
			mcprt.Text("hi"),
			mcprt.Audio([]byte{1, 2}, "audio/wav"),
			mcprt.ResourceLink("file:///a.txt", "a.txt"),
			mcprt.TextResource("file:///b.txt", "text/plain", "B"),
			mcprt.Image([]byte{0xff}, "image/png"),
		},
		StructuredContent: []byte(`{"n":1}`),
		IsError:           true,
	}
	tests := []struct {
		rev  Revision
		want string
	}{
		{Rev20241105, `{"content":[{"type":"text","text":"hi"},{"type":"text","text":"[audio content of type audio/wav, 2 bytes, is not supported by protocol revision 2024-11-05]"},{"type":"text","text":"resource: file:///a.txt"},{"type":"resource","resource":{"uri":"file:///b.txt","mimeType":"text/plain","text":"B"}},{"type":"image","data":"/w==","mimeType":"image/png"}],"isError":true}`},
		{Rev20250618, `{"content":[{"type":"text","text":"hi"},{"type":"audio","data":"AQI=","mimeType":"audio/wav"},{"type":"resource_link","uri":"file:///a.txt","name":"a.txt"},{"type":"resource","resource":{"uri":"file:///b.txt","mimeType":"text/plain","text":"B"}},{"type":"image","data":"/w==","mimeType":"image/png"}],"structuredContent":{"n":1},"isError":true}`},
	}
	for _, tt := range tests {
		if got := string(AppendResult(nil, &r, tt.rev)); got != tt.want {
			t.Errorf("AppendJSON(%s):\n got %s\nwant %s", tt.rev, got, tt.want)
		}
	}
}

func TestContentAnnotationsAndMeta(t *testing.T) {
	t.Parallel()
	p := 0.5
	r := mcprt.Result{
		Content: []mcprt.Content{mcprt.Text("hi").With(mcprt.Annotations{Audience: []string{"user"}, Priority: &p, LastModified: "2026-01-02T15:04:05Z"})},
		Meta:    []byte(`{"k":1}`),
	}
	tests := []struct {
		rev  Revision
		want string
	}{
		{Rev20241105, `{"content":[{"type":"text","text":"hi"}],"_meta":{"k":1}}`},
		{Rev20250326, `{"content":[{"type":"text","text":"hi","annotations":{"audience":["user"],"priority":0.5}}],"_meta":{"k":1}}`},
		{Rev20250618, `{"content":[{"type":"text","text":"hi","annotations":{"audience":["user"],"priority":0.5,"lastModified":"2026-01-02T15:04:05Z"}}],"_meta":{"k":1}}`},
	}
	for _, tt := range tests {
		if got := string(AppendResult(nil, &r, tt.rev)); got != tt.want {
			t.Errorf("AppendJSON(%s):\n got %s\nwant %s", tt.rev, got, tt.want)
		}
	}
}

func TestWrappedOutputPerRevision(t *testing.T) {
	t.Parallel()
	tool := mcprt.Tool{Name: "list", InputSchema: []byte(`{"type":"object"}`), OutputSchema: []byte(`{"type":"array","items":{"type":"integer"}}`), WrapOutput: true}
	res := mcprt.Result{Content: []mcprt.Content{mcprt.Text("[1,2]")}, StructuredContent: []byte(`[1,2]`), WrapStructured: true}
	tests := []struct {
		rev              Revision
		schema, response string
	}{
		{Rev20250326, ``, `{"content":[{"type":"text","text":"[1,2]"}]}`},
		{Rev20250618, `{"type":"object","properties":{"result":{"type":"array","items":{"type":"integer"}}},"required":["result"]}`, `{"content":[{"type":"text","text":"[1,2]"}],"structuredContent":{"result":[1,2]}}`},
		{Rev20251125, `{"type":"object","properties":{"result":{"type":"array","items":{"type":"integer"}}},"required":["result"]}`, `{"content":[{"type":"text","text":"[1,2]"}],"structuredContent":{"result":[1,2]}}`},
		{Rev20260728, `{"type":"array","items":{"type":"integer"}}`, `{"content":[{"type":"text","text":"[1,2]"}],"structuredContent":[1,2]}`},
	}
	for _, tt := range tests {
		desc := string(AppendTool(nil, &tool, tt.rev))
		if want := `"outputSchema":` + tt.schema; tt.schema != "" && !strings.Contains(desc, want) || tt.schema == "" && strings.Contains(desc, "outputSchema") {
			t.Errorf("descriptor for %s: %s, want output schema %s", tt.rev, desc, tt.schema)
		}
		if got := string(AppendResult(nil, &res, tt.rev)); got != tt.response {
			t.Errorf("result for %s:\n got %s\nwant %s", tt.rev, got, tt.response)
		}
	}
}

func TestCallRefusesOversizedArguments(t *testing.T) {
	t.Parallel()
	called := false
	tool := mcprt.Tool{Name: "t", Handler: func(context.Context, []byte) mcprt.Result {
		called = true
		return mcprt.TextResult("ok")
	}}
	ctx := jsonx.WithLimits(context.Background(), jsonx.Limits{MaxArgumentBytes: 10})
	res := CallTool(ctx, &tool, []byte(`{"name":"0123456789"}`))
	want := "invalid arguments:\narguments are 21 bytes, more than the limit of 10 bytes (MaxArgumentBytes)"
	if called || !res.IsError || res.Content[0].Text != want {
		t.Errorf("oversized call: handler called %v, result %+v; want %q", called, res, want)
	}
	if res := CallTool(ctx, &tool, []byte(`{"a":1}`)); res.IsError || !called {
		t.Errorf("call within the limit: %+v", res)
	}
}

func TestDescriptorsPerRevision(t *testing.T) {
	t.Parallel()
	tool := sampleTool()
	d := NewDescriptors(&tool, AppendTool, 0)
	for _, rev := range Revisions {
		if got, want := string(d.For(rev)), string(AppendTool(nil, &tool, rev)); got != want {
			t.Errorf("For(%s):\n got %s\nwant %s", rev, got, want)
		}
	}
	if got, want := string(d.For("1999-01-01")), string(AppendTool(nil, &tool, LatestRevision)); got != want {
		t.Errorf("For an unsupported revision:\n got %s\nwant the latest %s", got, want)
	}
}

func TestToolInMatchesAppendTool(t *testing.T) {
	t.Parallel()
	tool := sampleTool()
	tool.WrapOutput = true
	for _, rev := range Revisions {
		v := ToolIn(&tool, rev)
		got := string(AppendTool(nil, &tool, rev))
		if (v.Annotations != nil) != strings.Contains(got, `"annotations"`) || (v.OutputSchema != nil) != strings.Contains(got, `"outputSchema":`+string(v.OutputSchema)) ||
			(v.TaskSupport != "") != strings.Contains(got, `"execution"`) || (len(v.Icons) > 0) != strings.Contains(got, `"icons"`) || (v.Title != "") != strings.HasPrefix(got, `{"name":"bulk_price_update","title"`) {
			t.Errorf("%s: view %+v disagrees with the descriptor %s", rev, v, got)
		}
	}
}
