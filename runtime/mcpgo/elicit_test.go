package mcpgo

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/internal/servertest"
)

// TestURLElicitationOn2026: mcp-go's adapter asks nothing on 2026-07-28,
// as for forms: ElicitURL fails and URLElicitationRequired is a failed
// result, where the built-in server answers with input-required results.
func TestURLElicitationOn2026(t *testing.T) {
	ids := make(chan string, 4)
	s := server.NewMCPServer("t", "1", server.WithElicitation())
	AddTools(s, servertest.URLTools(ids)...)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"url":{}}},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}`
	for _, name := range []string{"consent", "gate"} {
		out, _ := json.Marshal(s.HandleMessage(context.Background(), json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`+meta+`,"name":"`+name+`","arguments":{}}}`)))
		if got := string(out); !strings.Contains(got, `"isError":true`) || strings.Contains(got, "input_required") {
			t.Errorf("%s on 2026-07-28: %s, want a failed result", name, got)
		}
	}
}
