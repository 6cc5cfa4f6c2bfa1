package mcpauth

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// The resource server's credentials at the introspection endpoint; the
// secret has characters that RFC 6749 §2.3.1 form-encodes.
const (
	introClient = "kb server"
	introSecret = "s3cr:t+/%"
)

// introServer is an RFC 7662 endpoint answering from a table of tokens,
// counting the requests it gets.
type introServer struct {
	*httptest.Server
	calls atomic.Int32
}

func newIntroServer(t *testing.T, answers map[string]map[string]any) *introServer {
	s := &introServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.calls.Add(1)
		id, secret, ok := r.BasicAuth()
		if !ok || id != "kb+server" || secret != "s3cr%3At%2B%2F%25" {
			t.Errorf("Basic credentials %q %q, want them form-encoded", id, secret)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
			t.Errorf("%s with Content-Type %q", r.Method, r.Header.Get("Content-Type"))
		}
		if hint := r.PostFormValue("token_type_hint"); hint != "access_token" {
			t.Errorf("token_type_hint %q", hint)
		}
		answer, ok := answers[r.PostFormValue("token")]
		switch {
		case r.PostFormValue("token") == "server-error":
			w.WriteHeader(http.StatusInternalServerError)
			return
		case r.PostFormValue("token") == "not-json":
			w.Write([]byte("<html>"))
			return
		case !ok:
			answer = map[string]any{"active": false}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(answer)
	}))
	t.Cleanup(s.Close)
	return s
}

func newTestIntrospection(s *introServer, o IntrospectionOptions) *Introspection {
	o.URL, o.ClientID, o.ClientSecret = s.URL, introClient, introSecret
	v := NewIntrospection(o)
	v.now = func() time.Time { return testNow }
	return v
}

func activeAnswer(changes ...any) map[string]any {
	m := map[string]any{
		"active":    true,
		"iss":       testIssuer,
		"sub":       "alice",
		"aud":       testAudience,
		"client_id": "client-1",
		"scope":     "kb.read",
		"exp":       testNow.Add(time.Hour).Unix(),
		"username":  "alice@example.com",
	}
	for i := 0; i+1 < len(changes); i += 2 {
		if changes[i+1] == nil {
			delete(m, changes[i].(string))
		} else {
			m[changes[i].(string)] = changes[i+1]
		}
	}
	return m
}

func TestIntrospectionAccepts(t *testing.T) {
	t.Parallel()
	s := newIntroServer(t, map[string]map[string]any{"good": activeAnswer()})
	v := newTestIntrospection(s, IntrospectionOptions{Audience: testAudience, Issuer: testIssuer})
	info := mustVerify(t, v, "good")
	want := mcprt.TokenInfo{
		Issuer: testIssuer, Subject: "alice", ClientID: "client-1",
		Scopes:  []string{"kb.read"},
		Expires: testNow.Add(time.Hour),
		Claims:  map[string]any{"aud": testAudience, "username": "alice@example.com"},
	}
	if diff := cmp.Diff(want, info); diff != "" {
		t.Errorf("TokenInfo (-want +got):\n%s", diff)
	}
}

func TestIntrospectionRefusals(t *testing.T) {
	t.Parallel()
	s := newIntroServer(t, map[string]map[string]any{
		"opaque-inactive":      {"active": false, "sub": "alice"},
		"opaque-no-active":     activeAnswer("active", nil),
		"opaque-other-aud":     activeAnswer("aud", []string{"https://other.example.com/mcp"}),
		"opaque-no-aud":        activeAnswer("aud", nil),
		"opaque-other-iss":     activeAnswer("iss", "https://evil.example.com"),
		"opaque-expired":       activeAnswer("exp", testNow.Add(-time.Minute).Unix()),
		"opaque-not-yet-valid": activeAnswer("nbf", testNow.Add(time.Minute).Unix()),
	})
	v := newTestIntrospection(s, IntrospectionOptions{Audience: testAudience, Issuer: testIssuer})
	for tok, why := range map[string]string{
		"opaque-inactive":      "not active",
		"opaque-unknown":       "not active",
		"opaque-no-active":     "not active",
		"opaque-other-aud":     "another audience",
		"opaque-no-aud":        "no audience",
		"opaque-other-iss":     "another issuer",
		"opaque-expired":       "expired",
		"opaque-not-yet-valid": "not valid yet",
	} {
		t.Run(tok, func(t *testing.T) {
			_, err := v.VerifyToken(t.Context(), tok)
			if !errors.Is(err, ErrInvalidToken) || !strings.Contains(err.Error(), why) {
				t.Fatalf("VerifyToken: %v, want a refusal saying %q", err, why)
			}
			if strings.Contains(err.Error(), tok) {
				t.Errorf("error quotes the token: %q", err)
			}
		})
	}
	for _, tok := range []string{"server-error", "not-json"} {
		t.Run(tok, func(t *testing.T) {
			_, err := v.VerifyToken(t.Context(), tok)
			if err == nil || errors.Is(err, ErrInvalidToken) || strings.Contains(err.Error(), tok) {
				t.Errorf("VerifyToken: %v, want an error that is no refusal and does not quote the token", err)
			}
		})
	}
}

// TestIntrospectionOptional checks what is checked only when asked: the
// audience and the issuer.
func TestIntrospectionOptional(t *testing.T) {
	t.Parallel()
	s := newIntroServer(t, map[string]map[string]any{
		"opaque-other-aud": activeAnswer("aud", "https://other.example.com/mcp", "iss", nil),
	})
	v := newTestIntrospection(s, IntrospectionOptions{})
	if info := mustVerify(t, v, "opaque-other-aud"); info.Issuer != "" {
		t.Errorf("Issuer %q, want none", info.Issuer)
	}
	v = newTestIntrospection(s, IntrospectionOptions{Issuer: testIssuer})
	if info := mustVerify(t, v, "opaque-other-aud"); info.Issuer != testIssuer {
		t.Errorf("Issuer %q, want the option's %q", info.Issuer, testIssuer)
	}
}

// TestIntrospectionCache checks that an active token is asked about once
// while remembered, and an inactive one each time.
func TestIntrospectionCache(t *testing.T) {
	t.Parallel()
	s := newIntroServer(t, map[string]map[string]any{"good": activeAnswer()})
	v := newTestIntrospection(s, IntrospectionOptions{Audience: testAudience})
	for range 3 {
		mustVerify(t, v, "good")
	}
	if got := s.calls.Load(); got != 1 {
		t.Errorf("3 requests with one token: %d introspections, want 1", got)
	}
	for range 2 {
		v.VerifyToken(t.Context(), "opaque-inactive")
	}
	if got := s.calls.Load(); got != 3 {
		t.Errorf("2 requests with an inactive token: %d introspections in all, want 3", got)
	}
	v.now = func() time.Time { return testNow.Add(DefaultCacheTTL) }
	mustVerify(t, v, "good")
	if got := s.calls.Load(); got != 4 {
		t.Errorf("after the TTL: %d introspections, want 4", got)
	}
	off := newTestIntrospection(s, IntrospectionOptions{CacheSize: -1})
	mustVerify(t, off, "good")
	mustVerify(t, off, "good")
	if got := s.calls.Load(); got != 6 {
		t.Errorf("without a cache: %d introspections, want 6", got)
	}
}

func TestIntrospectionNoURL(t *testing.T) {
	t.Parallel()
	_, err := NewIntrospection(IntrospectionOptions{}).VerifyToken(t.Context(), "tok")
	if err == nil || !strings.Contains(err.Error(), "URL is empty") {
		t.Errorf("VerifyToken: %v, want an error saying the URL is empty", err)
	}
}
