package authgate

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/MicahParks/jwkset"
	"github.com/golang-jwt/jwt/v5"
)

// readChallenge reads a challenge of scheme back into its parameters, as
// a client would (RFC 9110 §11: auth-param = token "=" quoted-string),
// failing on a byte no header may carry.
func readChallenge(t *testing.T, scheme, h string) map[string]string {
	t.Helper()
	for i := 0; i < len(h); i++ {
		if c := h[i]; c < 0x20 || c >= 0x7f {
			t.Fatalf("challenge %q carries byte %#x", h, c)
		}
	}
	rest, ok := strings.CutPrefix(h, scheme+" ")
	if !ok {
		t.Fatalf("challenge %q does not start with %s", h, scheme)
	}
	params := map[string]string{}
	for rest != "" {
		name, after, ok := strings.Cut(rest, `="`)
		if !ok {
			t.Fatalf("challenge %q: no quoted value after %q", h, rest)
		}
		var v strings.Builder
		i := 0
		for ; i < len(after) && after[i] != '"'; i++ {
			if after[i] == '\\' {
				i++
				if i == len(after) {
					t.Fatalf("challenge %q ends in an escape", h)
				}
			}
			v.WriteByte(after[i])
		}
		if i == len(after) {
			t.Fatalf("challenge %q: unterminated value", h)
		}
		if _, dup := params[name]; dup {
			t.Fatalf("challenge %q: %s twice", h, name)
		}
		params[name] = v.String()
		rest = after[i+1:]
		if rest != "" {
			if rest, ok = strings.CutPrefix(rest, ", "); !ok {
				t.Fatalf("challenge %q: no separator before %q", h, rest)
			}
		}
	}
	return params
}

// printable reports whether s needs no percent-encoding in a challenge.
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

func FuzzDPoPChallenge(f *testing.F) {
	f.Add("invalid_dpop_proof", "the proof's htm is not the request's method", "ES256 PS256", "kb kb:write", dpopMetadata)
	f.Add("", "", "EdDSA", "", "https://h/\"x\\y")
	f.Add("use_dpop_nonce", "a \"quoted\" \\ description\r\nSet-Cookie: x", "ES256", "offline_access", "https://h/\x7f")
	f.Fuzz(func(t *testing.T, code, desc, algs, scopes, url string) {
		var list []string
		for s := range strings.FieldsSeq(scopes) {
			if s != OfflineAccess && CheckScope(s) == nil {
				list = append(list, s)
			}
		}
		if code != "" && CheckScope(code) != nil {
			code = "invalid_dpop_proof"
		}
		var algList []string
		for a := range strings.FieldsSeq(algs) {
			if CheckScope(a) == nil {
				algList = append(algList, a)
			}
		}
		h := DPoPChallenge(code, desc, algList, list, url)
		p := readChallenge(t, "DPoP", h)
		if p["algs"] != strings.Join(algList, " ") || p["error"] != code || p["scope"] != strings.Join(list, " ") {
			t.Errorf("challenge %q read back as %q", h, p)
		}
		if _, has := p["error"]; has != (code != "") {
			t.Errorf("challenge %q: error present %v for code %q", h, has, code)
		}
		if printable(desc) && p["error_description"] != desc {
			t.Errorf("challenge %q: error_description read back as %q, want %q", h, p["error_description"], desc)
		}
		if printable(url) && p["resource_metadata"] != url {
			t.Errorf("challenge %q: resource_metadata read back as %q, want %q", h, p["resource_metadata"], url)
		}
	})
}

// FuzzParseProof feeds the proof parser anything; a proof it takes must
// also verify with golang-jwt under the key jwkset reads from its jwk
// header, and carry what the parser says it does.
func FuzzParseProof(f *testing.F) {
	now := time.Unix(1_900_000_000, 0)
	for _, name := range []string{"ES256", "ES384", "RS256", "PS256", "EdDSA"} {
		p := newProver(f, name)
		f.Add(p.sign(f, proofFor("POST", dpopResource, "bound", now), nil))
	}
	p := newProver(f, "ES256")
	f.Add(p.signWith(f, proofFor("POST", dpopResource, "bound", now), jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType))
	f.Add(p.sign(f, proofFor("POST", dpopResource, "bound", now), func(h map[string]any) { h["jwk"] = jwkOf(f, p.key, true) }))
	f.Add("eyJ0eXAiOiJkcG9wK2p3dCJ9.e30.")
	f.Add("a.b.c")
	f.Fuzz(func(t *testing.T, s string) {
		proof, perr := ParseProof(s, DefaultDPoPAlgorithms)
		if perr != nil {
			if proof != nil || perr.Code != "invalid_dpop_proof" || perr.Description == "" {
				t.Fatalf("refusal %+v with proof %+v", perr, proof)
			}
			return
		}
		var header struct {
			JWK json.RawMessage `json:"jwk"`
		}
		h64, _, _ := strings.Cut(s, ".")
		hb, err := b64.DecodeString(h64)
		if err != nil || json.Unmarshal(hb, &header) != nil {
			t.Fatalf("taken proof %q has no readable header", s)
		}
		k, err := jwkset.NewJWKFromRawJSON(header.JWK, jwkset.JWKMarshalOptions{}, jwkset.JWKValidateOptions{})
		if err != nil {
			t.Fatalf("taken proof %q: jwkset refuses its jwk: %v", s, err)
		}
		tok, err := jwt.Parse(s, func(*jwt.Token) (any, error) { return k.Key(), nil },
			jwt.WithValidMethods([]string{proof.Alg}), jwt.WithoutClaimsValidation())
		if err != nil || !tok.Valid {
			t.Fatalf("taken proof %q: golang-jwt: %v", s, err)
		}
		c := tok.Claims.(jwt.MapClaims)
		if c["jti"] != proof.JTI || c["htm"] != proof.HTM || c["htu"] != proof.HTU || proof.JTI == "" || len(proof.Thumbprint) != 43 {
			t.Fatalf("taken proof %q reads as %+v, golang-jwt as %v", s, proof, c)
		}
	})
}
