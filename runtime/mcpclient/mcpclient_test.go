package mcpclient

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestAppendJSON writes back what go-sdk decodes into an any: the same
// JSON value, keys sorted, numbers as encoding/json writes them.
func TestAppendJSON(t *testing.T) {
	t.Parallel()
	in := `{"b":[1,2.5,-0.000001,1e21,true,null,"x\u2028<"],"a":{"z":{},"y":[]},"c":12345678901234}`
	var v any
	if err := json.Unmarshal([]byte(in), &v); err != nil {
		t.Fatal(err)
	}
	want := `{"a":{"y":[],"z":{}},"b":[1,2.5,-0.000001,1e+21,true,null,"x\u2028\u003c"],"c":12345678901234}`
	if got := string(AppendJSON(nil, v)); got != want {
		t.Errorf("AppendJSON = %s\nwant       %s", got, want)
	}
	var back any
	if err := json.Unmarshal(appendJSON(nil, v, false), &back); err != nil || !cmp.Equal(back, v) {
		t.Errorf("unsorted: %v, %v", back, err)
	}
	if got := string(AppendJSON(nil, math.NaN())); got != "null" {
		t.Errorf("NaN = %s, want null", got)
	}
	if got := string(AppendJSON(nil, struct{ A int }{1})); got != `{"A":1}` {
		t.Errorf("a struct = %s", got)
	}
}

// TestExpand expands template variables as RFC 6570 does.
func TestExpand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, segment, reserved string }{
		{"abc-._~09", "abc-._~09", "abc-._~09"},
		{"a/b c", "a%2Fb%20c", "a/b%20c"},
		{"50%", "50%25", "50%25"},
		{"%2F", "%252F", "%2F"},
		{"é?#", "%C3%A9%3F%23", "%C3%A9?#"},
	} {
		if got := Segment(tc.in); got != tc.segment {
			t.Errorf("Segment(%q) = %q, want %q", tc.in, got, tc.segment)
		}
		if got := Reserved(tc.in); got != tc.reserved {
			t.Errorf("Reserved(%q) = %q, want %q", tc.in, got, tc.reserved)
		}
	}
}

// TestContent converts each kind of go-sdk content block as mcptest
// reads it from the wire.
func TestContent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   mcp.Content
		want mcprt.Content
	}{
		{&mcp.TextContent{Text: "hi", Annotations: &mcp.Annotations{Audience: []mcp.Role{"user"}, Priority: 0.5}},
			mcprt.Content{Type: mcprt.TypeText, Text: "hi", Annotations: &mcprt.Annotations{Audience: []string{"user"}, Priority: new(0.5)}}},
		{&mcp.ImageContent{Data: []byte{1}, MIMEType: "image/png"}, mcprt.Content{Type: mcprt.TypeImage, Data: []byte{1}, MIMEType: "image/png"}},
		{&mcp.AudioContent{Data: []byte{2}, MIMEType: "audio/wav"}, mcprt.Content{Type: mcprt.TypeAudio, Data: []byte{2}, MIMEType: "audio/wav"}},
		{&mcp.ResourceLink{URI: "x://1", Name: "one", Description: "d"}, mcprt.Content{Type: mcprt.TypeResourceLink, URI: "x://1", Name: "one", Description: "d"}},
		{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "x://2", MIMEType: "text/plain", Text: "t"}},
			mcprt.Content{Type: mcprt.TypeResource, URI: "x://2", MIMEType: "text/plain", Text: "t"}},
	} {
		if diff := cmp.Diff(tc.want, Content(tc.in)); diff != "" {
			t.Errorf("Content(%T) (-want +got):\n%s", tc.in, diff)
		}
	}
}

// TestToolResultErrorText joins the text blocks of a failed result.
func TestToolResultErrorText(t *testing.T) {
	t.Parallel()
	e := &mcprt.ToolResultError{Tool: "t", Result: mcprt.Result{IsError: true, Content: []mcprt.Content{mcprt.Text("a"), mcprt.Image(nil, "image/png"), mcprt.Text("b")}}}
	if e.Text() != "a\nb" || e.Error() != "tool t: a\nb" {
		t.Errorf("Text %q, Error %q", e.Text(), e.Error())
	}
	if got := (&mcprt.ToolResultError{Tool: "t"}).Error(); got != "tool t failed" {
		t.Errorf("without text: %q", got)
	}
}
