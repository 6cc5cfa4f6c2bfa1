package authconf_test

import (
	"slices"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/authconf"
	"github.com/mcpgen/mcpgen/internal/authgate"
	"github.com/mcpgen/mcpgen/internal/tokentest"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// TestOf: the adapters' configuration of an Auth is the one mcpserver
// makes, every field carried over.
func TestOf(t *testing.T) {
	t.Parallel()
	a := &mcpserver.Auth{Resource: "https://kb.example.com/mcp", AuthorizationServers: []string{"https://as.example.com"},
		Verifier: tokentest.Tokens{}, Scopes: []string{"kb"}, ScopesSupported: []string{"kb", "kb:write"},
		DPoP: mcpserver.DPoPRequired, DPoPOptions: &mcpserver.DPoPOptions{Algorithms: []string{"ES256"}, Window: time.Minute,
			NonceKey: []byte("0123456789abcdef"), NonceLifetime: time.Hour}}
	c := authconf.Of(a)
	if c.Resource != a.Resource || !slices.Equal(c.AuthorizationServers, a.AuthorizationServers) || c.Verifier == nil ||
		!slices.Equal(c.Scopes, a.Scopes) || !slices.Equal(c.ScopesSupported, a.ScopesSupported) {
		t.Errorf("Of = %+v, want Auth's fields", c)
	}
	if c.DPoP.Mode != authgate.DPoPMode(mcpserver.DPoPRequired) || !slices.Equal(c.DPoP.Algorithms, []string{"ES256"}) ||
		c.DPoP.Window != time.Minute || string(c.DPoP.NonceKey) != "0123456789abcdef" || c.DPoP.NonceLifetime != time.Hour {
		t.Errorf("Of(...).DPoP = %+v, want DPoPOptions' fields", c.DPoP)
	}
	if _, err := authconf.Gate(a); err != nil {
		t.Errorf("Gate: %v", err)
	}
}
