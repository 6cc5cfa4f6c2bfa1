// Package mcpauth checks the OAuth access tokens that clients send to an
// MCP server over Streamable HTTP. Its verifiers satisfy
// mcpserver.TokenVerifier and go in mcpserver.Auth:
//
//	v, err := mcpauth.NewJWT(ctx, mcpauth.JWTOptions{
//		Issuer:   "https://auth.example.com",
//		Audience: "https://kb.example.com/mcp",
//	})
//	if err != nil { ... }
//	srv.Auth = &mcpserver.Auth{
//		Resource:             "https://kb.example.com/mcp",
//		AuthorizationServers: []string{"https://auth.example.com"},
//		Verifier:             v,
//	}
//
// [JWT] checks JSON Web Token access tokens (RFC 9068) against the
// issuer's key set, which it finds in the issuer's metadata (RFC 8414, or
// OpenID Connect discovery) unless told its URL. It keeps the key set
// fresh: in the background, and at once (at most every few minutes) when
// a token names a key it does not know, so that rotated keys are picked
// up.
//
// [Introspection] asks the authorization server about opaque tokens
// (RFC 7662).
//
// Both remember the tokens they accepted for a short while (at most a
// minute by default, never past a token's expiry), keyed by a SHA-256 hash
// of the token, so that the many requests of one session cost one check.
// A refusal is an error that wraps [ErrInvalidToken]; other errors mean
// the token could not be checked (the authorization server could not be
// reached, say). No error text includes the token.
//
// The package sits apart from mcpserver, so that a server without
// authorization links none of it or of its JWT libraries.
package mcpauth
