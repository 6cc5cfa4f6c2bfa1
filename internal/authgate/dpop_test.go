package authgate

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/mcpgen/mcpgen/internal/tokentest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

const (
	dpopResource = "https://kb.example.com/mcp"
	dpopMetadata = "https://kb.example.com/.well-known/oauth-protected-resource/mcp"
	allAlgs      = "ES256 ES384 ES512 RS256 RS384 RS512 PS256 PS384 PS512 EdDSA"
)

// dpopNow is the clock of the gates under test.
var dpopNow = time.Unix(1_900_000_000, 0)

// bound returns a token bound to the key of thumbprint jkt.
func bound(sub, jkt string) mcprt.TokenInfo {
	return mcprt.TokenInfo{Issuer: "https://as", Subject: sub, Scopes: []string{"kb"},
		Claims: map[string]any{"cnf": map[string]any{"jkt": jkt}}}
}

// dpopFixture is a gate taking DPoP, with its tokens: "bound" bound to
// the ES256 prover's key, "foreign" bound to another key, "plain" bound
// to none.
type dpopFixture struct {
	g      *Gate
	p      *prover
	now    time.Time
	tokens tokentest.Tokens
}

func newDPoPFixture(t testing.TB, c DPoPConfig) *dpopFixture {
	t.Helper()
	f := &dpopFixture{p: newProver(t, "ES256"), now: dpopNow}
	f.tokens = tokentest.Tokens{
		"bound":   bound("alice", f.p.jkt),
		"foreign": bound("alice", newProver(t, "ES256b").jkt),
		"plain":   {Issuer: "https://as", Subject: "bob", Scopes: []string{"kb"}},
	}
	if c.Now == nil {
		c.Now = func() time.Time { return f.now }
	}
	f.g = newGate(t, Config{Resource: dpopResource, AuthorizationServers: []string{"https://as"}, Verifier: f.tokens,
		Scopes: []string{"kb"}, DPoP: c})
	return f
}

// send runs the gate on a POST to the resource with the Authorization
// value authz and the DPoP headers proofs.
func (f *dpopFixture) send(method, authz string, proofs ...string) (*httptest.ResponseRecorder, *mcprt.TokenInfo) {
	r := httptest.NewRequest(method, "http://127.0.0.1:8080/mcp", nil)
	if authz != "" {
		r.Header.Set("Authorization", authz)
	}
	for _, p := range proofs {
		r.Header.Add("DPoP", p)
	}
	rec := httptest.NewRecorder()
	info, _ := f.g.Authenticate(rec, r, nil)
	return rec, info
}

// refusal is the DPoP challenge a case expects, written out here rather
// than made by DPoPChallenge.
func refusal(code, desc string) string {
	s := `DPoP algs="` + allAlgs + `"`
	if code != "" {
		s += `, error="` + code + `"`
	}
	if desc != "" {
		s += `, error_description="` + desc + `"`
	}
	return s + `, scope="kb", resource_metadata="` + dpopMetadata + `"`
}

const bearerNoToken = `Bearer scope="kb", resource_metadata="` + dpopMetadata + `"`

