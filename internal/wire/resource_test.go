package wire

import (
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

func sampleResource(uri string) mcprt.Resource {
	p := 0.8
	return mcprt.Resource{
		URI:         uri,
		Name:        "readme",
		Title:       "Read me",
		Description: "The project's README.",
		MIMEType:    "text/markdown",
		Size:        1234,
		Annotations: &mcprt.Annotations{Audience: []string{"user", "assistant"}, Priority: &p, LastModified: "2026-01-02T15:04:05Z"},
		Icons:       []mcprt.Icon{{Src: "https://example.com/d.png", MIMEType: "image/png"}},
	}
}

func TestAppendResourcePerRevision(t *testing.T) {
	t.Parallel()
	r := sampleResource("file:///README.md")
	const ann = `,"annotations":{"audience":["user","assistant"],"priority":0.8`
	const icons = `,"icons":[{"src":"https://example.com/d.png","mimeType":"image/png"}]`
	tests := []struct {
		rev  Revision
		want string
	}{
		{Rev20241105, `{"uri":"file:///README.md","name":"readme","description":"The project's README.","mimeType":"text/markdown","size":1234}`},
		{Rev20250326, `{"uri":"file:///README.md","name":"readme","description":"The project's README.","mimeType":"text/markdown"` + ann + `},"size":1234}`},
		{Rev20250618, `{"uri":"file:///README.md","name":"readme","title":"Read me","description":"The project's README.","mimeType":"text/markdown"` + ann + `,"lastModified":"2026-01-02T15:04:05Z"},"size":1234}`},
		{Rev20251125, `{"uri":"file:///README.md","name":"readme","title":"Read me","description":"The project's README.","mimeType":"text/markdown"` + ann + `,"lastModified":"2026-01-02T15:04:05Z"},"size":1234` + icons + `}`},
		{Rev20260728, `{"uri":"file:///README.md","name":"readme","title":"Read me","description":"The project's README.","mimeType":"text/markdown"` + ann + `,"lastModified":"2026-01-02T15:04:05Z"},"size":1234` + icons + `}`},
	}
	for _, tt := range tests {
		got := string(AppendResource(nil, &r, tt.rev))
		if got != tt.want {
			t.Errorf("AppendResource(%s):\n got %s\nwant %s", tt.rev, got, tt.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("AppendResource(%s) is not JSON: %s", tt.rev, got)
		}
	}
	bare := mcprt.Resource{URI: "x://a", Name: "a"}
	if got := string(AppendResource(nil, &bare, Rev20251125)); got != `{"uri":"x://a","name":"a"}` {
		t.Errorf("bare resource: %s", got)
	}
}

func TestAppendResourceTemplatePerRevision(t *testing.T) {
	t.Parallel()
	r := sampleResource("kb://articles/{id}")
	tests := []struct {
		rev  Revision
		want string
	}{
		{Rev20241105, `{"uriTemplate":"kb://articles/{id}","name":"readme","description":"The project's README.","mimeType":"text/markdown"}`},
		{Rev20250326, `{"uriTemplate":"kb://articles/{id}","name":"readme","description":"The project's README.","mimeType":"text/markdown","annotations":{"audience":["user","assistant"],"priority":0.8}}`},
		{Rev20250618, `{"uriTemplate":"kb://articles/{id}","name":"readme","title":"Read me","description":"The project's README.","mimeType":"text/markdown","annotations":{"audience":["user","assistant"],"priority":0.8,"lastModified":"2026-01-02T15:04:05Z"}}`},
		{Rev20251125, `{"uriTemplate":"kb://articles/{id}","name":"readme","title":"Read me","description":"The project's README.","mimeType":"text/markdown","annotations":{"audience":["user","assistant"],"priority":0.8,"lastModified":"2026-01-02T15:04:05Z"},"icons":[{"src":"https://example.com/d.png","mimeType":"image/png"}]}`},
	}
	for _, tt := range tests {
		if got := string(AppendResourceTemplate(nil, &r, tt.rev)); got != tt.want {
			t.Errorf("AppendResourceTemplate(%s):\n got %s\nwant %s", tt.rev, got, tt.want)
		}
	}
}

// TestAnnotationsLastModifiedOnly checks that annotations holding only a
// lastModified are left out where the revision lacks lastModified, not
// written as an empty object.
func TestAnnotationsLastModifiedOnly(t *testing.T) {
	t.Parallel()
	r := mcprt.Resource{URI: "x://a", Name: "a", Annotations: &mcprt.Annotations{LastModified: "2026-01-02T15:04:05Z"}}
	if got := string(AppendResource(nil, &r, Rev20250326)); got != `{"uri":"x://a","name":"a"}` {
		t.Errorf("2025-03-26: %s", got)
	}
	if got := string(AppendResource(nil, &r, Rev20250618)); got != `{"uri":"x://a","name":"a","annotations":{"lastModified":"2026-01-02T15:04:05Z"}}` {
		t.Errorf("2025-06-18: %s", got)
	}
}

func TestAppendResourceContents(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		c    mcprt.ResourceContents
		rev  Revision
		want string
	}{
		{"text, defaults", mcprt.ResourceContents{Text: "hi <there>"}, Rev20250618,
			`{"uri":"x://read","mimeType":"text/plain","text":"hi \u003cthere\u003e"}`},
		{"own uri and type", mcprt.ResourceContents{URI: "x://part", MIMEType: "application/json", Text: `{"a":1}`}, Rev20250618,
			`{"uri":"x://part","mimeType":"application/json","text":"{\"a\":1}"}`},
		{"blob", mcprt.ResourceContents{Blob: []byte{0x89, 'P', 'N', 'G'}}, Rev20241105,
			`{"uri":"x://read","mimeType":"text/plain","blob":"iVBORw=="}`},
		{"empty blob is a blob", mcprt.ResourceContents{Blob: []byte{}}, Rev20241105,
			`{"uri":"x://read","mimeType":"text/plain","blob":""}`},
		{"meta from 2025-06-18", mcprt.ResourceContents{Text: "t", Meta: []byte(`{"k":1}`)}, Rev20250618,
			`{"uri":"x://read","mimeType":"text/plain","text":"t","_meta":{"k":1}}`},
		{"no meta before", mcprt.ResourceContents{Text: "t", Meta: []byte(`{"k":1}`)}, Rev20250326,
			`{"uri":"x://read","mimeType":"text/plain","text":"t"}`},
	}
	for _, tt := range tests {
		if got := string(AppendResourceContents(nil, &tt.c, "x://read", "text/plain", tt.rev)); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
	if got := string(AppendResourceContents(nil, &mcprt.ResourceContents{Text: "t"}, "x://read", "", Rev20250618)); got != `{"uri":"x://read","text":"t"}` {
		t.Errorf("no MIME type anywhere: %s", got)
	}
}

func TestIsTemplate(t *testing.T) {
	t.Parallel()
	for uri, want := range map[string]bool{"kb://a/{id}": true, "kb://files/{+path}": true, "kb://a/b": false, "": false} {
		if IsTemplate(uri) != want {
			t.Errorf("IsTemplate(%q) = %v", uri, !want)
		}
	}
}
