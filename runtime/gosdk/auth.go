package gosdk

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/authconf"
	"github.com/mcpgen/mcpgen/internal/authgate"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// HTTPHandler returns go-sdk's Streamable HTTP handler serving s with
// opts (nil for the SDK's defaults). With a not nil a, it is an OAuth 2.1
// protected resource as the built-in server is with Server.Auth: the
// bearer token, the 401 and 403 challenges, the scopes of Auth and of each
// tool, prompt and resource, and sessions bound to the token's principal
// are checked by mcpgen's gate in front of the SDK, which answers
// nothing itself that the gate has refused. The metadata document is
// served on its well-known paths when they reach the handler; mount
// [MetadataHandler] on them otherwise. A bad Auth is an error.
//
// Behind the gate, the SDK's auth.RequireBearerToken receives the token
// the gate verified (with UserID the issuer and subject), so that the
// SDK's own session binding and req.Extra.TokenInfo work as the SDK
// documents. Handlers added by this package see it as [mcprt.Token], as
// go-sdk's handlers run in a context made from the HTTP request's.
//
// What the gate refuses reaches the interceptors of [Use], with
// Outcome.Refused set; a refused GET or DELETE, which holds no message,
// is logged at Info on the SDK's logger (opts.Logger, else the logger
// [SetLogger] gave s before this call, else slog's default).
func HTTPHandler(s *mcp.Server, a *mcpserver.Auth, opts *mcp.StreamableHTTPOptions) (http.Handler, error) {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, opts)
	if a == nil {
		return h, nil
	}
	g, err := authGate(a)
	if err != nil {
		return nil, err
	}
	inner := asBearer(auth.RequireBearerToken(verified, &auth.RequireBearerTokenOptions{ResourceMetadataURL: g.MetadataURL(), AllowMissingExpiration: true})(h))
	log := logger(opts, registryOf(s))
	o := authgate.CatalogOptions(registryOf(s), log)
	o.Refused = func(r *http.Request, ref authgate.Refusal) { refused(s, log, r, ref) }
	return g.Protect(inner, o), nil
}

// MetadataHandler serves the RFC 9728 metadata of a for s: Auth's
// ScopesSupported, or Auth.Scopes and every scope= of what this package
// added to s. Mount it at a.MetadataPath.
func MetadataHandler(s *mcp.Server, a *mcpserver.Auth) (http.Handler, error) {
	g, err := authGate(a)
	if err != nil {
		return nil, err
	}
	return g.MetadataHandler(registryOf(s).AllScopes), nil
}

// authGate checks a and returns its gate.
func authGate(a *mcpserver.Auth) (*authgate.Gate, error) {
	g, err := authconf.Gate(a)
	if err != nil {
		return nil, fmt.Errorf("gosdk: Auth: %w", err)
	}
	return g, nil
}

// logger is where the gate logs refused tokens: the SDK's logger, as
// opts set it, else reg's.
func logger(opts *mcp.StreamableHTTPOptions, reg *registry) *slog.Logger {
	if opts != nil && opts.Logger != nil {
		return opts.Logger
	}
	return reg.logger()
}

// verified is the SDK's verifier behind the gate: the token is the one
// the gate verified, found in the request's context, not checked again.
func verified(ctx context.Context, _ string, req *http.Request) (*auth.TokenInfo, error) {
	t, ok := mcprt.Token(req.Context())
	if !ok {
		return nil, auth.ErrInvalidToken
	}
	return &auth.TokenInfo{Scopes: t.Scopes, Expiration: t.Expires, UserID: authgate.Principal(&t),
		Extra: map[string]any{extraKey: &t}}, nil
}

// extraKey is where the mcpgen token is kept in the SDK's TokenInfo.Extra.
const extraKey = "mcpgen"
