package mcpauth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// Both verifiers are what mcpserver.Auth takes.
var (
	_ mcpserver.TokenVerifier = (*JWT)(nil)
	_ mcpserver.TokenVerifier = (*Introspection)(nil)
)

const (
	testIssuer   = "https://auth.example.com"
	testAudience = "https://kb.example.com/mcp"
)

// testKey is a signing key of the tests and its public JWK.
type testKey struct {
	kid    string
	method jwt.SigningMethod
	priv   crypto.Signer
	use    string // the JWK's use; empty means "sig"
}

var (
	keysOnce sync.Once
	rsaA     *rsa.PrivateKey
	rsaB     *rsa.PrivateKey
	ecKey    *ecdsa.PrivateKey
	edKey    ed25519.PrivateKey
)

// keys returns the tests' keys, generated once: two RSA keys (for
// rotation), an ECDSA P-256 and an Ed25519 key.
func keys(t testing.TB) (a, b, ec, ed testKey) {
	t.Helper()
	keysOnce.Do(func() {
		var err error
		if rsaA, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
			panic(err)
		}
		if rsaB, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
			panic(err)
		}
		if ecKey, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader); err != nil {
			panic(err)
		}
		if _, edKey, err = ed25519.GenerateKey(rand.Reader); err != nil {
			panic(err)
		}
	})
	return testKey{kid: "rsa-a", method: jwt.SigningMethodRS256, priv: rsaA},
		testKey{kid: "rsa-b", method: jwt.SigningMethodRS256, priv: rsaB},
		testKey{kid: "ec", method: jwt.SigningMethodES256, priv: ecKey},
		testKey{kid: "ed", method: jwt.SigningMethodEdDSA, priv: edKey}
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// jwk writes k's public key as a JSON Web Key (RFC 7517, RFC 8037), by
// hand rather than with the library under test.
func (k testKey) jwk() map[string]any {
	m := map[string]any{"kid": k.kid, "use": "sig"}
	if k.use != "" {
		m["use"] = k.use
	}
	switch pub := k.priv.Public().(type) {
	case *rsa.PublicKey:
		m["kty"], m["n"], m["e"] = "RSA", b64(pub.N.Bytes()), b64(big.NewInt(int64(pub.E)).Bytes())
	case *ecdsa.PublicKey:
		raw, err := pub.Bytes()
		if err != nil {
			panic(err)
		}
		m["kty"], m["crv"], m["x"], m["y"] = "EC", "P-256", b64(raw[1:33]), b64(raw[33:])
	case ed25519.PublicKey:
		m["kty"], m["crv"], m["x"] = "OKP", "Ed25519", b64(pub)
	}
	return m
}

// sign makes a token signed by k with the given header fields and claims.
func (k testKey) sign(t testing.TB, header map[string]any, claims jwt.MapClaims) string {
	t.Helper()
	tok := jwt.NewWithClaims(k.method, claims)
	tok.Header["kid"] = k.kid
	tok.Header["typ"] = "at+jwt"
	for h, v := range header {
		if v == nil {
			delete(tok.Header, h)
		} else {
			tok.Header[h] = v
		}
	}
	s, err := tok.SignedString(k.priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// keyServer serves a JWKS that tests may change, and counts its fetches.
type keyServer struct {
	URL string
	// client reaches a server without a listener; nil for one over HTTP.
	client  *http.Client
	mu      sync.Mutex
	keys    []testKey
	fetches atomic.Int32
}

// newKeyServer serves the key set over HTTP on loopback.
func newKeyServer(t testing.TB, ks ...testKey) *keyServer {
	s := &keyServer{keys: ks}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// newMemKeyServer serves the key set in memory, to the client newTestJWT
// gives the verifier: no socket, so that it runs in a synctest bubble,
// whose clock moves only while every goroutine waits on another.
func newMemKeyServer(ks ...testKey) *keyServer {
	s := &keyServer{URL: "http://keys.test/jwks", keys: ks}
	s.client = &http.Client{Transport: handlerTransport{s}}
	return s
}

func (s *keyServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.fetches.Add(1)
	s.mu.Lock()
	set := map[string]any{"keys": []any{}}
	for _, k := range s.keys {
		set["keys"] = append(set["keys"].([]any), k.jwk())
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(set)
}

// handlerTransport answers each request with its handler, in the
// caller's goroutine.
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	resp := rec.Result()
	resp.Request = r
	return resp, nil
}

// set replaces the served keys.
func (s *keyServer) set(ks ...testKey) {
	s.mu.Lock()
	s.keys = ks
	s.mu.Unlock()
}

// testNow is the tests' clock: tokens are made relative to it and
// verifiers read it.
var testNow = time.Unix(1_800_000_000, 0)

// claims returns valid claims at testNow, changed by the pairs of
// changes (a nil value deletes the claim).
func claims(changes ...any) jwt.MapClaims {
	c := jwt.MapClaims{
		"iss":       testIssuer,
		"sub":       "alice",
		"aud":       testAudience,
		"exp":       testNow.Add(time.Hour).Unix(),
		"iat":       testNow.Add(-time.Minute).Unix(),
		"jti":       "token-1",
		"client_id": "client-1",
		"scope":     "kb.read kb.write",
		"tenant":    "acme",
	}
	for i := 0; i+1 < len(changes); i += 2 {
		name := changes[i].(string)
		if changes[i+1] == nil {
			delete(c, name)
		} else {
			c[name] = changes[i+1]
		}
	}
	return c
}

// newTestJWT returns a verifier of the key server's keys whose clock
// stands at testNow.
func newTestJWT(t *testing.T, s *keyServer, o JWTOptions) *JWT {
	t.Helper()
	if o.Issuer == "" {
		o.Issuer = testIssuer
	}
	if o.Audience == "" {
		o.Audience = testAudience
	}
	if o.JWKSURL == "" && s != nil {
		o.JWKSURL = s.URL
	}
	if o.HTTPClient == nil && s != nil {
		o.HTTPClient = s.client
	}
	v, err := NewJWT(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	v.now = func() time.Time { return testNow }
	return v
}

// countKeyLookups makes v count the signature checks it starts.
func countKeyLookups(v *JWT) *atomic.Int32 {
	var n atomic.Int32
	keys := v.keys
	v.keys = func(ctx context.Context) jwt.Keyfunc {
		f := keys(ctx)
		return func(t *jwt.Token) (any, error) {
			n.Add(1)
			return f(t)
		}
	}
	return &n
}

// mustVerify verifies token and fails the test on a refusal.
func mustVerify(t *testing.T, v mcpserver.TokenVerifier, token string) mcprt.TokenInfo {
	t.Helper()
	info, err := v.VerifyToken(t.Context(), token)
	if err != nil {
		t.Fatalf("VerifyToken: %v", err)
	}
	return info
}