// TestDPoPRefusals is the negative list of the conformance suite's
// auth/dpop-server-validation scenario (SEP-1932), with the gate's own
// additions: each request is refused with 401 and its challenge.
func TestDPoPRefusals(t *testing.T) {
	t.Parallel()
	f := newDPoPFixture(t, DPoPConfig{Mode: DPoPAccepted})
	p := f.p
	good := func() claims { return proofFor("POST", dpopResource, "bound", f.now) }
	without := func(name string) claims { c := good(); delete(c, name); return c }
	with := func(name string, v any) claims { c := good(); c[name] = v; return c }
	ed := newProver(t, "EdDSA")
	tampered := p.sign(t, good(), nil)
	tampered = tampered[:len(tampered)-4] + "AAAA"
	reused := p.sign(t, good(), nil)
	if rec, info := f.send("POST", "DPoP bound", reused); rec.Code != 200 || info == nil {
		t.Fatalf("the proof to reuse was refused: %d %q", rec.Code, rec.Header().Values("WWW-Authenticate"))
	}
	proofErr := func(desc string) []string { return []string{refusal("invalid_dpop_proof", desc)} }
	for _, c := range []struct {
		name   string
		authz  string
		proofs []string
		want   []string
	}{
		{"alg none", "DPoP bound", []string{p.signWith(t, good(), jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType)},
			proofErr("the proof's alg is not an asymmetric algorithm this resource accepts")},
		{"alg HS256", "DPoP bound", []string{p.signWith(t, good(), jwt.SigningMethodHS256, []byte("0123456789abcdef0123456789abcdef"))},
			proofErr("the proof's alg is not an asymmetric algorithm this resource accepts")},
		{"private jwk", "DPoP bound", []string{p.sign(t, good(), func(h map[string]any) { h["jwk"] = jwkOf(t, p.key, true) })},
			proofErr("the jwk header holds a private key")},
		{"wrong typ", "DPoP bound", []string{p.sign(t, good(), func(h map[string]any) { h["typ"] = "jwt" })},
			proofErr("the proof's typ is not dpop+jwt")},
		{"no typ", "DPoP bound", []string{p.sign(t, good(), func(h map[string]any) { delete(h, "typ") })},
			proofErr("the proof's typ is not dpop+jwt")},
		{"htm", "DPoP bound", []string{p.sign(t, with("htm", "GET"), nil)}, proofErr("the proof's htm is not the request's method")},
		{"htu", "DPoP bound", []string{p.sign(t, with("htu", "https://wrong.example.com/mcp"), nil)},
			proofErr("the proof's htu is not this resource's URI")},
		{"htu path", "DPoP bound", []string{p.sign(t, with("htu", "https://kb.example.com/mcp/other"), nil)},
			proofErr("the proof's htu is not this resource's URI")},
		{"ath", "DPoP bound", []string{p.sign(t, with("ath", "not-the-right-hash"), nil)},
			proofErr("the proof's ath is not the hash of the access token")},
		{"ath of another token", "DPoP bound", []string{p.sign(t, proofFor("POST", dpopResource, "foreign", f.now), nil)},
			proofErr("the proof's ath is not the hash of the access token")},
		{"ath absent", "DPoP bound", []string{p.sign(t, without("ath"), nil)}, proofErr("the proof has no ath for the access token")},
		{"reused jti", "DPoP bound", []string{reused}, proofErr("the proof was used before")},
		{"iat 303 s past", "DPoP bound", []string{p.sign(t, with("iat", f.now.Unix()-303), nil)},
			proofErr("the proof's iat is outside the accepted window")},
		{"iat 303 s future", "DPoP bound", []string{p.sign(t, with("iat", f.now.Unix()+303), nil)},
			proofErr("the proof's iat is outside the accepted window")},
		{"iat a string", "DPoP bound", []string{p.sign(t, with("iat", "1900000000"), nil)}, proofErr("the proof has no iat, or not a number")},
		{"missing proof", "DPoP bound", nil, proofErr("the request has no DPoP proof")},
		{"two DPoP headers", "DPoP bound", []string{p.sign(t, good(), nil), p.sign(t, good(), nil)},
			proofErr("the request has more than one DPoP header")},
		{"bearer downgrade", "Bearer bound", []string{p.sign(t, good(), nil)},
			[]string{refusal("invalid_token", "a DPoP-bound token needs the DPoP scheme and a proof")}},
		{"another key than cnf.jkt", "DPoP foreign", []string{p.sign(t, proofFor("POST", dpopResource, "foreign", f.now), nil)},
			[]string{refusal("invalid_token", "the token is bound to another key than the proof's")}},
		{"a token bound to no key", "DPoP plain", []string{p.sign(t, proofFor("POST", dpopResource, "plain", f.now), nil)},
			[]string{refusal("invalid_token", "the token is not bound to a key")}},
		{"a token the verifier refuses", "DPoP other-audience", []string{p.sign(t, proofFor("POST", dpopResource, "other-audience", f.now), nil)},
			[]string{refusal("invalid_token", "")}},
		{"tampered signature", "DPoP bound", []string{tampered}, proofErr("the proof's signature does not verify with its jwk")},
		{"signed by another key", "DPoP bound", []string{ed.sign(t, good(), func(h map[string]any) { h["jwk"] = p.jwk; h["alg"] = "ES256" })},
			proofErr("the proof's signature does not verify with its jwk")},
		{"a good proof of a key the token is not bound to", "DPoP bound", []string{ed.sign(t, good(), nil)},
			[]string{refusal("invalid_token", "the token is bound to another key than the proof's")}},
		{"missing jti", "DPoP bound", []string{p.sign(t, without("jti"), nil)}, proofErr("the proof has no jti, or one too long")},
		{"missing htm", "DPoP bound", []string{p.sign(t, without("htm"), nil)}, proofErr("the proof has no htm")},
		{"missing htu", "DPoP bound", []string{p.sign(t, without("htu"), nil)}, proofErr("the proof has no htu")},
		{"missing iat", "DPoP bound", []string{p.sign(t, without("iat"), nil)}, proofErr("the proof has no iat, or not a number")},
		{"missing jwk", "DPoP bound", []string{p.sign(t, good(), func(h map[string]any) { delete(h, "jwk") })},
			proofErr("the proof has no jwk header")},
		{"critical header", "DPoP bound", []string{p.sign(t, good(), func(h map[string]any) { h["crit"] = []string{"x"} })},
			proofErr("the proof names critical header parameters")},
		{"not a JWT", "DPoP bound", []string{"this-is-not-a-jwt"}, proofErr("the proof is not a compact JWS")},
		{"no token", "", nil, []string{bearerNoToken, refusal("", "")}},
		{"another scheme", "Basic Ym91bmQ=", nil, []string{`Bearer error="invalid_token", scope="kb", resource_metadata="` + dpopMetadata + `"`, refusal("", "")}},
	} {
		rec, info := f.send("POST", c.authz, c.proofs...)
		if info != nil || rec.Code != http.StatusUnauthorized {
			t.Errorf("%s: %d, accepted %v; want 401", c.name, rec.Code, info != nil)
			continue
		}
		if got := rec.Header().Values("WWW-Authenticate"); strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s: challenge\n%s\nwant\n%s", c.name, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
}

// TestDPoPAccepts: a good proof of each algorithm is accepted, and the
// token says whose key it was; htu is compared after normalization.
func TestDPoPAccepts(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"ES256", "ES384", "ES512", "RS256", "PS256", "EdDSA"} {
		f := newDPoPFixture(t, DPoPConfig{Mode: DPoPRequired})
		p := newProver(t, name)
		f.tokens["bound"] = bound("alice", p.jkt)
		rec, info := f.send("POST", "DPoP bound", p.sign(t, proofFor("POST", dpopResource, "bound", f.now), nil))
		if rec.Code != 200 || info == nil || info.DPoPThumbprint != p.jkt || info.Subject != "alice" {
			t.Errorf("%s: %d %q, token %+v", name, rec.Code, rec.Header().Values("WWW-Authenticate"), info)
		}
	}
	f := newDPoPFixture(t, DPoPConfig{Mode: DPoPAccepted})
	for _, c := range []struct {
		name, method, authz, htu string
		iat                      int64
	}{
		{"query and fragment", "POST", "DPoP bound", "https://kb.example.com/mcp?x=1#f", 0},
		{"case, default port, dot segment, encoding", "POST", "DPoP bound", "HTTPS://KB.Example.COM:443/a/../%6Dcp", 0},
		{"the scheme in lower case", "POST", "dpop bound", dpopResource, 0},
		{"GET", "GET", "DPoP bound", dpopResource, 0},
		{"DELETE", "DELETE", "DPoP bound", dpopResource, 0},
		{"iat 299 s past", "POST", "DPoP bound", dpopResource, -299},
		{"iat 299 s future", "POST", "DPoP bound", dpopResource, 299},
	} {
		cl := proofFor(c.method, c.htu, "bound", f.now)
		cl["iat"] = f.now.Unix() + c.iat
		rec, info := f.send(c.method, c.authz, f.p.sign(t, cl, nil))
		if rec.Code != 200 || info == nil || info.DPoPThumbprint != f.p.jkt {
			t.Errorf("%s: %d %q", c.name, rec.Code, rec.Header().Values("WWW-Authenticate"))
		}
	}
	// A bearer token bound to no key passes where DPoP is accepted, with
	// or without a DPoP header, and says it is not sender-constrained.
	for _, proofs := range [][]string{nil, {"ignored"}} {
		if rec, info := f.send("POST", "Bearer plain", proofs...); rec.Code != 200 || info == nil || info.DPoPThumbprint != "" {
			t.Errorf("a bearer token with proofs %q: %d %+v", proofs, rec.Code, info)
		}
	}
}

