package gosdk

import (
	"log/slog"
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/authtest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestAuthorization runs the authorization scenario of every server path
// on go-sdk behind HTTPHandler, on every revision with HTTP.
func TestAuthorization(t *testing.T) {
	authtest.Run(t, authtest.Revisions, func(f *authtest.Fixture, rev string) http.Handler {
		s := NewServer(mcprt.Identity{Name: "n", Version: "v"}, f.Tools...)
		AddPrompts(s, f.Prompts...)
		AddResources(s, f.Resources...)
		// go-sdk serves 2026-07-28 over HTTP only when stateless.
		h, err := HTTPHandler(s, f.Auth, &mcp.StreamableHTTPOptions{Stateless: rev == "2026-07-28", Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		return h
	})
}
