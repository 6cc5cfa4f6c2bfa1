// Package authconf gives the SDK adapters the gate of an mcpserver.Auth.
// The configuration is made by mcpserver, the one place that reads Auth's
// fields; this package, which mcpserver can import without a cycle, hands
// it over.
package authconf

import "github.com/mcpgen/mcpgen/internal/authgate"

// Of returns the gate configuration of an *mcpserver.Auth, with DPoP
// proofs remembered in the process unless the Auth names a replay cache.
// Package mcpserver sets it when it is initialized; every caller of Gate
// imports mcpserver for the Auth it passes, so it is always set.
var Of func(auth any) authgate.Config

// Gate checks a, an *mcpserver.Auth, and returns its gate.
func Gate(a any) (*authgate.Gate, error) {
	return authgate.New(Of(a))
}
