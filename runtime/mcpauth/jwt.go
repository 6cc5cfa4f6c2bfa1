package mcpauth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/MicahParks/jwkset"
	"github.com/MicahParks/keyfunc/v3"
	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/time/rate"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// DefaultAlgorithms are the signature algorithms a JWT verifier accepts
// when its options name none: every asymmetric one of RFC 7518 and
// RFC 8037. HMAC algorithms are never accepted, since a key set holds
// public keys that anyone could sign with; "none" never is either.
var DefaultAlgorithms = []string{
	"RS256", "RS384", "RS512",
	"PS256", "PS384", "PS512",
	"ES256", "ES384", "ES512",
	"EdDSA",
}

// Defaults of JWTOptions.
const (
	DefaultRefreshInterval   = time.Hour
	DefaultUnknownKeyRefresh = 5 * time.Minute
	// DefaultHTTPTimeout bounds each request to the authorization server
	// made by a verifier whose options give no HTTPClient.
	DefaultHTTPTimeout = 10 * time.Second
)

// JWTOptions configure [NewJWT]. Issuer and Audience are required.
type JWTOptions struct {
	// Issuer is the authorization server's issuer identifier; a token's
	// iss must equal it.
	Issuer string
	// Audience is the server's canonical URI, as in mcpserver.Auth's
	// Resource; a token's aud must contain it (RFC 8707). Scheme and host
	// compare in any case, and a trailing slash is ignored.
	Audience string
	// JWKSURL is the URL of the issuer's key set. Empty means the
	// jwks_uri of the issuer's metadata (RFC 8414, else OpenID Connect
	// discovery), which must name the same issuer.
	JWKSURL string
	// Algorithms are the signature algorithms accepted, a subset of
	// DefaultAlgorithms. Nil means all of them.
	Algorithms []string
	// SkipTypeCheck accepts tokens whose typ header is not at+jwt
	// (RFC 9068), as some authorization servers issue access tokens typed
	// JWT or not at all. Without it such tokens are refused, so that an ID
	// token cannot pass for an access token.
	SkipTypeCheck bool
	// ImpliedScopes are the scopes each scope implies, for servers whose
	// scopes form a hierarchy ("kb:admin": {"kb:write"}, "kb:write":
	// {"kb:read"}): a token's Scopes include every scope its scopes imply,
	// directly or through others.
	ImpliedScopes map[string][]string
	// Leeway is the clock skew allowed on exp and nbf. Zero means
	// DefaultLeeway; a negative value allows none.
	Leeway time.Duration
	// RefreshInterval is how often the key set is fetched again in the
	// background. Zero means DefaultRefreshInterval.
	RefreshInterval time.Duration
	// UnknownKeyRefresh is the least time between two fetches of the key
	// set caused by tokens naming a key it lacks, so that forged key IDs
	// cannot flood the authorization server. Zero means
	// DefaultUnknownKeyRefresh.
	UnknownKeyRefresh time.Duration
	// HTTPClient fetches the metadata and the key set. Nil means a client
	// whose requests time out after DefaultHTTPTimeout.
	HTTPClient *http.Client
	// Logger is told when a background refresh of the key set fails. Nil
	// means slog.Default().
	Logger *slog.Logger
	// CacheSize is how many accepted tokens are remembered. Zero means
	// DefaultCacheSize; a negative value turns the cache off.
	CacheSize int
	// CacheTTL is the longest an accepted token is remembered without
	// checking it again. Zero means DefaultCacheTTL.
	CacheTTL time.Duration
}

// JWT verifies JSON Web Token access tokens against an issuer's key set.
// It is safe for concurrent use.
type JWT struct {
	issuer   string
	audience string // canonical
	typed    bool
	implied  map[string][]string
	parser   *jwt.Parser
	keys     func(context.Context) jwt.Keyfunc
	cache    *tokenCache
	now      func() time.Time
	stop     context.CancelFunc // ends the background refresh
}

// NewJWT returns a verifier of the tokens Issuer signs for Audience. It
// discovers the key set's URL when JWKSURL is empty and fetches the key
// set once, failing if it cannot. ctx bounds that work and the
// verifier's background refresh of the key set, which stops when ctx is
// done or Close is called.
func NewJWT(ctx context.Context, o JWTOptions) (*JWT, error) {
	if o.Issuer == "" {
		return nil, errors.New("mcpauth: JWTOptions.Issuer is empty")
	}
	if o.Audience == "" {
		return nil, errors.New("mcpauth: JWTOptions.Audience is empty")
	}
	algs, err := algorithms(o.Algorithms)
	if err != nil {
		return nil, err
	}
	client := o.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: DefaultHTTPTimeout}
	}
	jwksURL := o.JWKSURL
	if jwksURL == "" {
		if jwksURL, err = discoverJWKS(ctx, client, o.Issuer); err != nil {
			return nil, err
		}
	}
	ctx, stop := context.WithCancel(ctx)
	keys, err := keySet(ctx, client, jwksURL, o)
	if err != nil {
		stop()
		return nil, err
	}
	v := &JWT{
		stop:     stop,
		issuer:   o.Issuer,
		audience: canonicalResource(o.Audience),
		typed:    !o.SkipTypeCheck,
		implied:  o.ImpliedScopes,
		keys:     keys.KeyfuncCtx,
		cache:    newTokenCache(o.CacheSize, o.CacheTTL),
		now:      time.Now,
	}
	v.parser = jwt.NewParser(
		jwt.WithValidMethods(algs),
		jwt.WithIssuer(o.Issuer),
		jwt.WithExpirationRequired(),
		jwt.WithLeeway(leeway(o.Leeway)),
		jwt.WithTimeFunc(func() time.Time { return v.now() }),
	)
	return v, nil
}

