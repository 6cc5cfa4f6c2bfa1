package mcpgo

import (
	"net/http"
	"testing"

	"github.com/mcpgen/mcpgen/internal/authtest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestAuthorization runs the authorization scenario of every server path
// on mcp-go behind HTTPHandler, on every revision with HTTP.
func TestAuthorization(t *testing.T) {
	authtest.Run(t, authtest.Revisions, func(f *authtest.Fixture, rev string) http.Handler {
		s := NewServer(mcprt.Identity{Name: "n", Version: "v"}, f.Tools...)
		AddPrompts(s, f.Prompts...)
		AddResources(s, f.Resources...)
		h, err := HTTPHandler(s, f.Auth)
		if err != nil {
			t.Fatal(err)
		}
		return h
	})
}
