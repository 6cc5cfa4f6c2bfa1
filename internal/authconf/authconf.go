// Package authconf makes the gate of an mcpserver.Auth for the SDK
// adapters, which cannot reach the built-in server's own maker: the one
// place outside mcpserver that reads Auth's fields.
package authconf

import (
	"github.com/mcpgen/mcpgen/internal/authgate"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// Gate checks a and returns its gate. Without DPoPOptions.Replay, DPoP
// proofs are remembered in the process.
func Gate(a *mcpserver.Auth) (*authgate.Gate, error) {
	return authgate.New(Config(a))
}

// Config is the gate configuration of a.
func Config(a *mcpserver.Auth) authgate.Config {
	c := authgate.Config{Resource: a.Resource, AuthorizationServers: a.AuthorizationServers,
		Verifier: a.Verifier, Scopes: a.Scopes, ScopesSupported: a.ScopesSupported}
	c.DPoP.Mode = authgate.DPoPMode(a.DPoP)
	if o := a.DPoPOptions; o != nil {
		c.DPoP.Algorithms, c.DPoP.Window, c.DPoP.NonceKey, c.DPoP.NonceLifetime = o.Algorithms, o.Window, o.NonceKey, o.NonceLifetime
		if o.Replay != nil {
			c.DPoP.Replay = o.Replay
		}
	}
	return c
}