// algorithms checks the algorithms options name.
func algorithms(names []string) ([]string, error) {
	if names == nil {
		return DefaultAlgorithms, nil
	}
	if len(names) == 0 {
		return nil, errors.New("mcpauth: JWTOptions.Algorithms is empty")
	}
	for _, n := range names {
		ok := false
		for _, d := range DefaultAlgorithms {
			ok = ok || n == d
		}
		if !ok {
			return nil, fmt.Errorf("mcpauth: algorithm %q cannot verify tokens with a key set; want some of %s", n, strings.Join(DefaultAlgorithms, ", "))
		}
	}
	return names, nil
}

// keySet fetches the key set at url and keeps it fresh: keyfunc refreshes
// it in the background, and again for a token naming an unknown key, at
// most once every UnknownKeyRefresh.
func keySet(ctx context.Context, client *http.Client, url string, o JWTOptions) (keyfunc.Keyfunc, error) {
	refresh := o.RefreshInterval
	if refresh <= 0 {
		refresh = DefaultRefreshInterval
	}
	unknown := o.UnknownKeyRefresh
	if unknown <= 0 {
		unknown = DefaultUnknownKeyRefresh
	}
	logger := o.Logger
	if logger == nil {
		logger = slog.Default()
	}
	timeout := client.Timeout
	if timeout <= 0 {
		timeout = DefaultHTTPTimeout
	}
	failFirst := false
	kf, err := keyfunc.NewDefaultOverrideCtx(ctx, []string{url}, keyfunc.Override{
		Client:                    client,
		HTTPTimeout:               timeout,
		NoErrorReturnFirstHTTPReq: &failFirst,
		RefreshInterval:           refresh,
		RefreshUnknownKID:         rate.NewLimiter(rate.Every(unknown), 1),
		// A token with an unknown key waits for the limiter only when
		// the next refresh is due within this long; otherwise it is
		// refused at once. The same bound covers the fetch.
		RateLimitWaitMax: timeout,
		RefreshErrorHandlerFunc: func(u string) func(context.Context, error) {
			return func(ctx context.Context, err error) {
				logger.WarnContext(ctx, "mcpauth: fetching the key set failed", "url", u, "error", err)
			}
		},
	})
	if err != nil {
		return nil, fmt.Errorf("mcpauth: key set %s: %w", url, err)
	}
	// Keys marked for encryption only are no signing keys.
	return keyfunc.New(keyfunc.Options{
		Ctx:          ctx,
		Storage:      kf.Storage(),
		UseWhitelist: []jwkset.USE{jwkset.UseSig, ""},
	})
}

// Close stops the background refresh of the key set. The verifier goes
// on working; only a token naming an unknown key then refreshes the set.
func (v *JWT) Close() {
	v.stop()
}

// VerifyToken checks token and returns what it grants. It refuses a
// token that is malformed, not typed at+jwt (unless SkipTypeCheck), signed
// with an algorithm not accepted or a key not in the issuer's key set,
// issued by another issuer or for another audience, without a subject,
// without an expiry or expired, or not yet valid.
func (v *JWT) VerifyToken(ctx context.Context, token string) (mcprt.TokenInfo, error) {
	now := v.now()
	if info, ok := v.cache.get(token, now); ok {
		return info, nil
	}
	claims := jwt.MapClaims{}
	if _, err := v.parser.ParseWithClaims(token, claims, v.key(ctx)); err != nil {
		return mcprt.TokenInfo{}, fmt.Errorf("%w: %w", ErrInvalidToken, err)
	}
	if sub, _ := claims["sub"].(string); sub == "" {
		return mcprt.TokenInfo{}, refuse("token has no subject")
	}
	if err := checkAudience(claims, v.audience); err != nil {
		return mcprt.TokenInfo{}, err
	}
	info := tokenInfo(claims, v.implied)
	v.cache.put(token, info, now)
	return info, nil
}

// key returns the key a token is signed with, once its type is right.
func (v *JWT) key(ctx context.Context) jwt.Keyfunc {
	keys := v.keys(ctx)
	return func(t *jwt.Token) (any, error) {
		if v.typed {
			typ, _ := t.Header["typ"].(string)
			// RFC 7515 §4.1.9: the "application/" prefix may be omitted,
			// and media types compare in any case.
			if strings.TrimPrefix(strings.ToLower(typ), "application/") != "at+jwt" {
				return nil, fmt.Errorf("typ is %q, want %q (RFC 9068)", typ, "at+jwt")
			}
		}
		return keys(t)
	}
}
