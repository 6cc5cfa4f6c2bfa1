package mcpimpl

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestWithText checks the text block of an mcprt.Structured result: the
// author's text where given, the JSON where not, and an encoding error's
// message whatever the text.
func TestWithText(t *testing.T) {
	t.Parallel()
	enc := &Encoder{B: []byte(`{"text":"a\nb"}`)}
	got := WithText(enc.Structured(), "a\nb")
	want := mcprt.Result{Content: []mcprt.Content{mcprt.Text("a\nb")}, StructuredContent: []byte(`{"text":"a\nb"}`)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("with a text (-want +got):\n%s", diff)
	}
	enc = &Encoder{B: []byte(`[1]`)}
	got = WithText(enc.StructuredValue(), "one")
	want = mcprt.Result{Content: []mcprt.Content{mcprt.Text("one")}, StructuredContent: []byte(`[1]`), WrapStructured: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("a list with a text (-want +got):\n%s", diff)
	}
	if got := WithText(enc.StructuredValue(), ""); got.Content[0].Text != "[1]" {
		t.Errorf("without a text, the text block is %q, want the JSON", got.Content[0].Text)
	}
	enc.err = errors.New("bad float")
	if got := WithText(enc.Structured(), "one"); !got.IsError || got.Content[0].Text != "encoding the result: bad float" {
		t.Errorf("a failed encoding with a text = %+v, want the error", got)
	}
}
