package servertest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/authtest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestAuthorization runs the authorization scenario on every path behind
// its HTTP handler, on every revision with HTTP.
func TestAuthorization(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		authtest.Run(t, authtest.Revisions, func(f *authtest.Fixture, rev string) http.Handler {
			s := m.new(mcprt.Identity{Name: "n", Version: "v"}, f.Tools...)
			s.addPrompts(f.Prompts...)
			s.addResources(f.Resources...)
			return s.httpHandler(t, f.Auth, rev)
		})
	})
}

// TestDPoP runs the DPoP scenario on every path behind its HTTP
// handler, on every revision with HTTP.
func TestDPoP(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		authtest.RunDPoP(t, authtest.Revisions, func(f *authtest.Fixture, rev string) http.Handler {
			s := m.new(mcprt.Identity{Name: "n", Version: "v"}, f.Tools...)
			s.addPrompts(f.Prompts...)
			s.addResources(f.Resources...)
			return s.httpHandler(t, f.Auth, rev)
		})
	})
}

// TestAuthListsPublic asserts a difference the SDKs force: behind their
// HTTP handler with Auth, 2026-07-28 lists keep the cacheScope "public"
// the SDK fixes when the server is made, where the built-in server's Auth
// makes them "private".
func TestAuthListsPublic(t *testing.T) {
	scope := each{builtin: "private", gosdk: "public", mcpgo: "public"}
	run(t, func(t *testing.T, m *mode) {
		f := authtest.NewFixture()
		c := authtest.Start(t, m.new(mcprt.Identity{Name: "n", Version: "v"}, f.Tools...).httpHandler(t, f.Auth, "2026-07-28"), "2026-07-28")
		want := `"cacheScope":"` + scope.on(m) + `"`
		if got := authtest.Body(t, c.Do(http.MethodPost, c.Request(1, "tools/list", ""), "alice-base", nil)); !strings.Contains(got, want) {
			t.Errorf("tools/list: %s, want %s", got, want)
		}
	})
}
