package mcpserver_test

import (
	"log/slog"
	"net/http"
	"testing"

	"github.com/mcpgen/mcpgen/internal/authtest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// TestAuthorizationScenario runs the authorization scenario that the SDK
// adapters run too, on the built-in server, on every revision with HTTP.
func TestAuthorizationScenario(t *testing.T) {
	authtest.Run(t, authtest.Revisions, func(f *authtest.Fixture, _ string) http.Handler {
		s := mcpserver.New(mcprt.Identity{Name: "n", Version: "v"}, f.Tools...)
		s.AddPrompts(f.Prompts...)
		s.AddResources(f.Resources...)
		s.Auth = f.Auth
		s.Logger = slog.New(slog.DiscardHandler)
		return s.HTTPHandler()
	})
}
