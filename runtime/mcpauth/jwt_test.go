package mcpauth

import (
	"crypto/x509"
	"encoding/pem"
	"errors"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/go-cmp/cmp"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

func TestJWTAccepts(t *testing.T) {
	t.Parallel()
	a, _, _, _ := keys(t)
	v := newTestJWT(t, newKeyServer(t, a), JWTOptions{})
	info := mustVerify(t, v, a.sign(t, nil, claims()))
	want := mcprt.TokenInfo{
		Issuer:   testIssuer,
		Subject:  "alice",
		ClientID: "client-1",
		Scopes:   []string{"kb.read", "kb.write"},
		Expires:  testNow.Add(time.Hour),
		Claims: map[string]any{
			"aud":    testAudience,
			"iat":    float64(testNow.Add(-time.Minute).Unix()),
			"jti":    "token-1",
			"tenant": "acme",
		},
	}
	if diff := cmp.Diff(want, info); diff != "" {
		t.Errorf("TokenInfo (-want +got):\n%s", diff)
	}
}

func TestJWTClaimForms(t *testing.T) {
	t.Parallel()
	a, _, _, _ := keys(t)
	v := newTestJWT(t, newKeyServer(t, a), JWTOptions{})
	for _, tc := range []struct {
		name       string
		claims     jwt.MapClaims
		scopes     []string
		clientID   string
		wantClaims []string // claims that stay in Claims
	}{
		{"scp array", claims("scope", nil, "scp", []string{"a", "b"}), []string{"a", "b"}, "client-1", nil},
		{"scp string", claims("scope", nil, "scp", "a b"), []string{"a", "b"}, "client-1", nil},
		{"scope wins over scp", claims("scp", []string{"x"}), []string{"kb.read", "kb.write"}, "client-1", nil},
		{"no scope", claims("scope", nil), nil, "client-1", nil},
		{"azp when no client_id", claims("client_id", nil, "azp", "client-2"), []string{"kb.read", "kb.write"}, "client-2", []string{"azp"}},
		{"aud array", claims("aud", []string{"https://other.example.com", testAudience}), []string{"kb.read", "kb.write"}, "client-1", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			info := mustVerify(t, v, a.sign(t, nil, tc.claims))
			if !slices.Equal(info.Scopes, tc.scopes) || info.ClientID != tc.clientID {
				t.Errorf("Scopes %q, ClientID %q; want %q, %q", info.Scopes, info.ClientID, tc.scopes, tc.clientID)
			}
			for _, c := range mapped {
				if _, ok := info.Claims[c]; ok {
					t.Errorf("Claims has %q, which TokenInfo holds", c)
				}
			}
			for _, c := range tc.wantClaims {
				if _, ok := info.Claims[c]; !ok {
					t.Errorf("Claims lacks %q", c)
				}
			}
		})
	}
}

func TestImpliedScopes(t *testing.T) {
	t.Parallel()
	a, _, _, _ := keys(t)
	implied := map[string][]string{"kb:admin": {"kb:write", "kb:audit"}, "kb:write": {"kb:read"}, "kb:read": {"kb:admin"}}
	v := newTestJWT(t, newKeyServer(t, a), JWTOptions{ImpliedScopes: implied})
	info := mustVerify(t, v, a.sign(t, nil, claims("scope", "kb:admin other")))
	if want := []string{"kb:admin", "other", "kb:write", "kb:audit", "kb:read"}; !slices.Equal(info.Scopes, want) {
		t.Errorf("Scopes %q, want %q", info.Scopes, want)
	}
	s := newIntroServer(t, map[string]map[string]any{"opaque-write": activeAnswer("scope", "kb:write")})
	iv := newTestIntrospection(s, IntrospectionOptions{ImpliedScopes: implied})
	if info := mustVerify(t, iv, "opaque-write"); !slices.Equal(info.Scopes, []string{"kb:write", "kb:read", "kb:admin", "kb:audit"}) {
		t.Errorf("introspected Scopes %q", info.Scopes)
	}
}

