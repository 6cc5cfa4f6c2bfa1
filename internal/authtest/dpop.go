package authtest

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/MicahParks/jwkset"
	"github.com/golang-jwt/jwt/v5"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// Prover makes DPoP proofs with one key: signed by golang-jwt, with the
// public JWK jwkset writes, so that no code of the gate makes them.
type Prover struct {
	Key    crypto.Signer
	Method jwt.SigningMethod
	JWK    map[string]any
	JKT    string // the RFC 7638 thumbprint of JWK
}

// NewProver returns a prover with a new P-256 key (ES256).
func NewProver(t testing.TB) *Prover {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return NewProverWith(t, key)
}

// NewProverWith returns a prover with key: ES256 for a P-256 key, RS256
// for an RSA key, EdDSA for an Ed25519 key.
func NewProverWith(t testing.TB, key crypto.Signer) *Prover {
	t.Helper()
	p := &Prover{Key: key}
	required := []string{"crv", "kty", "x", "y"}
	switch key.(type) {
	case *ecdsa.PrivateKey:
		p.Method = jwt.SigningMethodES256
	case *rsa.PrivateKey:
		p.Method, required = jwt.SigningMethodRS256, []string{"e", "kty", "n"}
	case ed25519.PrivateKey:
		p.Method, required = jwt.SigningMethodEdDSA, []string{"crv", "kty", "x"}
	default:
		t.Fatalf("no proofs with a %T", key)
	}
	j, err := jwkset.NewJWKFromKey(key.Public(), jwkset.JWKOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(j.Marshal())
	json.Unmarshal(b, &p.JWK)
	// RFC 7638 §3.2: the required members, in lexicographic order, which
	// encoding/json writes a map's keys in.
	canon := map[string]any{}
	for _, k := range required {
		canon[k] = p.JWK[k]
	}
	b, _ = json.Marshal(canon)
	sum := sha256.Sum256(b)
	p.JKT = base64.RawURLEncoding.EncodeToString(sum[:])
	return p
}

// Proof returns a proof of a request of method to htu with token, made
// now, with the claims edit changes (nil for none).
func (p *Prover) Proof(t testing.TB, method, htu, token string, edit func(jwt.MapClaims)) string {
	t.Helper()
	sum := sha256.Sum256([]byte(token))
	c := jwt.MapClaims{"jti": rand.Text(), "htm": method, "htu": htu, "iat": time.Now().Unix(),
		"ath": base64.RawURLEncoding.EncodeToString(sum[:])}
	if edit != nil {
		edit(c)
	}
	tok := jwt.NewWithClaims(p.Method, c)
	tok.Header["typ"] = "dpop+jwt"
	tok.Header["jwk"] = p.JWK
	s, err := tok.SignedString(p.Key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// NewDPoPFixture is NewFixture with DPoP accepted: alice's token
// "alice-dpop" (every scope) and "alice-dpop-base" (kb only) are bound
// to the key of the returned prover, and a tool k answers with the
// thumbprint of the token it sees.
func NewDPoPFixture(t testing.TB) (*Fixture, *Prover) {
	p := NewProver(t)
	f := NewFixture()
	tokens := Tokens{}
	for k, v := range TestTokens {
		tokens[k] = v
	}
	cnf := map[string]any{"cnf": map[string]any{"jkt": p.JKT}}
	tokens["alice-dpop"] = mcprt.TokenInfo{Issuer: "https://as.example.com", Subject: "alice", Scopes: all, Claims: cnf}
	tokens["alice-dpop-base"] = mcprt.TokenInfo{Issuer: "https://as.example.com", Subject: "alice", Scopes: []string{"kb"}, Claims: cnf}
	f.Auth.Verifier = tokens
	f.Auth.DPoP = mcpserver.DPoPAccepted
	f.Tools = append(f.Tools, mcprt.Tool{Name: "k", Description: "k", InputSchema: []byte(`{"type":"object"}`),
		Handler: func(ctx context.Context, _ []byte) mcprt.Result {
			t, _ := mcprt.Token(ctx)
			return mcprt.TextResult("k:" + t.DPoPThumbprint)
		}})
	return f, p
}

// DPoP makes c send its requests with token in the DPoP scheme and a
// fresh proof of p, made for the resource's URI.
func (c *Client) DPoP(p *Prover) { c.prover = p }

// dpop is the challenge of a DPoP refusal.
func dpop(code, desc string) string {
	s := `DPoP algs="ES256 ES384 ES512 RS256 RS384 RS512 PS256 PS384 PS512 EdDSA"`
	if code != "" {
		s += `, error="` + code + `"`
	}
	if desc != "" {
		s += `, error_description="` + desc + `"`
	}
	return s + `, scope="kb", ` + Metadata
}

// RunDPoP runs the DPoP scenario on the handler serve makes of a
// NewDPoPFixture, on each of revisions: proofs taken on POST, GET and
// DELETE with the thumbprint reaching the handler, the conformance
// suite's main refusals, a 403 in the DPoP scheme, and the metadata.
func RunDPoP(t *testing.T, revisions []string, serve func(f *Fixture, rev string) http.Handler) {
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) {
			f, p := NewDPoPFixture(t)
			c := Start(t, serve(f, rev), rev)
			c.DPoP(p)
			c.Init("alice-dpop")
			resp := c.Do(http.MethodPost, c.Request(1, "tools/call", "k"), "alice-dpop", nil)
			if got := Body(t, resp); resp.StatusCode != 200 || !strings.Contains(got, "k:"+p.JKT) {
				t.Errorf("a DPoP call: %d %s, want k:%s", resp.StatusCode, got, p.JKT)
			}
			refuse := func(name, want string, edit func(r *http.Request)) {
				t.Helper()
				before := f.Ran.Load()
				resp := c.Do(http.MethodPost, c.Request(2, "tools/call", "a"), "alice-dpop", edit)
				t.Run(name, func(t *testing.T) { challenge(t, resp, http.StatusUnauthorized, want) })
				if f.Ran.Load() != before {
					t.Errorf("%s: the handler ran", name)
				}
			}
			proof := func(method string, edit func(jwt.MapClaims)) string {
				return p.Proof(t, method, Resource, "alice-dpop", edit)
			}
			refuse("missing proof", dpop("invalid_dpop_proof", "the request has no DPoP proof"), func(r *http.Request) { r.Header.Del("DPoP") })
			refuse("htm", dpop("invalid_dpop_proof", "the proof's htm is not the request's method"), func(r *http.Request) { r.Header.Set("DPoP", proof("GET", nil)) })
			refuse("htu", dpop("invalid_dpop_proof", "the proof's htu is not this resource's URI"),
				func(r *http.Request) { r.Header.Set("DPoP", p.Proof(t, "POST", c.URL, "alice-dpop", nil)) })
			refuse("iat 303 s past", dpop("invalid_dpop_proof", "the proof's iat is outside the accepted window"),
				func(r *http.Request) {
					r.Header.Set("DPoP", proof("POST", func(m jwt.MapClaims) { m["iat"] = time.Now().Unix() - 303 }))
				})
			reused := proof("POST", nil)
			if resp := c.Do(http.MethodPost, c.Request(3, "tools/call", "a"), "alice-dpop", func(r *http.Request) { r.Header.Set("DPoP", reused) }); resp.StatusCode != 200 {
				t.Errorf("the proof to reuse: %d", resp.StatusCode)
			}
			refuse("reused jti", dpop("invalid_dpop_proof", "the proof was used before"), func(r *http.Request) { r.Header.Set("DPoP", reused) })
			refuse("bearer downgrade", dpop("invalid_token", "a DPoP-bound token needs the DPoP scheme and a proof"),
				func(r *http.Request) { r.Header.Set("Authorization", "Bearer alice-dpop") })
			other := NewProver(t)
			refuse("another key than cnf.jkt", dpop("invalid_token", "the token is bound to another key than the proof's"),
				func(r *http.Request) { r.Header.Set("DPoP", other.Proof(t, "POST", Resource, "alice-dpop", nil)) })

			// A bound token lacking a scope: 403 in the DPoP scheme.
			c.Init("alice-dpop-base")
			resp = c.Do(http.MethodPost, c.Request(4, "tools/call", "w"), "alice-dpop-base", nil)
			challenge(t, resp, http.StatusForbidden, `DPoP algs="ES256 ES384 ES512 RS256 RS384 RS512 PS256 PS384 PS512 EdDSA", error="insufficient_scope", scope="kb kb:write", `+Metadata)

			// A bearer token bound to no key still passes.
			c.prover = nil
			c.Init("alice-all")
			if resp := c.Do(http.MethodPost, c.Request(5, "tools/call", "k"), "alice-all", nil); resp.StatusCode != 200 || !strings.Contains(Body(t, resp), `k:"`) {
				t.Errorf("a bearer call where DPoP is accepted: %d", resp.StatusCode)
			}
			if !c.Stateless() {
				c.DPoP(p)
				c.Init("alice-dpop")
				if resp := c.Do(http.MethodDelete, "", "alice-dpop", nil); resp.StatusCode/100 != 2 {
					t.Errorf("DELETE with a proof: %d", resp.StatusCode)
				}
			}
			dpopMetadata(t, c)
		})
	}
}

