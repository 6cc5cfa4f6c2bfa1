package bench

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/MicahParks/jwkset"
	"github.com/golang-jwt/jwt/v5"

	"github.com/mcpgen/mcpgen/bench/pricing"
	"github.com/mcpgen/mcpgen/internal/authtest"
	"github.com/mcpgen/mcpgen/runtime/mcpauth"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

const (
	dpopIssuer   = "https://as.example.com"
	dpopResource = "http://localhost/mcp"
)

// dpopServer is the built-in server with the reference tools behind a
// real JWT verifier (mcpauth, its cache of verified tokens warm after the
// first call) with DPoP accepted, and two clients of it: one with a
// bearer token, one with a token bound to the prover's key.
type dpopServer struct {
	h              http.Handler
	bearer, bound  string // the two access tokens
	prover         *authtest.Prover
	sidBearer, sid string // their 2025-06-18 sessions
}

// newDPoPServer issues both tokens with an RSA key published at a key
// set of the test's.
func newDPoPServer(tb testing.TB, proofKey crypto.Signer) *dpopServer {
	tb.Helper()
	issuer, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		tb.Fatal(err)
	}
	j, err := jwkset.NewJWKFromKey(issuer.Public(), jwkset.JWKOptions{Metadata: jwkset.JWKMetadataOptions{KID: "k", ALG: jwkset.AlgRS256, USE: jwkset.UseSig}})
	if err != nil {
		tb.Fatal(err)
	}
	keys, _ := json.Marshal(map[string]any{"keys": []any{j.Marshal()}})
	ks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write(keys) }))
	tb.Cleanup(ks.Close)
	v, err := mcpauth.NewJWT(tb.Context(), mcpauth.JWTOptions{Issuer: dpopIssuer, Audience: dpopResource, JWKSURL: ks.URL})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(v.Close)
	d := &dpopServer{prover: authtest.NewProverWith(tb, proofKey)}
	mint := func(extra jwt.MapClaims) string {
		c := jwt.MapClaims{"iss": dpopIssuer, "sub": "alice", "aud": dpopResource, "exp": time.Now().Add(time.Hour).Unix(),
			"scope": "prices prices:write", "client_id": "c"}
		for k, v := range extra {
			c[k] = v
		}
		tok := jwt.NewWithClaims(jwt.SigningMethodRS256, c)
		tok.Header["typ"], tok.Header["kid"] = "at+jwt", "k"
		s, err := tok.SignedString(issuer)
		if err != nil {
			tb.Fatal(err)
		}
		return s
	}
	d.bearer = mint(nil)
	d.bound = mint(jwt.MapClaims{"cnf": map[string]any{"jkt": d.prover.JKT}})
	tools := pricing.MCPTools()
	tools[0].Scopes = []string{"prices:write"}
	srv := mcpserver.New(identity, tools...)
	srv.Auth = &mcpserver.Auth{Resource: dpopResource, AuthorizationServers: []string{dpopIssuer}, Verifier: v,
		Scopes: []string{"prices"}, DPoP: mcpserver.DPoPAccepted}
	d.h = srv.HTTPHandler()
	d.sidBearer = d.initialize(tb, false)
	d.sid = d.initialize(tb, true)
	return d
}

func (d *dpopServer) initialize(tb testing.TB, dpop bool) string {
	tb.Helper()
	rec := d.post(tb, []byte(initializeRequest), "", dpop, d.proof(tb, dpop))
	sid := rec.Header().Get("Mcp-Session-Id")
	if rec.Code != 200 || sid == "" {
		tb.Fatalf("initialize: %d %s %q", rec.Code, rec.Body, rec.Header().Values("WWW-Authenticate"))
	}
	if rec := d.post(tb, []byte(initializedNote), sid, dpop, d.proof(tb, dpop)); rec.Code != http.StatusAccepted {
		tb.Fatalf("notifications/initialized: %d", rec.Code)
	}
	return sid
}

// proof is a fresh proof for a POST with the bound token, "" for a
// bearer call: the client's work, made before a call is timed.
func (d *dpopServer) proof(tb testing.TB, dpop bool) string {
	if !dpop {
		return ""
	}
	return d.prover.Proof(tb, http.MethodPost, dpopResource, d.bound, nil)
}

// post serves one POST in the process, as httpSession.post does, with the
// bound token and proof when dpop is set, else the bearer token.
func (d *dpopServer) post(tb testing.TB, body []byte, sid string, dpop bool, proof string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, dpopResource, bytes.NewReader(body))
	setHeaders(req.Header, sid)
	if dpop {
		req.Header.Set("Authorization", "DPoP "+d.bound)
		req.Header.Set("DPoP", proof)
	} else {
		req.Header.Set("Authorization", "Bearer "+d.bearer)
	}
	rec := httptest.NewRecorder()
	d.h.ServeHTTP(rec, req)
	return rec
}

