package mcprt

import (
	"context"
	"time"

	"github.com/mcpgen/mcpgen/internal/ctxkey"
)

// TokenInfo is what a verified OAuth access token says about its bearer:
// who issued it, whom it names, the client it was issued to, the scopes it
// grants and when it ends. It never holds the raw token, so a handler
// cannot pass it on to another service.
type TokenInfo struct {
	Issuer, Subject, ClientID string
	Scopes                    []string
	Expires                   time.Time
	// Claims are the token's other claims (for a JWT, its payload without
	// the registered ones above).
	Claims map[string]any
	// DPoPThumbprint is set when the token is sender-constrained: it was
	// presented with a DPoP proof (RFC 9449) by the key it is bound to,
	// whose RFC 7638 thumbprint this is. Empty for a bearer token.
	DPoPThumbprint string
}

// HasScope reports whether the token grants scope.
func (t TokenInfo) HasScope(scope string) bool {
	for _, s := range t.Scopes {
		if s == scope {
			return true
		}
	}
	return false
}

// Token returns the verified token of the HTTP request a handler serves.
// It reports false on stdio and on a server without authorization.
func Token(ctx context.Context) (TokenInfo, bool) {
	t, ok := ctxkey.Token(ctx).(*TokenInfo)
	if !ok || t == nil {
		return TokenInfo{}, false
	}
	return *t, true
}

// WithToken returns a context carrying t, as a server sets it for the
// handlers of an authorized request; tests of a handler use it too.
func WithToken(ctx context.Context, t TokenInfo) context.Context {
	return ctxkey.WithToken(ctx, &t)
}
