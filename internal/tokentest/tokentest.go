// Package tokentest is the token verifier of the tests that need one: a
// fixed set of tokens. It imports only mcprt, so that the tests of the
// packages below mcpserver (the gate, the server itself) can use it too.
package tokentest

import (
	"context"
	"errors"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// Tokens is a verifier that knows a fixed set of tokens.
type Tokens map[string]mcprt.TokenInfo

// VerifyToken returns the information of a known token, and for another
// an error that names it (so that tests see the server keep it out of
// its answers and logs).
func (v Tokens) VerifyToken(_ context.Context, token string) (mcprt.TokenInfo, error) {
	if t, ok := v[token]; ok {
		return t, nil
	}
	return mcprt.TokenInfo{}, errors.New("unknown token " + token)
}
