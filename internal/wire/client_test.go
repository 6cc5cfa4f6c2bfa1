package wire

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

func TestClientCapabilities(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		raw  string
		want mcprt.ClientCapabilities
	}{
		{``, mcprt.ClientCapabilities{}},
		{`{}`, mcprt.ClientCapabilities{}},
		{`[1]`, mcprt.ClientCapabilities{}},
		{`{"elicitation":null,"sampling":null,"roots":null,"tasks":null}`, mcprt.ClientCapabilities{}},
		{`{"elicitation":{},"sampling":{},"roots":{}}`, mcprt.ClientCapabilities{Elicitation: true, Sampling: true, Roots: true}},
		{`{"elicitation":{"form":{},"url":{}},"sampling":{"tools":{}},"roots":{"listChanged":true},"tasks":{"list":{}}}`,
			mcprt.ClientCapabilities{Elicitation: true, ElicitationURL: true, Sampling: true, SamplingTools: true, Roots: true, RootsListChanged: true, Tasks: true}},
		{`{"extensions":{"io.modelcontextprotocol/tasks":{}}}`, mcprt.ClientCapabilities{Tasks: true}},
		{`{"extensions":{"io.modelcontextprotocol/tasks":null}}`, mcprt.ClientCapabilities{}},
	} {
		got := ClientCapabilities([]byte(tc.raw))
		if d := cmp.Diff(tc.want, got, cmpopts.IgnoreFields(mcprt.ClientCapabilities{}, "JSON")); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.raw, d)
		}
		if string(got.JSON) != tc.raw {
			t.Errorf("%s: JSON %s", tc.raw, got.JSON)
		}
	}
}

func TestNotSupported(t *testing.T) {
	t.Parallel()
	for _, err := range []error{NotEnabled("sampling"), NotDeclared("roots"), NotSupported("%s needs a session", "roots")} {
		if !errors.Is(err, mcprt.ErrNotSupported) {
			t.Errorf("%v does not match ErrNotSupported", err)
		}
	}
	if got := NotDeclared("elicitation.url").Error(); got != "the client did not declare the elicitation.url capability" {
		t.Errorf("NotDeclared: %q", got)
	}
}
