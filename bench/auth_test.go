package bench

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/pricing"
	"github.com/mcpgen/mcpgen/internal/tokentest"
	"github.com/mcpgen/mcpgen/runtime/gosdk"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

const benchToken = "eyJhbGciOiJSUzI1NiIsInR5cCI6ImF0K2p3dCJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl"

// httpSession is the built-in server's HTTP handler with an initialized
// 2025-06-18 session, with or without authorization: the reference tool
// then needs the scope prices:write, on top of the endpoint's prices.
type httpSession struct {
	h     http.Handler
	sid   string
	token string
}

func newHTTPSession(tb testing.TB, auth bool) *httpSession {
	tools := pricing.MCPTools()
	srv := mcpserver.New(identity, tools...)
	s := &httpSession{h: srv.HTTPHandler()}
	if auth {
		tools[0].Scopes = []string{"prices:write"}
		srv = mcpserver.New(identity, tools...)
		srv.Auth = &mcpserver.Auth{
			Resource: "http://localhost/mcp", AuthorizationServers: []string{"https://as.example.com"},
			// A map of tokens stands for a verifier whose cache of
			// verified tokens is warm: the token is found as a cache finds it.
			Verifier: tokentest.Tokens{benchToken: {Issuer: "https://as.example.com", Subject: "alice", Scopes: []string{"prices", "prices:write"}}},
			Scopes:   []string{"prices"},
		}
		s.h, s.token = srv.HTTPHandler(), benchToken
	}
	rec := s.post([]byte(initializeRequest))
	if s.sid = rec.Header().Get("Mcp-Session-Id"); rec.Code != 200 || s.sid == "" {
		tb.Fatalf("initialize: %d %s", rec.Code, rec.Body)
	}
	if rec := s.post([]byte(initializedNote)); rec.Code != http.StatusAccepted {
		tb.Fatalf("notifications/initialized: %d", rec.Code)
	}
	return s
}

// post serves one POST of body in the process, without a socket: what
// it costs is the server's own work per request.
func (s *httpSession) post(body []byte) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "http://localhost/mcp", bytes.NewReader(body))
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	if s.sid != "" {
		h.Set("Mcp-Session-Id", s.sid)
		h.Set("MCP-Protocol-Version", "2025-06-18")
	}
	if s.token != "" {
		h.Set("Authorization", "Bearer "+s.token)
	}
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, req)
	return rec
}

// TestHTTPAuthAgrees checks that the two sides of BenchmarkHTTPAuth do the
// same work: the same answer to the reference call, and the authorized
// one refused without its token.
func TestHTTPAuthAgrees(t *testing.T) {
	plain, authorized := newHTTPSession(t, false), newHTTPSession(t, true)
	a, b := plain.post(callRequest(7, 10)), authorized.post(callRequest(7, 10))
	if a.Code != 200 || b.Code != 200 || a.Body.String() != b.Body.String() {
		t.Fatalf("answers differ:\n%d %s\n%d %s", a.Code, a.Body, b.Code, b.Body)
	}
	authorized.token = ""
	if rec := authorized.post(callRequest(7, 10)); rec.Code != http.StatusUnauthorized {
		t.Errorf("without the token: %d", rec.Code)
	}
}

// BenchmarkHTTPAuth is the reference tools/call over the built-in
// server's Streamable HTTP handler, in the process, without and with
// authorization (a bearer token its verifier finds at once, the
// endpoint's scope and the tool's checked, the session's principal
// compared): what authorization adds to the server's work per request.
func BenchmarkHTTPAuth(b *testing.B) {
	req := callRequest(7, 10)
	for _, c := range []struct {
		name string
		auth bool
	}{{"none", false}, {"bearer", true}} {
		b.Run(c.name, func(b *testing.B) {
			s := newHTTPSession(b, c.auth)
			b.SetBytes(int64(len(req)))
			b.ReportAllocs()
			for b.Loop() {
				if rec := s.post(req); rec.Code != 200 {
					b.Fatalf("%d %s", rec.Code, rec.Body)
				}
			}
		})
	}
}

