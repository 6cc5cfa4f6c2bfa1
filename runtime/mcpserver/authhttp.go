package mcpserver

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/mcpgen/mcpgen/internal/authconf"
	"github.com/mcpgen/mcpgen/internal/authgate"
	"github.com/mcpgen/mcpgen/internal/ctxkey"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// MetadataURL returns where the RFC 9728 metadata of the resource is
// published: the origin of Resource, /.well-known/oauth-protected-resource,
// then the path of Resource ("https://h/mcp" gives
// "https://h/.well-known/oauth-protected-resource/mcp"). It is an error
// when Resource is not an absolute http or https URL.
func (a *Auth) MetadataURL() (string, error) {
	return authgate.MetadataURL(a.Resource)
}

// MetadataPath returns the path of MetadataURL, where the metadata
// handler is mounted on the resource's host.
func (a *Auth) MetadataPath() (string, error) {
	u, err := authgate.MetadataURL(a.Resource)
	if err != nil {
		return "", err
	}
	_, rest, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://"), "/")
	path, _, _ := strings.Cut(rest, "?")
	return "/" + path, nil
}

// gateConfig is the gate configuration of a: the one place that reads
// Auth's fields. replay is the DPoP replay cache when a names none. The
// adapters reach it through package authconf.
func (a *Auth) gateConfig(replay ReplayCache) authgate.Config {
	return authgate.Config{Resource: a.Resource, AuthorizationServers: a.AuthorizationServers,
		Verifier: a.Verifier, Scopes: a.Scopes, ScopesSupported: a.ScopesSupported, DPoP: a.dpopConfig(replay)}
}

func init() {
	authconf.Of = func(auth any) authgate.Config { return auth.(*Auth).gateConfig(nil) }
}

// gate returns the gate of a, as the servers build it: it checks a's
// fields once. replay is the DPoP replay cache when a names none.
func (a *Auth) gate(replay ReplayCache) (*authgate.Gate, error) {
	g, err := authgate.New(a.gateConfig(replay))
	if err != nil {
		return nil, fmt.Errorf("mcpserver: Auth: %w", err)
	}
	return g, nil
}

// authGate returns the server's gate, made from Auth on first use. A bad
// Auth is an error every HTTP request answers with 500 and logs.
func (s *Server) authGate() (*authgate.Gate, error) {
	s.gateOnce.Do(func() { s.gate, s.gateErr = s.Auth.gate(s.DPoPReplay) })
	return s.gate, s.gateErr
}

// MetadataHandler serves the RFC 9728 protected resource metadata of
// Auth: resource, authorization_servers, scopes_supported (by default
// Auth.Scopes and the scopes of every tool, prompt and resource served
// now) and bearer_methods_supported ["header"], to any origin. Mount it
// at Auth.MetadataPath on the resource's host. Without Auth, or with a
// bad one, it answers 404 or 500.
func (s *Server) MetadataHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.Auth == nil {
			http.NotFound(w, r)
			return
		}
		g, err := s.authGate()
		if err != nil {
			s.logger().Error(err.Error())
			http.Error(w, "Internal Server Error: authorization is misconfigured", http.StatusInternalServerError)
			return
		}
		g.MetadataHandler(s.declaredScopes).ServeHTTP(w, r)
	})
}

// declaredScopes returns the scopes of the tools, prompts and resources
// served now, each once, in the order they were added.
func (s *Server) declaredScopes() []string {
	var lists [][]string
	for _, e := range s.tools.all() {
		lists = append(lists, e.val.Scopes)
	}
	for _, e := range s.prompts.all() {
		lists = append(lists, e.val.Scopes)
	}
	for _, c := range []*catalog[mcprt.Resource]{&s.resources, &s.templates} {
		for _, e := range c.all() {
			lists = append(lists, e.val.Scopes)
		}
	}
	lists = append(lists, s.skillDeclaredScopes()...)
	return authgate.Union(lists...)
}

// authenticate runs the gate on an HTTP request of a server with Auth: it
// answers 401 for a request without a valid token (or DPoP proof), 503
// when the DPoP replay cache cannot tell, and tells of the refusal. It returns the request to serve, carrying the token, or
// nil when it has answered.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) *http.Request {
	g := s.gateOrFail(w)
	if g == nil {
		return nil
	}
	t, served, denied := g.Verify(w, r, s.logger())
	if t != nil {
		return served
	}
	var msgs []*message
	if r.Method == http.MethodPost {
		// Read before answering, as HTTP/1 may not read after: the
		// refusal tells what the body asked for.
		if body, err := readBody(w, r, s.maxBody()); err == nil {
			msgs = messagesOf(body)
		}
	}
	g.Unauthorized(w, denied)
	s.refused(r, Refusal{Status: denied.Status, Reason: denied.Reason, Message: denied.Message}, nil, msgs)
	return nil
}

