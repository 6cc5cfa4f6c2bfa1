package mcpgo

import (
	"fmt"
	"net/http"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/internal/authconf"
	"github.com/mcpgen/mcpgen/internal/authgate"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// HTTPHandler returns mcp-go's Streamable HTTP server for s with opts.
// With a not nil a, it is an OAuth 2.1 protected resource as the built-in
// server is with Server.Auth: the bearer token, the 401 and 403
// challenges, the scopes of Auth and of each tool, prompt and resource
// added by this package, and sessions bound to the token's principal are
// checked by mcpgen's gate in front of mcp-go, which has no authorization
// of its own. The metadata document is served on its well-known paths
// when they reach the handler; mount [MetadataHandler] on them otherwise.
// A bad Auth is an error.
//
// Tokens the verifier refuses are logged with the token itself replaced,
// and so is every request the gate refuses (401, 403, the 404 of another
// principal's session), at Info, with its method, status, reason and
// principal: mcp-go has no interceptors that could be told of it. The
// logger is the one [SetLogger] gave s before this call, else slog's
// default. The verified token reaches handlers as [mcprt.Token] through the
// request's context, which mcp-go's handlers derive theirs from; opts
// may hold a WithHTTPContextFunc of the caller's own.
func HTTPHandler(s *server.MCPServer, a *mcpserver.Auth, opts ...server.StreamableHTTPOption) (http.Handler, error) {
	h := server.NewStreamableHTTPServer(s, opts...)
	if a == nil {
		return h, nil
	}
	g, err := authGate(a)
	if err != nil {
		return nil, err
	}
	reg := registryOf(s)
	log := reg.logger()
	o := authgate.CatalogOptions(reg, log)
	o.Refused = func(r *http.Request, ref authgate.Refusal) { authgate.LogRefusal(log, r, ref) }
	return g.Protect(h, o), nil
}

// MetadataHandler serves the RFC 9728 metadata of a for s: Auth's
// ScopesSupported, or Auth.Scopes and every scope= of what this package
// added to s. Mount it at a.MetadataPath.
func MetadataHandler(s *server.MCPServer, a *mcpserver.Auth) (http.Handler, error) {
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
		return nil, fmt.Errorf("mcpgo: Auth: %w", err)
	}
	return g, nil
}