// TestDPoPModes: where DPoP is required a bearer token is refused; where
// it is off, the DPoP scheme is another scheme and a bound token is
// refused as a bearer token.
func TestDPoPModes(t *testing.T) {
	t.Parallel()
	req := newDPoPFixture(t, DPoPConfig{Mode: DPoPRequired})
	rec, info := req.send("POST", "Bearer plain")
	if want := refusal("invalid_token", "this resource takes DPoP-bound tokens only"); info != nil || rec.Code != 401 || rec.Header().Get("WWW-Authenticate") != want {
		t.Errorf("a bearer token where DPoP is required: %d %q", rec.Code, rec.Header().Values("WWW-Authenticate"))
	}
	rec, _ = req.send("POST", "")
	if got := rec.Header().Values("WWW-Authenticate"); len(got) != 1 || got[0] != refusal("", "") {
		t.Errorf("no token where DPoP is required: %q", got)
	}

	off := newDPoPFixture(t, DPoPConfig{})
	if off.g.dpop != nil {
		t.Fatal("DPoPOff made a DPoP gate")
	}
	bad := `Bearer error="invalid_token", scope="kb", resource_metadata="` + dpopMetadata + `"`
	proof := off.p.sign(t, proofFor("POST", dpopResource, "bound", off.now), nil)
	for _, authz := range []string{"DPoP bound", "Bearer bound"} {
		rec, info := off.send("POST", authz, proof)
		if info != nil || rec.Code != 401 || rec.Header().Get("WWW-Authenticate") != bad {
			t.Errorf("%s without DPoP: %d %q", authz, rec.Code, rec.Header().Values("WWW-Authenticate"))
		}
	}
	if rec, info := off.send("POST", "Bearer plain"); rec.Code != 200 || info == nil {
		t.Errorf("a bearer token without DPoP: %d", rec.Code)
	}
	// A thumbprint only the gate sets, after checking a proof.
	for _, f := range []*dpopFixture{off, newDPoPFixture(t, DPoPConfig{Mode: DPoPAccepted})} {
		f.tokens["says-bound"] = mcprt.TokenInfo{Issuer: "https://as", Subject: "eve", DPoPThumbprint: "forged"}
		if _, info := f.send("POST", "Bearer says-bound"); info == nil || info.DPoPThumbprint != "" {
			t.Errorf("a verifier's thumbprint on a bearer token was kept: %+v", info)
		}
	}
}