// serveMetadata answers a request for the protected resource metadata
// made to the endpoint's handler itself, and reports whether it was one.
func (s *Server) serveMetadata(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodOptions {
		return false
	}
	g := s.gateOrFail(w)
	if g == nil {
		return true
	}
	if p := r.URL.Path; p != g.MetadataPathOf() && p != authgate.MetadataPath {
		return false
	}
	g.MetadataHandler(s.declaredScopes).ServeHTTP(w, r)
	return true
}

// gateOrFail returns the server's gate, or answers 500 and returns nil
// when Auth is misconfigured.
func (s *Server) gateOrFail(w http.ResponseWriter) *authgate.Gate {
	g, err := s.authGate()
	if err != nil {
		s.logger().Error(err.Error())
		http.Error(w, "Internal Server Error: authorization is misconfigured", http.StatusInternalServerError)
		return nil
	}
	return g
}

// tokenOf returns the verified token of ctx, or nil: on stdio and on a
// server without Auth there is none.
func tokenOf(ctx context.Context) *mcprt.TokenInfo {
	t, _ := ctxkey.Token(ctx).(*mcprt.TokenInfo)
	return t
}

// opScopes returns the scopes the operation m names declares: those of
// the tool called, the prompt got or the resource read (for a template,
// of every template that matches the URI), nil for any other request.
func (s *Server) opScopes(m *message) []string {
	switch m.method {
	case "tools/call":
		if scopes, ok := s.callToolScopes(m); ok {
			return scopes
		}
		if e := s.toolOf(&m.meta); e != nil {
			return e.val.Scopes
		}
	case "prompts/get":
		if name, ok := stringValue(m.meta.toolName); ok {
			if e := s.prompts.get(name); e != nil {
				return e.val.Scopes
			}
		}
	case "skills/get", "resources/directory/read":
		return s.skillScopes(m)
	case "resources/read":
		uri, ok := stringValue(m.meta.uri)
		if !ok {
			return nil
		}
		if need := s.skillScopes(m); need != nil {
			return need
		}
		if e := s.resources.get(uri); e != nil {
			return e.val.Scopes
		}
		var need []string
		for _, e := range s.templates.all() {
			if len(e.val.Scopes) > 0 && mcpimpl.TemplateMatches(e.key, uri) {
				need = authgate.Union(need, e.val.Scopes)
			}
		}
		return need
	}
	return nil
}

// forbid answers 403 insufficient_scope when the token of r lacks a scope
// one of msgs needs, naming every scope they need, and reports whether it
// did. Requests without a token (stdio, no Auth) are not checked.
func (s *Server) forbid(w http.ResponseWriter, r *http.Request, id []byte, msgs ...*message) bool {
	t := tokenOf(r.Context())
	if t == nil {
		return false
	}
	g, _ := s.authGate() // made by authenticate
	lacks := authgate.Lacks(t, g.Scopes())
	for _, m := range msgs {
		if m != nil && m.isRequest() && !lacks {
			lacks = authgate.Lacks(t, s.opScopes(m))
		}
	}
	if !lacks {
		return false
	}
	// Refused: the challenge names every scope of every request.
	need := g.Scopes()
	for _, m := range msgs {
		if m != nil && m.isRequest() {
			need = authgate.Union(need, s.opScopes(m))
		}
	}
	g.ForbidToken(w, t, need, authgate.ErrorResponse(id, need))
	rerr := scopeError(need)
	s.refused(r, Refusal{Status: http.StatusForbidden, Reason: ReasonScope, Message: rerr.message}, rerr, msgs)
	return true
}

// mayRead reports whether the token of ctx, if any, has the scopes
// reading from r needs; a template it lacks them for is not tried.
func (s *Server) mayRead(ctx context.Context, r *mcprt.Resource) bool {
	t := tokenOf(ctx)
	if t == nil || len(r.Scopes) == 0 {
		return true
	}
	g, err := s.authGate()
	return err == nil && !authgate.Lacks(t, g.Need(r.Scopes))
}

// samePrincipal reports whether a and b name the same principal (both nil
// without authorization), comparing without building the names.
func samePrincipal(a, b *mcprt.TokenInfo) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Issuer == b.Issuer && a.Subject == b.Subject
}
