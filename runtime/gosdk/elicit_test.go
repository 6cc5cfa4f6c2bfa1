package gosdk

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/servertest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestURLElicitationOn2026: the go-sdk adapter asks nothing on 2026-07-28,
// as for forms: ElicitURL fails and URLElicitationRequired is a failed
// result, where the built-in server answers with input-required results.
func TestURLElicitationOn2026(t *testing.T) {
	ids := make(chan string, 4)
	s := NewServer(mcprt.Identity{Name: "t", Version: "1", EnableElicitation: true}, servertest.URLTools(ids)...)
	r := dial(t, s, "2026-07-28")
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"url":{}}},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}`
	for name, want := range map[string]string{"consent": "cannot be sent while serving a request on protocol version 2026-07-28", "gate": "Authorize: open https://example.com/oauth"} {
		if got := r.call("tools/call", `{`+meta+`,"name":"`+name+`","arguments":{}}`); !strings.Contains(got, `"isError":true`) || !strings.Contains(got, want) {
			t.Errorf("%s on 2026-07-28: %s, want a failed result saying %q", name, got, want)
		}
	}
}