// BenchmarkHTTPAuthRatio serves the reference call without and with
// authorization in turns, in the same loop, and reports the median time
// of each and their ratio: on a machine whose speed varies from second to
// second, the two then see the same machine, which two benchmarks run
// one after the other do not, and a median leaves out the calls a
// collection or another process stopped.
func BenchmarkHTTPAuthRatio(b *testing.B) {
	req := callRequest(7, 10)
	plain, authorized := newHTTPSession(b, false), newHTTPSession(b, true)
	none, bearer := inTurns(b, req, plain, authorized)
	mn, mb := median(none), median(bearer)
	b.ReportMetric(float64(mn.Nanoseconds()), "none-ns/call")
	b.ReportMetric(float64(mb.Nanoseconds()), "bearer-ns/call")
	b.ReportMetric(float64(mb)/float64(mn), "bearer/none")
}

// inTurns posts req to a and to c in turns, each first every other time,
// for as long as b loops, and returns how long each call of each took.
func inTurns(b *testing.B, req []byte, a, c *httpSession) (da, dc []time.Duration) {
	for i := 0; b.Loop(); i++ {
		first, second, d1, d2 := a, c, &da, &dc
		if i%2 == 1 {
			first, second, d1, d2 = c, a, &dc, &da
		}
		t0 := time.Now()
		r1 := first.post(req)
		t1 := time.Now()
		r2 := second.post(req)
		t2 := time.Now()
		if r1.Code != 200 || r2.Code != 200 {
			b.Fatalf("%d %s / %d %s", r1.Code, r1.Body, r2.Code, r2.Body)
		}
		*d1 = append(*d1, t1.Sub(t0))
		*d2 = append(*d2, t2.Sub(t1))
	}
	return da, dc
}

func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}

// goSDKAuthSession is go-sdk's Streamable HTTP handler with the generated
// tools, behind its own auth.RequireBearerToken, with an initialized
// 2025-06-18 session: what a go-sdk server with authorization costs.
func goSDKAuthSession(tb testing.TB) *httpSession {
	s := gosdk.NewServer(identity, pricing.MCPTools()...)
	verify := func(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if token != benchToken {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{Scopes: []string{"prices"}, Expiration: time.Now().Add(time.Hour), UserID: "alice"}, nil
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{JSONResponse: true})
	sess := &httpSession{h: auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{Scopes: []string{"prices"}})(h), token: benchToken}
	rec := sess.post([]byte(initializeRequest))
	if sess.sid = rec.Header().Get("Mcp-Session-Id"); rec.Code != 200 || sess.sid == "" {
		tb.Fatalf("initialize: %d %s", rec.Code, rec.Body)
	}
	if rec := sess.post([]byte(initializedNote)); rec.Code != http.StatusAccepted {
		tb.Fatalf("notifications/initialized: %d", rec.Code)
	}
	return sess
}

// BenchmarkHTTPAuthGoSDK runs the reference call in turns on the built-in
// server with authorization and on go-sdk behind its RequireBearerToken,
// and reports each one's median, and how many times faster the built-in
// server is by the medians and by the means (throughput).
func BenchmarkHTTPAuthGoSDK(b *testing.B) {
	req := callRequest(7, 10)
	ours, theirs := newHTTPSession(b, true), goSDKAuthSession(b)
	o, g := inTurns(b, req, ours, theirs)
	mo, mg := median(o), median(g)
	b.ReportMetric(float64(mo.Nanoseconds()), "mcpserver-ns/call")
	b.ReportMetric(float64(mg.Nanoseconds()), "gosdk-ns/call")
	b.ReportMetric(float64(mg)/float64(mo), "gosdk/mcpserver")
	// Throughput goes by the mean, slow calls included.
	b.ReportMetric(float64(sum(g))/float64(sum(o)), "gosdk/mcpserver-mean")
}

func sum(d []time.Duration) time.Duration {
	var t time.Duration
	for _, x := range d {
		t += x
	}
	return t
}
