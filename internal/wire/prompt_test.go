package wire

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

func samplePrompt() mcprt.Prompt {
	return mcprt.Prompt{
		Name:        "review",
		Title:       "Code <review>",
		Description: "Reviews code.",
		Arguments: []mcprt.PromptArgument{
			{Name: "code", Title: "Code", Description: "The code.", Required: true},
			{Name: "style"},
		},
		Icons: []mcprt.Icon{{Src: "https://example.com/r.png"}},
	}
}

func TestAppendPromptPerRevision(t *testing.T) {
	t.Parallel()
	p := samplePrompt()
	const old = `{"name":"review","description":"Reviews code.","arguments":[{"name":"code","description":"The code.","required":true},{"name":"style"}]}`
	const titled = `{"name":"review","title":"Code \u003creview\u003e","description":"Reviews code.","arguments":[{"name":"code","title":"Code","description":"The code.","required":true},{"name":"style"}]`
	tests := []struct {
		rev  Revision
		want string
	}{
		{Rev20241105, old},
		{Rev20250326, old},
		{Rev20250618, titled + `}`},
		{Rev20251125, titled + `,"icons":[{"src":"https://example.com/r.png"}]}`},
		{Rev20260728, titled + `,"icons":[{"src":"https://example.com/r.png"}]}`},
	}
	for _, tt := range tests {
		got := string(AppendPrompt(nil, &p, tt.rev))
		if got != tt.want {
			t.Errorf("AppendPrompt(%s):\n got %s\nwant %s", tt.rev, got, tt.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("AppendPrompt(%s) is not JSON: %s", tt.rev, got)
		}
	}
	if got := string(AppendPrompt(nil, &mcprt.Prompt{Name: "bare"}, Rev20251125)); got != `{"name":"bare"}` {
		t.Errorf("bare prompt: %s", got)
	}
}

// TestAppendPromptResultPerRevision writes a message of every content
// kind: audio does not exist before 2025-03-26 and resource links before
// 2025-06-18, so those become text blocks there.
func TestAppendPromptResultPerRevision(t *testing.T) {
	t.Parallel()
	r := mcprt.PromptResult{
		Description: "All kinds",
		Messages: []mcprt.PromptMessage{
			{Role: mcprt.RoleUser, Content: mcprt.Text("hi")},
			{Role: mcprt.RoleAssistant, Content: mcprt.Image([]byte{0xff}, "image/png")},
			{Role: mcprt.RoleUser, Content: mcprt.Audio([]byte{1, 2}, "audio/wav")},
			{Role: mcprt.RoleUser, Content: mcprt.ResourceLink("file:///a.txt", "a.txt")},
			{Content: mcprt.TextResource("file:///b.txt", "text/plain", "B")},
			{Role: mcprt.RoleUser, Content: mcprt.BlobResource("file:///c.bin", "application/octet-stream", []byte{0})},
		},
	}
	const head = `{"description":"All kinds","messages":[{"role":"user","content":{"type":"text","text":"hi"}},{"role":"assistant","content":{"type":"image","data":"/w==","mimeType":"image/png"}},`
	const tail = `{"role":"user","content":{"type":"resource","resource":{"uri":"file:///b.txt","mimeType":"text/plain","text":"B"}}},{"role":"user","content":{"type":"resource","resource":{"uri":"file:///c.bin","mimeType":"application/octet-stream","blob":"AA=="}}}]}`
	const audio = `{"role":"user","content":{"type":"audio","data":"AQI=","mimeType":"audio/wav"}},`
	const link = `{"role":"user","content":{"type":"resource_link","uri":"file:///a.txt","name":"a.txt"}},`
	const linkText = `{"role":"user","content":{"type":"text","text":"resource: file:///a.txt"}},`
	tests := []struct {
		rev  Revision
		want string
	}{
		{Rev20241105, head + `{"role":"user","content":{"type":"text","text":"[audio content of type audio/wav, 2 bytes, is not supported by protocol revision 2024-11-05]"}},` + linkText + tail},
		{Rev20250326, head + audio + linkText + tail},
		{Rev20250618, head + audio + link + tail},
		{Rev20260728, head + audio + link + tail},
	}
	for _, tt := range tests {
		got := string(AppendPromptResult(nil, &r, tt.rev))
		if got != tt.want {
			t.Errorf("AppendPromptResult(%s):\n got %s\nwant %s", tt.rev, got, tt.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("AppendPromptResult(%s) is not JSON: %s", tt.rev, got)
		}
	}
	if got := string(AppendPromptResult(nil, &mcprt.PromptResult{}, Rev20250618)); got != `{"messages":[]}` {
		t.Errorf("empty result: %s", got)
	}
}

func TestIsArgumentError(t *testing.T) {
	t.Parallel()
	ae := &mcpimpl.ArgumentError{Problems: []mcpimpl.Problem{{Path: "n", Message: "required"}}}
	if !IsArgumentError(ae) || !IsArgumentError(fmt.Errorf("prompt: %w", ae)) {
		t.Error("an ArgumentError, wrapped or not, is an argument error")
	}
	if IsArgumentError(fmt.Errorf("disk full")) || IsArgumentError(nil) {
		t.Error("other errors are not argument errors")
	}
}