func TestJWTAlgorithms(t *testing.T) {
	t.Parallel()
	a, _, ec, ed := keys(t)
	ps := testKey{kid: "rsa-a", method: jwt.SigningMethodPS256, priv: a.priv}
	v := newTestJWT(t, newKeyServer(t, a, ec, ed), JWTOptions{})
	for _, k := range []testKey{a, ps, ec, ed} {
		t.Run(k.method.Alg(), func(t *testing.T) {
			mustVerify(t, v, k.sign(t, map[string]any{"jti": k.method.Alg()}, claims("jti", k.method.Alg())))
		})
	}
	t.Run("no kid", func(t *testing.T) {
		mustVerify(t, v, ec.sign(t, map[string]any{"kid": nil}, claims("jti", "no kid")))
	})
	t.Run("typ application/at+jwt", func(t *testing.T) {
		mustVerify(t, v, a.sign(t, map[string]any{"typ": "application/AT+JWT"}, claims("jti", "typ")))
	})
	t.Run("only those named", func(t *testing.T) {
		only := newTestJWT(t, newKeyServer(t, a, ec), JWTOptions{Algorithms: []string{"ES256"}})
		mustVerify(t, only, ec.sign(t, nil, claims()))
		if _, err := only.VerifyToken(t.Context(), a.sign(t, nil, claims())); !errors.Is(err, ErrInvalidToken) {
			t.Errorf("RS256 with Algorithms [ES256]: %v, want a refusal", err)
		}
	})
}

func TestJWTLeeway(t *testing.T) {
	t.Parallel()
	a, _, _, _ := keys(t)
	v := newTestJWT(t, newKeyServer(t, a), JWTOptions{CacheSize: -1})
	expired := a.sign(t, nil, claims("exp", testNow.Add(-20*time.Second).Unix()))
	early := a.sign(t, nil, claims("nbf", testNow.Add(20*time.Second).Unix()))
	mustVerify(t, v, expired)
	mustVerify(t, v, early)
	strict := newTestJWT(t, newKeyServer(t, a), JWTOptions{CacheSize: -1, Leeway: -1})
	for _, tok := range []string{expired, early} {
		if _, err := strict.VerifyToken(t.Context(), tok); !errors.Is(err, ErrInvalidToken) {
			t.Errorf("with no leeway: %v, want a refusal", err)
		}
	}
}

// TestJWTRefusals checks each way a token is refused: always with an
// error wrapping ErrInvalidToken that says why and does not quote the
// token.
func TestJWTRefusals(t *testing.T) {
	t.Parallel()
	a, b, _, _ := keys(t)
	v := newTestJWT(t, newKeyServer(t, a), JWTOptions{})
	valid := a.sign(t, nil, claims())
	der, err := x509.MarshalPKIXPublicKey(a.priv.Public())
	if err != nil {
		t.Fatal(err)
	}
	publicPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	hs256 := func(key []byte) string {
		tok := jwt.NewWithClaims(jwt.SigningMethodHS256, claims())
		tok.Header["kid"], tok.Header["typ"] = a.kid, "at+jwt"
		s, err := tok.SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	none := jwt.NewWithClaims(jwt.SigningMethodNone, claims())
	none.Header["kid"], none.Header["typ"] = a.kid, "at+jwt"
	noneToken, err := none.SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(valid, ".")
	sig := []byte(parts[2])
	if sig[10] == 'A' {
		sig[10] = 'B'
	} else {
		sig[10] = 'A'
	}
	flipped := parts[0] + "." + parts[1] + "." + string(sig)

	for _, tc := range []struct {
		name, token, why string
	}{
		{"empty", "", "malformed"},
		{"not a JWT", "opaque-token-value", "malformed"},
		{"garbage parts", "a.b.c", "malformed"},
		{"flipped signature", flipped, "signature is invalid"},
		{"expired past the leeway", a.sign(t, nil, claims("exp", testNow.Add(-time.Minute).Unix())), "expired"},
		{"not valid before a time to come", a.sign(t, nil, claims("nbf", testNow.Add(time.Minute).Unix())), "not valid yet"},
		{"no expiry", a.sign(t, nil, claims("exp", nil)), "exp claim is required"},
		{"other issuer", a.sign(t, nil, claims("iss", "https://evil.example.com")), "invalid issuer"},
		{"no issuer", a.sign(t, nil, claims("iss", nil)), "iss claim is required"},
		{"other audience", a.sign(t, nil, claims("aud", "https://other.example.com/mcp")), "another audience"},
		{"audience a path below", a.sign(t, nil, claims("aud", testAudience+"/x")), "another audience"},
		{"no audience", a.sign(t, nil, claims("aud", nil)), "no audience"},
		{"no subject", a.sign(t, nil, claims("sub", nil)), "no subject"},
		{"alg none", noneToken, "signing method none is invalid"},
		{"HS256 with the RSA public key as secret", hs256(publicPEM), "signing method HS256 is invalid"},
		{"HS256 with the RSA key's DER", hs256(der), "signing method HS256 is invalid"},
		{"typ JWT", a.sign(t, map[string]any{"typ": "JWT"}, claims()), `typ is "JWT"`},
		{"no typ", a.sign(t, map[string]any{"typ": nil}, claims()), `typ is ""`},
		{"signed by another key under a known kid", testKey{kid: a.kid, method: a.method, priv: b.priv}.sign(t, nil, claims()), "signature is invalid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := v.VerifyToken(t.Context(), tc.token)
			if !errors.Is(err, ErrInvalidToken) {
				t.Fatalf("VerifyToken: %v, want an error wrapping ErrInvalidToken", err)
			}
			t.Log(err)
			if !strings.Contains(err.Error(), tc.why) {
				t.Errorf("error %q does not say %q", err, tc.why)
			}
			if tc.token != "" && strings.Contains(err.Error(), tc.token) {
				t.Errorf("error quotes the token: %q", err)
			}
		})
	}
}

