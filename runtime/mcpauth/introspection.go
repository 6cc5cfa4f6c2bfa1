package mcpauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// IntrospectionOptions configure [NewIntrospection]. URL is required.
type IntrospectionOptions struct {
	// URL is the authorization server's introspection endpoint.
	URL string
	// ClientID and ClientSecret are this server's credentials at the
	// authorization server, sent as HTTP Basic authentication
	// (client_secret_basic).
	ClientID, ClientSecret string
	// Audience, when set, must be in the token's aud (RFC 8707), compared
	// as JWTOptions.Audience is.
	Audience string
	// Issuer, when set, must equal the iss of an answer that has one, and
	// is the Issuer of the TokenInfo of an answer that has none.
	Issuer string
	// ImpliedScopes are the scopes each scope implies, as in JWTOptions.
	ImpliedScopes map[string][]string
	// HTTPClient sends the requests. Nil means a client whose requests
	// time out after DefaultHTTPTimeout.
	HTTPClient *http.Client
	// Leeway is the clock skew allowed on exp and nbf. Zero means
	// DefaultLeeway; a negative value allows none.
	Leeway time.Duration
	// CacheSize is how many accepted tokens are remembered. Zero means
	// DefaultCacheSize; a negative value turns the cache off, so that
	// every request asks the authorization server.
	CacheSize int
	// CacheTTL is the longest an accepted token is remembered without
	// asking again. Zero means DefaultCacheTTL.
	CacheTTL time.Duration
}

// Introspection verifies opaque access tokens by asking the
// authorization server about them (RFC 7662). It is safe for concurrent
// use.
type Introspection struct {
	o        IntrospectionOptions
	audience string // canonical
	leeway   time.Duration
	client   *http.Client
	cache    *tokenCache
	now      func() time.Time
}

// NewIntrospection returns a verifier asking the endpoint at o.URL. It
// makes no request until a token comes.
func NewIntrospection(o IntrospectionOptions) *Introspection {
	v := &Introspection{
		o:      o,
		leeway: leeway(o.Leeway),
		client: o.HTTPClient,
		cache:  newTokenCache(o.CacheSize, o.CacheTTL),
		now:    time.Now,
	}
	if o.Audience != "" {
		v.audience = canonicalResource(o.Audience)
	}
	if v.client == nil {
		v.client = &http.Client{Timeout: DefaultHTTPTimeout}
	}
	return v
}

// VerifyToken asks the authorization server about token and returns what
// it grants. It refuses a token the server says is not active, one that
// has expired or is not yet valid, one of another issuer (when Issuer is
// set) and one for another audience (when Audience is set).
func (v *Introspection) VerifyToken(ctx context.Context, token string) (mcprt.TokenInfo, error) {
	now := v.now()
	if info, ok := v.cache.get(token, now); ok {
		return info, nil
	}
	answer, err := v.introspect(ctx, token)
	if err != nil {
		return mcprt.TokenInfo{}, err
	}
	if active, _ := answer["active"].(bool); !active {
		return mcprt.TokenInfo{}, refuse("token is not active")
	}
	if exp, ok := answer["exp"].(float64); ok && now.After(time.Unix(int64(exp), 0).Add(v.leeway)) {
		return mcprt.TokenInfo{}, refuse("token is expired")
	}
	if nbf, ok := answer["nbf"].(float64); ok && now.Add(v.leeway).Before(time.Unix(int64(nbf), 0)) {
		return mcprt.TokenInfo{}, refuse("token is not valid yet")
	}
	if v.o.Issuer != "" {
		if iss, ok := answer["iss"]; !ok {
			answer["iss"] = v.o.Issuer
		} else if iss != v.o.Issuer {
			return mcprt.TokenInfo{}, refuse("token is of another issuer")
		}
	}
	if v.audience != "" {
		if err := checkAudience(answer, v.audience); err != nil {
			return mcprt.TokenInfo{}, err
		}
	}
	info := tokenInfo(answer, v.o.ImpliedScopes)
	delete(info.Claims, "active")
	v.cache.put(token, info, now)
	return info, nil
}

// introspect posts token to the endpoint and decodes the answer. Its
// errors name the endpoint, never the token.
func (v *Introspection) introspect(ctx context.Context, token string) (map[string]any, error) {
	if v.o.URL == "" {
		return nil, errors.New("mcpauth: IntrospectionOptions.URL is empty")
	}
	form := url.Values{"token": {token}, "token_type_hint": {"access_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, v.o.URL, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, fmt.Errorf("mcpauth: introspection: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if v.o.ClientID != "" {
		// RFC 6749 §2.3.1: both are form-encoded before Basic encoding.
		req.SetBasicAuth(url.QueryEscape(v.o.ClientID), url.QueryEscape(v.o.ClientSecret))
	}
	resp, err := v.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("mcpauth: introspection: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("mcpauth: introspection at %s: %s", v.o.URL, resp.Status)
	}
	var answer map[string]any
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxDocument)).Decode(&answer); err != nil {
		return nil, fmt.Errorf("mcpauth: introspection at %s: %v", v.o.URL, err)
	}
	if answer == nil {
		return nil, fmt.Errorf("mcpauth: introspection at %s: the answer is not a JSON object", v.o.URL)
	}
	return answer, nil
}
