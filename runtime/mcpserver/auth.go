package mcpserver

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TokenVerifier checks an OAuth access token and says what it grants. It
// returns an error for a token that is malformed, expired, not yet valid,
// badly signed, or issued by another issuer or for another audience; the
// server then answers 401 and the error's text reaches only its logger.
type TokenVerifier interface {
	VerifyToken(ctx context.Context, token string) (mcprt.TokenInfo, error)
}

// Auth makes the Streamable HTTP endpoint an OAuth 2.1 protected resource.
type Auth struct {
	// Resource is the server's canonical URI, as clients dial it
	// ("https://kb.example.com/mcp"): the audience tokens must carry.
	Resource string
	// AuthorizationServers are the issuers published in the metadata.
	AuthorizationServers []string
	// Verifier checks each request's bearer token.
	Verifier TokenVerifier
	// Scopes are required of every request; may be empty.
	Scopes []string
	// ScopesSupported are published in the metadata. Nil means Scopes plus
	// the scopes of every tool, prompt and resource served.
	ScopesSupported []string
	// DPoP says whether sender-constrained tokens are taken (RFC 9449,
	// SEP-1932): DPoPOff, DPoPAccepted or DPoPRequired. Whatever it says,
	// a token bound to a key is refused as a bearer token.
	DPoP DPoPMode
	// DPoPOptions tune the proof checks; nil means the defaults.
	DPoPOptions *DPoPOptions
}