// TestDPoPMetadata: the metadata names the proof algorithms and whether
// only DPoP-bound tokens are taken; without DPoP, neither.
func TestDPoPMetadata(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		mode DPoPMode
		want string
	}{
		{DPoPOff, ``},
		{DPoPAccepted, `,"dpop_signing_alg_values_supported":["ES256","EdDSA"],"dpop_bound_access_tokens_required":false`},
		{DPoPRequired, `,"dpop_signing_alg_values_supported":["ES256","EdDSA"],"dpop_bound_access_tokens_required":true`},
	} {
		g := newGate(t, Config{Resource: dpopResource, AuthorizationServers: []string{"https://as"}, Verifier: tokentest.Tokens{},
			DPoP: DPoPConfig{Mode: c.mode, Algorithms: []string{"ES256", "EdDSA"}}})
		want := `{"resource":"` + dpopResource + `","authorization_servers":["https://as"],"bearer_methods_supported":["header"]` + c.want + `}`
		if got := string(g.Metadata(nil)); got != want {
			t.Errorf("mode %d:\n%s\nwant\n%s", c.mode, got, want)
		}
	}
}

// TestDPoPForbid: a DPoP-bound token lacking a scope is answered 403 in
// the DPoP scheme, a bearer token in the Bearer scheme.
func TestDPoPForbid(t *testing.T) {
	t.Parallel()
	f := newDPoPFixture(t, DPoPConfig{Mode: DPoPAccepted})
	for _, c := range []struct {
		tok  *mcprt.TokenInfo
		want string
	}{
		{&mcprt.TokenInfo{DPoPThumbprint: "x"}, `DPoP algs="` + allAlgs + `", error="insufficient_scope", scope="kb kb:write", resource_metadata="` + dpopMetadata + `"`},
		{&mcprt.TokenInfo{}, `Bearer error="insufficient_scope", scope="kb kb:write", resource_metadata="` + dpopMetadata + `"`},
	} {
		rec := httptest.NewRecorder()
		f.g.ForbidToken(rec, c.tok, []string{"kb", "kb:write"}, []byte(`{}`))
		if rec.Code != 403 || rec.Header().Get("WWW-Authenticate") != c.want {
			t.Errorf("%+v: %d %q, want %q", c.tok, rec.Code, rec.Header().Get("WWW-Authenticate"), c.want)
		}
	}
}

