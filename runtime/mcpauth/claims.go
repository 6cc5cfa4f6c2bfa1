package mcpauth

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// ErrInvalidToken is wrapped by every refusal of a token: malformed,
// expired, not yet valid, badly signed, inactive, or of another issuer or
// audience. An error that does not wrap it means the token could not be
// checked at all.
var ErrInvalidToken = errors.New("mcpauth: invalid token")

// DefaultLeeway is the clock skew allowed on exp and nbf when the options
// leave Leeway zero.
const DefaultLeeway = 30 * time.Second

// refuse returns a refusal saying why.
func refuse(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidToken, fmt.Sprintf(format, args...))
}

// leeway returns the clock skew options ask for: zero means the default,
// a negative value none.
func leeway(d time.Duration) time.Duration {
	switch {
	case d == 0:
		return DefaultLeeway
	case d < 0:
		return 0
	}
	return d
}

// mapped are the claims that become fields of mcprt.TokenInfo, and so are
// left out of its Claims.
var mapped = []string{"iss", "sub", "exp", "client_id", "scope", "scp"}

// tokenInfo makes the TokenInfo of a token's claims: the scopes from
// "scope" (a space-separated string, RFC 9068 and RFC 7662) or else "scp"
// (an array or a string, as some servers issue) with those they imply,
// the client from "client_id" or else "azp", and every other claim in
// Claims.
func tokenInfo(claims map[string]any, implied map[string][]string) mcprt.TokenInfo {
	info := mcprt.TokenInfo{
		Issuer:   stringClaim(claims, "iss"),
		Subject:  stringClaim(claims, "sub"),
		ClientID: stringClaim(claims, "client_id"),
		Scopes:   withImplied(scopes(claims), implied),
	}
	if info.ClientID == "" {
		info.ClientID = stringClaim(claims, "azp")
	}
	if exp, ok := claims["exp"].(float64); ok {
		info.Expires = time.Unix(int64(exp), 0)
	}
	info.Claims = maps.Clone(claims)
	for _, k := range mapped {
		delete(info.Claims, k)
	}
	return info
}

func stringClaim(claims map[string]any, name string) string {
	s, _ := claims[name].(string)
	return s
}

// scopes reads the granted scopes of claims.
func scopes(claims map[string]any) []string {
	v, ok := claims["scope"]
	if !ok {
		v = claims["scp"]
	}
	switch v := v.(type) {
	case string:
		return strings.Fields(v)
	case []any:
		var out []string
		for _, s := range v {
			if s, ok := s.(string); ok && s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// withImplied adds to granted the scopes they imply, and those the added
// ones imply in turn, each once, after the granted ones.
func withImplied(granted []string, implied map[string][]string) []string {
	if len(implied) == 0 {
		return granted
	}
	for i := 0; i < len(granted); i++ {
		for _, s := range implied[granted[i]] {
			if !slices.Contains(granted, s) {
				granted = append(granted, s)
			}
		}
	}
	return granted
}

// audiences reads the "aud" claim, a string or an array of strings.
func audiences(claims map[string]any) []string {
	switch v := claims["aud"].(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, s := range v {
			if s, ok := s.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// checkAudience refuses claims whose audience does not include the
// resource (normalized by canonicalResource).
func checkAudience(claims map[string]any, resource string) error {
	auds := audiences(claims)
	for _, a := range auds {
		if canonicalResource(a) == resource {
			return nil
		}
	}
	if len(auds) == 0 {
		return refuse("token has no audience")
	}
	return refuse("token is for another audience")
}

// canonicalResource normalizes a resource URI for comparison: the scheme
// and host in lower case, no fragment, no trailing slash. RFC 8707 and the
// MCP specification name a resource by its URI without a trailing slash,
// yet authorization servers differ in whether they keep one, and the
// specification asks that an upper-case scheme or host be accepted.
func canonicalResource(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return strings.TrimSuffix(s, "/")
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	u.Fragment, u.RawFragment = "", ""
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = strings.TrimSuffix(u.RawPath, "/")
	return u.String()
}
