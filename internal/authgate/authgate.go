// Package authgate is the one gate of an OAuth 2.1 protected resource that
// the built-in server and both SDK adapters put in front of Streamable
// HTTP: it reads the bearer token, has it verified, checks scopes and
// writes the RFC 6750 challenges and the RFC 9728 metadata document.
//
// It depends on package mcprt, the small internal packages ctxkey and
// jsonx, and the standard library only: no JWT or OAuth library, which
// the verifiers bring, and only a server that sets Auth uses it. Its
// DPoP checks (dpop.go, proof.go, jose.go) are written on the standard
// library's crypto for that reason.
package authgate

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/internal/ctxkey"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// Verifier checks a bearer token, as mcpserver.TokenVerifier does.
type Verifier interface {
	VerifyToken(ctx context.Context, token string) (mcprt.TokenInfo, error)
}

// Config is what a gate is made of: the fields of mcpserver.Auth.
type Config struct {
	Resource             string
	AuthorizationServers []string
	Verifier             Verifier
	Scopes               []string
	// ScopesSupported is published; nil means Scopes plus Declared.
	ScopesSupported []string
	// DPoP says whether sender-constrained tokens are taken (dpop.go).
	DPoP DPoPConfig
}

// Gate checks requests for one protected resource. Its challenges are
// written once, when it is made, so that a refusal costs no formatting.
type Gate struct {
	verifier    Verifier
	scopes      []string
	metadataURL string
	resource    string
	servers     []string
	supported   []string // nil: Scopes and the declared scopes
	// The denials of a request without a token and of a refused token,
	// each with its 401 challenge.
	denyNoToken, denyBadToken *Denial

	dpop *dpopGate // nil: bearer tokens only
}

// MetadataPath is the well-known path of RFC 9728 protected resource
// metadata, before the resource's own path is appended.
const MetadataPath = "/.well-known/oauth-protected-resource"

