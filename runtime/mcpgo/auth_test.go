package mcpgo

import (
	"net/http"
	"strings"
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

// TestAuthListsPublic asserts a difference mcp-go forces: behind
// HTTPHandler with Auth, 2026-07-28 lists keep the cacheScope "public"
// that NewServer gave mcp-go, which fixes it when the server is made,
// where the built-in server's Auth makes them "private".
func TestAuthListsPublic(t *testing.T) {
	f := authtest.NewFixture()
	h, err := HTTPHandler(NewServer(mcprt.Identity{Name: "n", Version: "v"}, f.Tools...), f.Auth)
	if err != nil {
		t.Fatal(err)
	}
	c := authtest.Start(t, h, "2026-07-28")
	if got := authtest.Body(t, c.Do(http.MethodPost, c.Request(1, "tools/list", ""), "alice-base", nil)); !strings.Contains(got, `"cacheScope":"public"`) {
		t.Errorf("tools/list: %s", got)
	}
}

// TestHTTPHandlerRefusesBadAuth returns the error of an Auth that cannot
// work rather than serving.
func TestHTTPHandlerRefusesBadAuth(t *testing.T) {
	f := authtest.NewFixture()
	f.Auth.Resource = "/mcp"
	if _, err := HTTPHandler(NewServer(mcprt.Identity{Name: "n", Version: "v"}), f.Auth); err == nil {
		t.Error("HTTPHandler took an Auth whose resource is not a URL")
	}
}