// TestDPoPConfigRefused: a mode, algorithm, window or nonce key that
// cannot work is an error of New.
func TestDPoPConfigRefused(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]DPoPConfig{
		"mode":           {Mode: 7},
		"no algorithm":   {Mode: DPoPAccepted, Algorithms: []string{}},
		"HMAC":           {Mode: DPoPAccepted, Algorithms: []string{"HS256"}},
		"none":           {Mode: DPoPAccepted, Algorithms: []string{"none"}},
		"window":         {Mode: DPoPAccepted, Window: -time.Second},
		"short key":      {Mode: DPoPAccepted, NonceKey: []byte("short")},
		"nonce lifetime": {Mode: DPoPAccepted, NonceKey: make([]byte, 32), NonceLifetime: -time.Second},
	} {
		if _, err := New(Config{Resource: dpopResource, AuthorizationServers: []string{"https://as"}, Verifier: tokentest.Tokens{}, DPoP: c}); err == nil {
			t.Errorf("%s: New succeeded", name)
		}
	}
}

// TestDPoPWindow: a configured window replaces the default one.
func TestDPoPWindow(t *testing.T) {
	t.Parallel()
	f := newDPoPFixture(t, DPoPConfig{Mode: DPoPAccepted, Window: 30 * time.Second})
	for _, c := range []struct {
		delta int64
		ok    bool
	}{{-29, true}, {29, true}, {-31, false}, {31, false}} {
		cl := proofFor("POST", dpopResource, "bound", f.now)
		cl["iat"] = f.now.Unix() + c.delta
		if rec, _ := f.send("POST", "DPoP bound", f.p.sign(t, cl, nil)); (rec.Code == 200) != c.ok {
			t.Errorf("iat %+d s with a 30 s window: %d", c.delta, rec.Code)
		}
	}
}

// TestThumbprint holds the thumbprints to the RFCs' examples.
func TestThumbprint(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		alg, jwk, want string
	}{
		// RFC 7638 §3.1.
		{"RS256", `{"kty":"RSA","n":"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw","e":"AQAB","alg":"RS256","kid":"2011-04-29"}`,
			"NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"},
		// RFC 8037 §A.3.
		{"EdDSA", `{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}`,
			"kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"},
		// RFC 9449 §4.1 and §6.1: the proof's key and the cnf.jkt it binds.
		{"ES256", `{"kty":"EC","x":"l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs","y":"9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA","crv":"P-256"}`,
			"0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"},
	} {
		var k jwk
		if err := json.Unmarshal([]byte(c.jwk), &k); err != nil {
			t.Fatal(err)
		}
		_, got, err := k.publicKey(c.alg)
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", c.alg, got, err, c.want)
		}
	}
	// And to the thumbprint of the RFC's text for keys jwkset writes.
	for _, name := range []string{"ES256", "ES384", "ES512", "RS256", "EdDSA"} {
		p := newProver(t, name)
		b, _ := json.Marshal(p.jwk)
		var k jwk
		json.Unmarshal(b, &k)
		if _, got, err := k.publicKey(p.method.Alg()); err != nil || got != p.jkt {
			t.Errorf("%s: %q, %v; want %q", name, got, err, p.jkt)
		}
	}
}