func dpopMetadata(t *testing.T, c *Client) {
	req, _ := http.NewRequest(http.MethodGet, c.URL+"/.well-known/oauth-protected-resource/mcp", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m struct {
		Algs     []string `json:"dpop_signing_alg_values_supported"`
		Required *bool    `json:"dpop_bound_access_tokens_required"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil || len(m.Algs) != 10 || m.Required == nil || *m.Required {
		t.Errorf("metadata: %v %+v", err, m)
	}
}

// NonceKey is the nonce key of the replicas of RunReplicas.
var NonceKey = []byte("the replicas' nonce key, 32 byte")

// RunReplicas runs the two-replica DPoP scenario on the handlers serve
// makes of one fixture (with DPoP required and server nonces under
// NonceKey), which must share their replay cache: a proof taken by one
// is refused by the other, and a nonce one hands out is taken by the
// other. It runs on 2026-07-28, which needs no session.
func RunReplicas(t *testing.T, serve func(f *Fixture) (a, b http.Handler)) {
	t.Helper()
	f, p := NewDPoPFixture(t)
	f.Auth.DPoP = mcpserver.DPoPRequired
	f.Auth.DPoPOptions = &mcpserver.DPoPOptions{NonceKey: NonceKey}
	ha, hb := serve(f)
	a, b := Start(t, ha, "2026-07-28"), Start(t, hb, "2026-07-28")
	body := a.Request(1, "tools/call", "k")
	send := func(c *Client, proof string) *http.Response {
		return c.Do(http.MethodPost, body, "alice-dpop", func(r *http.Request) {
			r.Header.Set("Authorization", "DPoP alice-dpop")
			r.Header.Set("DPoP", proof)
		})
	}
	withNonce := func(n string) string {
		return p.Proof(t, "POST", Resource, "alice-dpop", func(m jwt.MapClaims) { m["nonce"] = n })
	}
	first := send(a, p.Proof(t, "POST", Resource, "alice-dpop", nil))
	nonce := first.Header.Get("DPoP-Nonce")
	challenge(t, first, http.StatusUnauthorized, dpop("use_dpop_nonce", "the resource requires a nonce of its own in the proof"))
	if nonce == "" {
		t.Fatal("replica a handed out no nonce")
	}
	proof := withNonce(nonce)
	if resp := send(b, proof); resp.StatusCode != 200 || !strings.Contains(Body(t, resp), "k:"+p.JKT) {
		t.Errorf("replica b with replica a's nonce: %d %q", resp.StatusCode, resp.Header.Values("WWW-Authenticate"))
	}
	before := f.Ran.Load()
	challenge(t, send(a, proof), http.StatusUnauthorized, dpop("invalid_dpop_proof", "the proof was used before"))
	if f.Ran.Load() != before {
		t.Error("a replayed proof ran the tool")
	}
	resp := send(b, p.Proof(t, "POST", Resource, "alice-dpop", nil))
	if resp.StatusCode != 401 || resp.Header.Get("DPoP-Nonce") == "" {
		t.Fatalf("replica b without a nonce: %d", resp.StatusCode)
	}
	if resp := send(a, withNonce(resp.Header.Get("DPoP-Nonce"))); resp.StatusCode != 200 {
		t.Errorf("replica a with replica b's nonce: %d %q", resp.StatusCode, resp.Header.Values("WWW-Authenticate"))
	}
}
