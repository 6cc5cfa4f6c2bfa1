package gosdk

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/authtest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestHTTPHandlerRefusesBadAuth returns the error of an Auth that cannot
// work rather than serving.
func TestHTTPHandlerRefusesBadAuth(t *testing.T) {
	t.Parallel()
	f := authtest.NewFixture()
	f.Auth.AuthorizationServers = nil
	if _, err := HTTPHandler(NewServer(mcprt.Identity{Name: "n", Version: "v"}), f.Auth, nil); err == nil {
		t.Error("HTTPHandler took an Auth without authorization servers")
	}
}

// TestAuthSDKTokenInfo calls a tool added with go-sdk's own AddTool behind
// HTTPHandler: the SDK's req.Extra.TokenInfo carries the verified token,
// UserID its issuer and subject, and Extra the mcpgen TokenInfo.
func TestAuthSDKTokenInfo(t *testing.T) {
	t.Parallel()
	f := authtest.NewFixture()
	s := NewServer(mcprt.Identity{Name: "n", Version: "v"})
	s.AddTool(&mcp.Tool{Name: "sdk", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ti := req.Extra.TokenInfo
		if ti == nil {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "no token info"}}}, nil
		}
		mt, _ := ti.Extra["mcpgen"].(*mcprt.TokenInfo)
		text := strings.ReplaceAll(ti.UserID, "\x00", "|") + " " + strings.Join(ti.Scopes, ",")
		if mt != nil {
			text += " " + mt.Subject
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
	})
	h, err := HTTPHandler(s, f.Auth, &mcp.StreamableHTTPOptions{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	c := authtest.Start(t, h, "2025-06-18")
	c.Init("alice-base")
	got := authtest.Body(t, c.Do(http.MethodPost, c.Request(1, "tools/call", "sdk"), "alice-base", nil))
	if !strings.Contains(got, `"text":"https://as.example.com|alice kb alice"`) {
		t.Errorf("the SDK's TokenInfo: %s", got)
	}
}
