package authgate

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/MicahParks/jwkset"
	"github.com/golang-jwt/jwt/v5"
)

// prover is a DPoP client of the tests: its proofs are signed by
// golang-jwt and carry the public JWK jwkset writes, so that the gate's
// own JOSE code is checked against two libraries it does not share.
type prover struct {
	key    crypto.Signer
	method jwt.SigningMethod
	jwk    map[string]any // the public JWK
	jkt    string         // its thumbprint, computed by thumb
}

var (
	proverOnce sync.Once
	proverKeys map[string]crypto.Signer
)

// testKeys are the tests' keys, made once: one per algorithm family.
func testKeys() map[string]crypto.Signer {
	proverOnce.Do(func() {
		must := func(k crypto.Signer, err error) crypto.Signer {
			if err != nil {
				panic(err)
			}
			return k
		}
		_, ed, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			panic(err)
		}
		proverKeys = map[string]crypto.Signer{
			"ES256":  must(ecdsa.GenerateKey(elliptic.P256(), rand.Reader)),
			"ES256b": must(ecdsa.GenerateKey(elliptic.P256(), rand.Reader)),
			"ES384":  must(ecdsa.GenerateKey(elliptic.P384(), rand.Reader)),
			"ES512":  must(ecdsa.GenerateKey(elliptic.P521(), rand.Reader)),
			"RS256":  must(rsa.GenerateKey(rand.Reader, 2048)),
			"EdDSA":  ed,
		}
		proverKeys["PS256"] = proverKeys["RS256"]
	})
	return proverKeys
}

// newProver returns a client with the key of name ("ES256", "ES256b" for
// a second P-256 key, "ES384", "ES512", "RS256", "PS256", "EdDSA").
func newProver(t testing.TB, name string) *prover {
	t.Helper()
	key := testKeys()[name]
	alg := name
	if name == "ES256b" {
		alg = "ES256"
	}
	p := &prover{key: key, method: jwt.GetSigningMethod(alg)}
	p.jwk = jwkOf(t, key.Public(), false)
	p.jkt = thumb(t, p.jwk)
	return p
}

// jwkOf is the JWK jwkset writes for key, with its private members when
// private is set.
func jwkOf(t testing.TB, key any, private bool) map[string]any {
	t.Helper()
	j, err := jwkset.NewJWKFromKey(key, jwkset.JWKOptions{Marshal: jwkset.JWKMarshalOptions{Private: private}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(j.Marshal())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// thumb is the RFC 7638 thumbprint of a public JWK, computed from the
// RFC's text with encoding/json, which writes a map's keys sorted and
// without white space: the required members only.
func thumb(t testing.TB, k map[string]any) string {
	t.Helper()
	required := map[string][]string{"EC": {"crv", "kty", "x", "y"}, "RSA": {"e", "kty", "n"}, "OKP": {"crv", "kty", "x"}}
	m := map[string]any{}
	for _, name := range required[k["kty"].(string)] {
		m[name] = k[name]
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// claims are a proof's claims for a request.
type claims = jwt.MapClaims

// proofFor returns the claims of a good proof of method on htu with
// token at now.
func proofFor(method, htu, token string, now time.Time) claims {
	sum := sha256.Sum256([]byte(token))
	return claims{"jti": rand.Text(), "htm": method, "htu": htu, "iat": now.Unix(),
		"ath": base64.RawURLEncoding.EncodeToString(sum[:])}
}

// sign returns the proof of c, with the header the gate expects changed
// by edit (nil for none).
func (p *prover) sign(t testing.TB, c claims, edit func(h map[string]any)) string {
	t.Helper()
	tok := jwt.NewWithClaims(p.method, c)
	tok.Header["typ"] = "dpop+jwt"
	tok.Header["jwk"] = p.jwk
	if edit != nil {
		edit(tok.Header)
	}
	s, err := tok.SignedString(p.key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// signWith returns a proof of c signed with method and key, whatever the
// header's jwk: for alg none and HMAC.
func (p *prover) signWith(t testing.TB, c claims, method jwt.SigningMethod, key any) string {
	t.Helper()
	tok := jwt.NewWithClaims(method, c)
	tok.Header["typ"] = "dpop+jwt"
	tok.Header["jwk"] = p.jwk
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