func setHeaders(h http.Header, sid string) {
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		h.Set("Mcp-Session-Id", sid)
		h.Set("MCP-Protocol-Version", "2025-06-18")
	}
}

// proofKeys are the keys of the benchmark's proofs, one per family.
func proofKeys(tb testing.TB) []struct {
	name string
	key  crypto.Signer
} {
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	rs, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		tb.Fatal(err)
	}
	_, ed, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	return []struct {
		name string
		key  crypto.Signer
	}{{"ES256", ec}, {"RS256", rs}, {"EdDSA", ed}}
}

// TestHTTPDPoPAgrees checks that the two sides of BenchmarkHTTPDPoP do
// the same work: the same answer to the reference call, the DPoP one
// refused without a fresh proof.
func TestHTTPDPoPAgrees(t *testing.T) {
	for _, k := range proofKeys(t) {
		d := newDPoPServer(t, k.key)
		req := callRequest(7, 10)
		a := d.post(t, req, d.sidBearer, false, "")
		proof := d.proof(t, true)
		b := d.post(t, req, d.sid, true, proof)
		if a.Code != 200 || b.Code != 200 || a.Body.String() != b.Body.String() {
			t.Fatalf("%s: answers differ:\n%d %s\n%d %s %q", k.name, a.Code, a.Body, b.Code, b.Body, b.Header().Values("WWW-Authenticate"))
		}
		if rec := d.post(t, req, d.sid, true, proof); rec.Code != http.StatusUnauthorized {
			t.Errorf("%s: a replayed proof: %d", k.name, rec.Code)
		}
	}
}

// BenchmarkHTTPDPoP serves the reference tools/call with a bearer token
// and with a DPoP-bound token and its proof in turns, in the same loop,
// on one server whose JWT verifier's cache is warm, and reports the
// median of each and their ratio: what checking a proof adds to a call.
// The client's signing is done outside the timed calls. "process" serves
// in the process; "loopback" over a TCP connection, as a client does.
func BenchmarkHTTPDPoP(b *testing.B) {
	req := callRequest(7, 10)
	for _, k := range proofKeys(b) {
		b.Run("process/"+k.name, func(b *testing.B) {
			d := newDPoPServer(b, k.key)
			bearer, dpop := inTurnsDPoP(b, d, func(dp bool, proof string) int {
				sid := d.sidBearer
				if dp {
					sid = d.sid
				}
				return d.post(b, req, sid, dp, proof).Code
			})
			reportDPoP(b, bearer, dpop)
		})
		b.Run("loopback/"+k.name, func(b *testing.B) {
			d := newDPoPServer(b, k.key)
			ts := httptest.NewServer(d.h)
			b.Cleanup(ts.Close)
			c := ts.Client()
			bearer, dpop := inTurnsDPoP(b, d, func(dp bool, proof string) int {
				r, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", bytes.NewReader(req))
				r.Host = "localhost"
				sid := d.sidBearer
				if dp {
					sid = d.sid
					r.Header.Set("Authorization", "DPoP "+d.bound)
					r.Header.Set("DPoP", proof)
				} else {
					r.Header.Set("Authorization", "Bearer "+d.bearer)
				}
				setHeaders(r.Header, sid)
				resp, err := c.Do(r)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				return resp.StatusCode
			})
			reportDPoP(b, bearer, dpop)
		})
	}
}

// inTurnsDPoP calls call with a bearer token and with a proof in turns,
// each first every other time, and returns how long each call took; the
// proof is made before its call is timed.
func inTurnsDPoP(b *testing.B, d *dpopServer, call func(dpop bool, proof string) int) (bearer, dpop []time.Duration) {
	for i := 0; b.Loop(); i++ {
		proof := d.proof(b, true)
		order := []bool{false, true}
		if i%2 == 1 {
			order = []bool{true, false}
		}
		for _, dp := range order {
			t0 := time.Now()
			code := call(dp, proof)
			took := time.Since(t0)
			if code != 200 {
				b.Fatalf("dpop %v: %d", dp, code)
			}
			if dp {
				dpop = append(dpop, took)
			} else {
				bearer = append(bearer, took)
			}
		}
	}
	return bearer, dpop
}

func reportDPoP(b *testing.B, bearer, dpop []time.Duration) {
	mb, md := median(bearer), median(dpop)
	b.ReportMetric(float64(mb.Nanoseconds()), "bearer-ns/call")
	b.ReportMetric(float64(md.Nanoseconds()), "dpop-ns/call")
	b.ReportMetric(float64(md)/float64(mb), "dpop/bearer")
}