// TestJWTEncryptionKey checks that a key the set marks for encryption
// verifies no signature.
func TestJWTEncryptionKey(t *testing.T) {
	t.Parallel()
	a, _, _, _ := keys(t)
	enc := a
	enc.use = "enc"
	v := newTestJWT(t, newKeyServer(t, enc), JWTOptions{})
	if _, err := v.VerifyToken(t.Context(), a.sign(t, nil, claims())); !errors.Is(err, ErrInvalidToken) {
		t.Errorf("token signed by an encryption key: %v, want a refusal", err)
	}
}

func TestJWTSkipTypeCheck(t *testing.T) {
	t.Parallel()
	a, _, _, _ := keys(t)
	v := newTestJWT(t, newKeyServer(t, a), JWTOptions{SkipTypeCheck: true})
	mustVerify(t, v, a.sign(t, map[string]any{"typ": "JWT"}, claims()))
	mustVerify(t, v, a.sign(t, map[string]any{"typ": nil}, claims("jti", "2")))
}

func TestJWTAudience(t *testing.T) {
	t.Parallel()
	a, _, _, _ := keys(t)
	for _, tc := range []struct{ option, aud string }{
		{testAudience, testAudience + "/"},
		{testAudience + "/", testAudience},
		{testAudience, "HTTPS://KB.Example.COM/mcp"},
		{"https://KB.example.com/mcp", testAudience},
		{"kb-api", "kb-api"},
	} {
		t.Run(tc.option+" "+tc.aud, func(t *testing.T) {
			v := newTestJWT(t, newKeyServer(t, a), JWTOptions{Audience: tc.option})
			mustVerify(t, v, a.sign(t, nil, claims("aud", tc.aud)))
		})
	}
	t.Run("path compares exactly", func(t *testing.T) {
		v := newTestJWT(t, newKeyServer(t, a), JWTOptions{})
		if _, err := v.VerifyToken(t.Context(), a.sign(t, nil, claims("aud", "https://kb.example.com/MCP"))); !errors.Is(err, ErrInvalidToken) {
			t.Errorf("aud with the path in upper case: %v, want a refusal", err)
		}
	})
}

// TestJWTUnknownKey checks that a token naming a key the set lacks makes
// the verifier fetch the set once, then is refused, and that the next
// such token within UnknownKeyRefresh fetches nothing.
func TestJWTUnknownKey(t *testing.T) {
	t.Parallel()
	a, b, _, _ := keys(t)
	s := newKeyServer(t, a)
	v := newTestJWT(t, s, JWTOptions{})
	if got := s.fetches.Load(); got != 1 {
		t.Fatalf("%d fetches after NewJWT, want 1", got)
	}
	for i, want := range []int32{2, 2} {
		_, err := v.VerifyToken(t.Context(), b.sign(t, nil, claims("jti", string(rune('a'+i)))))
		if !errors.Is(err, ErrInvalidToken) {
			t.Fatalf("token %d of an unknown key: %v, want a refusal", i, err)
		}
		if got := s.fetches.Load(); got != want {
			t.Errorf("after token %d of an unknown key: %d fetches, want %d", i, got, want)
		}
	}
}

