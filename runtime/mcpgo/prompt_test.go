package mcpgo

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestAddingNothing checks that adding no prompts and no resources
// publishes neither capability: mcp-go would publish one for an empty
// addition.
func TestAddingNothing(t *testing.T) {
	t.Parallel()
	s := NewServer(mcprt.Identity{Name: "t", Version: "1"})
	AddPrompts(s)
	AddResources(s)
	got := call(t, s, "2025-11-25", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
	if strings.Contains(got, `"prompts"`) || strings.Contains(got, `"resources"`) {
		t.Errorf("initialize: %s", got)
	}
}