// TestJWKRefused: keys that are not one public key of the algorithm's
// type, in its one encoding.
func TestJWKRefused(t *testing.T) {
	t.Parallel()
	ec := newProver(t, "ES256").jwk
	x, y := ec["x"].(string), ec["y"].(string)
	rs := newProver(t, "RS256").jwk
	for _, c := range []struct{ name, alg, jwk string }{
		{"symmetric", "ES256", `{"kty":"oct","k":"c2VjcmV0"}`},
		{"curve of another alg", "ES384", `{"kty":"EC","crv":"P-256","x":"` + x + `","y":"` + y + `"}`},
		{"short coordinate", "ES256", `{"kty":"EC","crv":"P-256","x":"` + x[1:] + `","y":"` + y + `"}`},
		{"padded coordinate", "ES256", `{"kty":"EC","crv":"P-256","x":"` + x + `=","y":"` + y + `"}`},
		{"off the curve", "ES256", `{"kty":"EC","crv":"P-256","x":"` + x + `","y":"` + x + `"}`},
		{"RSA for ES256", "ES256", `{"kty":"RSA","n":"` + rs["n"].(string) + `","e":"AQAB"}`},
		{"RSA leading zero", "RS256", `{"kty":"RSA","n":"AA` + rs["n"].(string) + `","e":"AQAB"}`},
		{"RSA too small", "RS256", `{"kty":"RSA","n":"` + rs["n"].(string)[:100] + `","e":"AQAB"}`},
		{"RSA even exponent", "RS256", `{"kty":"RSA","n":"` + rs["n"].(string) + `","e":"AQAA"}`},
		{"Ed448", "EdDSA", `{"kty":"OKP","crv":"Ed448","x":"AAAA"}`},
		{"unknown kty", "ES256", `{"kty":"XYZ"}`},
	} {
		var k jwk
		if err := json.Unmarshal([]byte(c.jwk), &k); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if _, _, err := k.publicKey(c.alg); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
}

// TestNormalizeURI compares htu as RFC 9449 and RFC 3986 say.
func TestNormalizeURI(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"https://kb.example.com/mcp", "https://kb.example.com/mcp"},
		{"HTTPS://KB.EXAMPLE.COM/mcp?q#f", "https://kb.example.com/mcp"},
		{"https://kb.example.com:443/mcp", "https://kb.example.com/mcp"},
		{"http://kb.example.com:80/mcp", "http://kb.example.com/mcp"},
		{"https://kb.example.com:8443/mcp", "https://kb.example.com:8443/mcp"},
		{"https://kb.example.com", "https://kb.example.com/"},
		{"https://kb.example.com/a/./b/../%6d%63p", "https://kb.example.com/a/mcp"},
		{"https://kb.example.com/a%2fb", "https://kb.example.com/a%2Fb"},
		{"https://kb.example.com/a/..", "https://kb.example.com/"},
	} {
		if got, ok := NormalizeURI(c.in); !ok || got != c.want {
			t.Errorf("NormalizeURI(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
	for _, bad := range []string{"", "/mcp", "ftp://h/mcp", "mailto:a@b", "https://u@h/mcp", "https:///mcp"} {
		if got, ok := NormalizeURI(bad); ok {
			t.Errorf("NormalizeURI(%q) = %q, want a refusal", bad, got)
		}
	}
}

// failingCache is a replay cache that cannot tell.
type failingCache struct{}

func (failingCache) Use(context.Context, string, time.Time) (bool, error) {
	return false, errors.New("the cache is down")
}

// TestDPoPReplayCacheDown: a proof the replay cache cannot check is
// answered 503, not taken.
func TestDPoPReplayCacheDown(t *testing.T) {
	t.Parallel()
	f := newDPoPFixture(t, DPoPConfig{Mode: DPoPAccepted, Replay: failingCache{}})
	rec, info := f.send("POST", "DPoP bound", f.p.sign(t, proofFor("POST", dpopResource, "bound", f.now), nil))
	if info != nil || rec.Code != http.StatusServiceUnavailable || rec.Header().Get("WWW-Authenticate") != "" {
		t.Errorf("%d %q, accepted %v; want 503", rec.Code, rec.Header().Values("WWW-Authenticate"), info != nil)
	}
}

// TestVerifyDPoPAnswersNothing: VerifyDPoP returns the refusal and
// writes nothing; AnswerDPoP writes it.
func TestVerifyDPoPAnswersNothing(t *testing.T) {
	t.Parallel()
	f := newDPoPFixture(t, DPoPConfig{Mode: DPoPAccepted})
	r := httptest.NewRequest("POST", dpopResource, nil)
	r.Header.Set("Authorization", "DPoP bound")
	rec := httptest.NewRecorder()
	tok, _, refused := f.g.VerifyDPoP(rec, r, nil)
	if tok != nil || refused == nil || refused.Reason != "invalid_dpop_proof" || refused.Status != 401 || len(rec.Header()) != 0 || rec.Body.Len() != 0 {
		t.Fatalf("VerifyDPoP: %v %+v, wrote %v %q", tok, refused, rec.Header(), rec.Body)
	}
	f.g.AnswerDPoP(rec, refused)
	if rec.Code != 401 || rec.Header().Get("WWW-Authenticate") != refusal("invalid_dpop_proof", "the request has no DPoP proof") {
		t.Errorf("AnswerDPoP: %d %q", rec.Code, rec.Header().Values("WWW-Authenticate"))
	}
}