// MetadataURL returns where the metadata of resource is published: its
// origin, the well-known path, then its path and query without a final
// slash (RFC 9728 §3.1). "https://h/mcp" gives
// "https://h/.well-known/oauth-protected-resource/mcp".
func MetadataURL(resource string) (string, error) {
	u, err := url.Parse(resource)
	if err != nil {
		return "", fmt.Errorf("resource %q: %v", resource, err)
	}
	if (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil {
		return "", fmt.Errorf("resource %q: must be an absolute http or https URL without user information", resource)
	}
	if u.Fragment != "" || strings.Contains(resource, "#") {
		return "", fmt.Errorf("resource %q: must have no fragment", resource)
	}
	out := u.Scheme + "://" + u.Host + MetadataPath + strings.TrimSuffix(u.EscapedPath(), "/")
	if u.RawQuery != "" {
		out += "?" + u.RawQuery
	}
	return out, nil
}

// New checks c and returns its gate. A resource that is not an absolute
// URL, no authorization server, no verifier or a scope that is not an
// RFC 6749 scope token is an error.
func New(c Config) (*Gate, error) {
	murl, err := MetadataURL(c.Resource)
	if err != nil {
		return nil, err
	}
	if len(c.AuthorizationServers) == 0 {
		return nil, errors.New("at least one authorization server is required (RFC 9728 metadata must name one)")
	}
	if c.Verifier == nil {
		return nil, errors.New("a token verifier is required")
	}
	for _, list := range [][]string{c.Scopes, c.ScopesSupported} {
		for _, s := range list {
			if err := CheckScope(s); err != nil {
				return nil, err
			}
		}
	}
	g := &Gate{verifier: c.Verifier, scopes: slices.Clone(c.Scopes), metadataURL: murl,
		resource: c.Resource, servers: slices.Clone(c.AuthorizationServers), supported: slices.Clone(c.ScopesSupported)}
	g.denyNoToken = &Denial{Status: http.StatusUnauthorized, Reason: ReasonMissingToken, Message: MessageUnauthorized,
		Challenges: []string{Challenge("", g.scopes, murl)}}
	g.denyBadToken = &Denial{Status: http.StatusUnauthorized, Reason: ReasonInvalidToken, Message: MessageUnauthorized,
		Challenges: []string{Challenge("invalid_token", g.scopes, murl)}}
	if g.dpop, err = newDPoP(c.DPoP, c.Resource, g.scopes, murl); err != nil {
		return nil, err
	}
	return g, nil
}

// MetadataURL returns the URL of the gate's metadata document.
func (g *Gate) MetadataURL() string { return g.metadataURL }

// Scopes returns the scopes every request needs; callers must not change it.
func (g *Gate) Scopes() []string { return g.scopes }

// CheckScope reports whether s is a scope token of RFC 6749 §3.3: one or
// more of the characters %x21 / %x23-5B / %x5D-7E.
func CheckScope(s string) error {
	if s == "" {
		return errors.New("a scope must not be empty")
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x21 || c == '"' || c == '\\' || c > 0x7e {
			return fmt.Errorf("scope %q: character %q is not allowed in a scope (RFC 6749 §3.3)", s, c)
		}
	}
	return nil
}

// Union returns the scopes of lists, each once, in the order first seen.
func Union(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		for _, s := range l {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// OfflineAccess is the scope of refresh tokens, which a resource server
// names neither in its metadata nor in a challenge.
const OfflineAccess = "offline_access"

func withoutOffline(scopes []string) []string {
	if !slices.Contains(scopes, OfflineAccess) {
		return scopes
	}
	return slices.DeleteFunc(slices.Clone(scopes), func(s string) bool { return s == OfflineAccess })
}

// BearerToken reads the token of an Authorization header value (RFC 6750
// §2.1): the scheme "Bearer" in any case, spaces, then a b64token. sent
// says a header was there at all; a header with another scheme or a
// malformed token gives ok false. A token in the query string or the body
// is never read.
func BearerToken(h http.Header) (token string, sent, ok bool) {
	vals := h.Values("Authorization")
	if len(vals) == 0 {
		return "", false, false
	}
	if len(vals) > 1 {
		return "", true, false
	}
	return ParseBearer(vals[0])
}

// ParseBearer reads one Authorization header value as BearerToken does.
// The grammar is small enough that a parser library would add more than
// it saves.
func ParseBearer(v string) (token string, sent, ok bool) {
	const scheme = "bearer"
	if len(v) <= len(scheme) || !strings.EqualFold(v[:len(scheme)], scheme) || v[len(scheme)] != ' ' {
		return "", true, false
	}
	t := strings.TrimLeft(v[len(scheme):], " ")
	t = strings.TrimRight(t, " ")
	if !b64token(t) {
		return "", true, false
	}
	return t, true, true
}

// b64token reports whether t is 1*( ALPHA / DIGIT / "-" / "." / "_" / "~"
// / "+" / "/" ) *"=", the token syntax of RFC 6750.
func b64token(t string) bool {
	i := 0
	for ; i < len(t); i++ {
		c := t[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/') {
			break
		}
	}
	if i == 0 {
		return false
	}
	for ; i < len(t); i++ {
		if t[i] != '=' {
			return false
		}
	}
	return true
}

// Challenge returns a WWW-Authenticate value: Bearer with error (when not
// empty), scope (the scopes joined by spaces, without offline_access;
// omitted when none) and resource_metadata, each a quoted string. A
// quote or backslash is escaped; a control character or a byte outside
// ASCII, which no quoted string carries safely, is percent-encoded.
func Challenge(errCode string, scopes []string, metadataURL string) string {
	var b strings.Builder
	b.WriteString("Bearer ")
	sep := ""
	if errCode != "" {
		b.WriteString(`error=`)
		quote(&b, errCode)
		sep = ", "
	}
	if sc := withoutOffline(scopes); len(sc) > 0 {
		b.WriteString(sep + `scope=`)
		quote(&b, strings.Join(sc, " "))
		sep = ", "
	}
	b.WriteString(sep + `resource_metadata=`)
	quote(&b, metadataURL)
	return b.String()
}

func quote(b *strings.Builder, s string) {
	const hex = "0123456789ABCDEF"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c >= 0x7f:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

// The reasons of a refused request, as the servers tell them to the
// interceptors and to the log (mcpserver.Refusal).
const (
	ReasonMissingToken  = "missing_token"      // 401: no token
	ReasonInvalidToken  = "invalid_token"      // 401: a token malformed or refused by the verifier
	ReasonScope         = "insufficient_scope" // 403: a scope the request needs is not granted
	ReasonUnknown       = "unknown_session"    // 404: no session of this id, or another principal's
	ReasonNoSession     = "missing_session"    // 400: a session's request without Mcp-Session-Id
	ReasonBadRequest    = "bad_request"        // 400: headers, _meta or arguments the request cannot be served with
	ReasonDPoPProof     = "invalid_dpop_proof" // 401: a DPoP proof missing, malformed or not of this request
	ReasonDPoPNonce     = "use_dpop_nonce"     // 401: a DPoP proof without the server's current nonce
	ReasonReplayCache   = "replay_cache"       // 503: the DPoP replay cache could not tell whether a proof is new
	MessageUnauthorized = "Unauthorized"
	MessageUnknown      = "Not Found: unknown session"
	MessageReplayCache  = "Service Unavailable: the DPoP replay cache cannot be reached"
)

// Authenticate verifies the token of r. On success it returns the
// token's information and r with it in its context (mcprt.Token); on
// failure it has answered 401 with the challenge and returns nil. The raw
// token never reaches the log: a verifier's error is logged with every
// occurrence of the token replaced.
func (g *Gate) Authenticate(w http.ResponseWriter, r *http.Request, log *slog.Logger) (*mcprt.TokenInfo, *http.Request) {
	t, r2, d := g.Verify(w, r, log)
	if t == nil {
		g.Unauthorized(w, d)
		return nil, nil
	}
	return t, r2
}

// Denial is why Verify refused a request's credentials, and how
// Unauthorized answers it, so that a server may read the request in
// between. It is read only: a gate hands out the same one many times.
type Denial struct {
	Status     int      // 401, or 503 when the DPoP replay cache cannot tell
	Reason     string   // one of the Reason constants
	Message    string   // the text of the answer
	Challenges []string // the WWW-Authenticate values
	nonce      bool     // a fresh DPoP nonce goes in DPoP-Nonce
}

// Verify verifies the token of r, as Authenticate does, but answers
// nothing: on failure it returns the denial for Unauthorized. On a gate
// that takes DPoP it is VerifyDPoP, which may set a renewed DPoP-Nonce
// in w's header on success; otherwise w is left alone.
func (g *Gate) Verify(w http.ResponseWriter, r *http.Request, log *slog.Logger) (*mcprt.TokenInfo, *http.Request, *Denial) {
	if g.dpop != nil {
		return g.VerifyDPoP(w, r, log)
	}
	token, sent, ok := BearerToken(r.Header)
	if !ok {
		if sent {
			return nil, nil, g.denyBadToken
		}
		return nil, nil, g.denyNoToken
	}
	info, err := g.verifier.VerifyToken(r.Context(), token)
	if err != nil {
		if log != nil {
			log.LogAttrs(r.Context(), slog.LevelInfo, "mcp: bearer token refused",
				slog.String("error", strings.ReplaceAll(err.Error(), token, "[token]")))
		}
		return nil, nil, g.denyBadToken
	}
	if BoundKey(&info) != "" {
		// A bearer cannot prove it holds the key the token is bound to.
		if log != nil {
			log.LogAttrs(r.Context(), slog.LevelInfo, "mcp: bearer token refused",
				slog.String("error", "the token is DPoP-bound, and this resource takes no DPoP"))
		}
		return nil, nil, g.denyBadToken
	}
	info.DPoPThumbprint = "" // no proof was checked
	t := &info
	return t, r.WithContext(ctxkey.WithToken(r.Context(), t)), nil
}

// Unauthorized answers d, a denial of Verify: 401 with its challenge, or
// on a gate that takes DPoP as AnswerDPoP does.
func (g *Gate) Unauthorized(w http.ResponseWriter, d *Denial) {
	if g.dpop != nil {
		g.AnswerDPoP(w, d)
		return
	}
	w.Header().Set("WWW-Authenticate", d.Challenges[0])
	http.Error(w, d.Message, d.Status)
}

// Need returns every scope an operation that declares op needs: the
// gate's Scopes then op's, each once.
func (g *Gate) Need(op []string) []string {
	if len(op) == 0 {
		return g.scopes
	}
	if len(g.scopes) == 0 {
		return op
	}
	return Union(g.scopes, op)
}

// Lacks reports whether t lacks any of need.
func Lacks(t *mcprt.TokenInfo, need []string) bool {
	for _, s := range need {
		if !slices.Contains(t.Scopes, s) {
			return true
		}
	}
	return false
}

// Forbid answers 403 insufficient_scope naming need, with body (a
// JSON-RPC error response) as JSON, in a Bearer challenge; ForbidToken
// answers in the scheme of the request's token.
func (g *Gate) Forbid(w http.ResponseWriter, need []string, body []byte) {
	g.ForbidToken(w, nil, need, body)
}

// ScopeMessage is the JSON-RPC error message of an operation refused for
// lack of scope.
func ScopeMessage(need []string) string {
	return "insufficient scope: this request needs the scopes " + strings.Join(withoutOffline(need), " ")
}

// Metadata returns the RFC 9728 document. Without ScopesSupported it
// publishes Scopes and declared, the scopes of the operations served now,
// which may change as they come and go; offline_access is never listed.
func (g *Gate) Metadata(declared []string) []byte {
	supported := g.supported
	if supported == nil {
		supported = Union(g.scopes, declared)
	}
	algs, req := g.DPoPMetadata()
	var required *bool // published with DPoP only
	if algs != nil {
		required = &req
	}
	doc, _ := json.Marshal(struct { // strings, lists of strings and a bool only
		Resource        string   `json:"resource"`
		Servers         []string `json:"authorization_servers"`
		ScopesSupported []string `json:"scopes_supported,omitempty"`
		Methods         []string `json:"bearer_methods_supported"`
		DPoPAlgs        []string `json:"dpop_signing_alg_values_supported,omitempty"`
		DPoPRequired    *bool    `json:"dpop_bound_access_tokens_required,omitempty"`
	}{g.resource, g.servers, withoutOffline(supported), []string{"header"}, algs, required})
	return doc
}

// MetadataHandler serves the gate's RFC 9728 document to GET and HEAD,
// to any origin, as browsers' clients need. declared returns the scopes
// of the operations served, read at each request.
func (g *Gate) MetadataHandler(declared func() []string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		switch r.Method {
		case http.MethodGet, http.MethodHead:
		case http.MethodOptions:
			h.Set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
			h.Set("Access-Control-Allow-Headers", "*")
			w.WriteHeader(http.StatusNoContent)
			return
		default:
			h.Set("Allow", "GET, HEAD, OPTIONS")
			http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
			return
		}
		h.Set("Content-Type", "application/json")
		h.Set("Cache-Control", "max-age=3600")
		var d []string
		if declared != nil {
			d = declared()
		}
		w.Write(g.Metadata(d))
	})
}

// MetadataPathOf returns the path part of the gate's metadata URL, where
// a handler at the root of the resource's host serves the document.
func (g *Gate) MetadataPathOf() string {
	u, _ := url.Parse(g.metadataURL) // made by MetadataURL
	return u.EscapedPath()
}

// Principal names whom t speaks for: its issuer and subject, "" for no
// token, so that a server without authorization binds nothing.
func Principal(t *mcprt.TokenInfo) string {
	if t == nil {
		return ""
	}
	return t.Issuer + "\x00" + t.Subject
}

// Digest is a short digest of a principal, for what a client holds (a
// request state), so that it discloses neither issuer nor subject.
func Digest(principal string) string {
	if principal == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(principal))
	return base64.RawURLEncoding.EncodeToString(sum[:18])
}