// TestJWTRotation checks that a key added to the set is picked up when a
// token first names it, and that a key taken out stops working.
func TestJWTRotation(t *testing.T) {
	t.Parallel()
	a, b, _, _ := keys(t)
	s := newKeyServer(t, a)
	v := newTestJWT(t, s, JWTOptions{CacheSize: -1})
	old := a.sign(t, nil, claims())
	mustVerify(t, v, old)
	s.set(b)
	mustVerify(t, v, b.sign(t, nil, claims()))
	if got := s.fetches.Load(); got != 2 {
		t.Errorf("%d fetches, want 2", got)
	}
	if _, err := v.VerifyToken(t.Context(), old); !errors.Is(err, ErrInvalidToken) {
		t.Errorf("token of the retired key: %v, want a refusal", err)
	}
}

// TestJWTBackgroundRefresh checks that the key set is fetched again
// every RefreshInterval, with no token asking for it.
func TestJWTBackgroundRefresh(t *testing.T) {
	t.Parallel()
	a, _, _, _ := keys(t)
	synctest.Test(t, func(t *testing.T) {
		s := newMemKeyServer(a)
		v := newTestJWT(t, s, JWTOptions{RefreshInterval: 10 * time.Millisecond})
		defer v.Close()
		time.Sleep(25 * time.Millisecond)
		synctest.Wait()
		if got := s.fetches.Load(); got != 3 {
			t.Errorf("%d fetches in 25ms, want the first and two refreshes", got)
		}
	})
}

func TestNewJWTErrors(t *testing.T) {
	t.Parallel()
	a, _, _, _ := keys(t)
	s := newKeyServer(t, a)
	missing := httptest.NewServer(http.NotFoundHandler())
	defer missing.Close()
	for _, tc := range []struct {
		name string
		o    JWTOptions
		want string
	}{
		{"no issuer", JWTOptions{Audience: testAudience, JWKSURL: s.URL}, "Issuer is empty"},
		{"no audience", JWTOptions{Issuer: testIssuer, JWKSURL: s.URL}, "Audience is empty"},
		{"HS256", JWTOptions{Issuer: testIssuer, Audience: testAudience, JWKSURL: s.URL, Algorithms: []string{"RS256", "HS256"}}, `algorithm "HS256" cannot verify`},
		{"none", JWTOptions{Issuer: testIssuer, Audience: testAudience, JWKSURL: s.URL, Algorithms: []string{"none"}}, `algorithm "none" cannot verify`},
		{"no algorithms", JWTOptions{Issuer: testIssuer, Audience: testAudience, JWKSURL: s.URL, Algorithms: []string{}}, "Algorithms is empty"},
		{"no key set there", JWTOptions{Issuer: testIssuer, Audience: testAudience, JWKSURL: missing.URL + "/jwks"}, "key set " + missing.URL + "/jwks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewJWT(t.Context(), tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("NewJWT: %v, want an error saying %q", err, tc.want)
			}
		})
	}
}

// TestCloseStopsRefresh checks that Close ends the background refresh
// and that the verifier still refreshes for an unknown key afterwards.
func TestCloseStopsRefresh(t *testing.T) {
	t.Parallel()
	a, b, _, _ := keys(t)
	synctest.Test(t, func(t *testing.T) {
		s := newMemKeyServer(a)
		v := newTestJWT(t, s, JWTOptions{RefreshInterval: 5 * time.Millisecond})
		time.Sleep(7 * time.Millisecond)
		synctest.Wait()
		if got := s.fetches.Load(); got != 2 {
			t.Fatalf("%d fetches before Close, want the first and one refresh", got)
		}
		v.Close()
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		if got := s.fetches.Load(); got != 2 {
			t.Errorf("%d fetches in 20 refresh intervals after Close, want none", got-2)
		}
		s.set(a, b)
		mustVerify(t, v, b.sign(t, nil, claims()))
		if got := s.fetches.Load(); got != 3 {
			t.Errorf("a token of a new key after Close: %d fetches, want 1", got-2)
		}
	})
}

// TestServerWithoutAuth checks that the server package links none of the
// JWT libraries: only a program that imports mcpauth does.
func TestServerWithoutAuth(t *testing.T) {
	t.Parallel()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goCmd, "list", "-deps", "github.com/mcpgen/mcpgen/runtime/mcpserver").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "golang-jwt") || strings.Contains(dep, "MicahParks") || strings.HasSuffix(dep, "/mcpauth") {
			t.Errorf("runtime/mcpserver depends on %s", dep)
		}
	}
}
