package mcpauth

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestMetadataURLs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		issuer string
		want   []string
	}{
		{"https://as.example.com", []string{
			"https://as.example.com/.well-known/oauth-authorization-server",
			"https://as.example.com/.well-known/openid-configuration",
		}},
		{"https://as.example.com/", []string{
			"https://as.example.com/.well-known/oauth-authorization-server",
			"https://as.example.com/.well-known/openid-configuration",
		}},
		{"https://as.example.com/tenant/1/", []string{
			"https://as.example.com/.well-known/oauth-authorization-server/tenant/1",
			"https://as.example.com/.well-known/openid-configuration/tenant/1",
			"https://as.example.com/tenant/1/.well-known/openid-configuration",
		}},
	} {
		got, err := metadataURLs(tc.issuer)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("metadataURLs(%q) = %q, %v; want %q", tc.issuer, got, err, tc.want)
		}
	}
	for _, bad := range []string{"as.example.com", "/tenant", "https://as.example.com?x=1", "https://as.example.com#f"} {
		if _, err := metadataURLs(bad); err == nil {
			t.Errorf("metadataURLs(%q) succeeded, want an error", bad)
		}
	}
}

// asServer is an authorization server's metadata host: docs maps a path
// to the document served there, with ISSUER and JWKS replaced by the
// server's issuer (its URL plus issuerPath) and the key server's URL.
type asServer struct {
	*httptest.Server
	issuer string
	mu     sync.Mutex
	asked  []string
}

func newASServer(t *testing.T, issuerPath, jwks string, docs map[string]string) *asServer {
	s := &asServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.asked = append(s.asked, r.URL.Path)
		s.mu.Unlock()
		doc, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(strings.NewReplacer("ISSUER", s.issuer, "JWKS", jwks).Replace(doc)))
	}))
	s.issuer = s.URL + issuerPath
	t.Cleanup(s.Close)
	return s
}

func TestDiscovery(t *testing.T) {
	t.Parallel()
	a, _, _, _ := keys(t)
	keys := newKeyServer(t, a)
	good := `{"issuer":"ISSUER","jwks_uri":"JWKS"}`
	for _, tc := range []struct {
		name, issuerPath string
		docs             map[string]string
		asked            []string
	}{
		{"RFC 8414", "", map[string]string{
			"/.well-known/oauth-authorization-server": good,
			"/.well-known/openid-configuration":       `{"issuer":"ISSUER","jwks_uri":"http://127.0.0.1:1/not-this"}`,
		}, []string{"/.well-known/oauth-authorization-server"}},
		{"RFC 8414 with a path", "/tenant", map[string]string{
			"/.well-known/oauth-authorization-server/tenant": good,
		}, []string{"/.well-known/oauth-authorization-server/tenant"}},
		{"OpenID Connect", "", map[string]string{
			"/.well-known/openid-configuration": good,
		}, []string{"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"}},
		{"OpenID Connect with a path inserted", "/tenant", map[string]string{
			"/.well-known/openid-configuration/tenant": good,
		}, []string{"/.well-known/oauth-authorization-server/tenant", "/.well-known/openid-configuration/tenant"}},
		{"OpenID Connect with a path appended", "/tenant", map[string]string{
			"/tenant/.well-known/openid-configuration": good,
		}, []string{"/.well-known/oauth-authorization-server/tenant", "/.well-known/openid-configuration/tenant", "/tenant/.well-known/openid-configuration"}},
		{"past a document of another issuer", "", map[string]string{
			"/.well-known/oauth-authorization-server": `{"issuer":"https://evil.example.com","jwks_uri":"http://127.0.0.1:1/not-this"}`,
			"/.well-known/openid-configuration":       good,
		}, []string{"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"}},
		{"past a page that is no JSON", "", map[string]string{
			"/.well-known/oauth-authorization-server": `<!doctype html><p>Welcome`,
			"/.well-known/openid-configuration":       good,
		}, []string{"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			as := newASServer(t, tc.issuerPath, keys.URL, tc.docs)
			v, err := NewJWT(t.Context(), JWTOptions{Issuer: as.issuer, Audience: testAudience})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(as.asked, tc.asked) {
				t.Errorf("asked for %q, want %q", as.asked, tc.asked)
			}
			v.now = func() time.Time { return testNow }
			mustVerify(t, v, a.sign(t, nil, claims("iss", as.issuer)))
		})
	}
}

func TestDiscoveryFails(t *testing.T) {
	t.Parallel()
	a, _, _, _ := keys(t)
	keys := newKeyServer(t, a)
	for _, tc := range []struct {
		name string
		docs map[string]string
		want []string
	}{
		{"nothing there", nil, []string{
			"/.well-known/oauth-authorization-server: 404 Not Found",
			"/.well-known/openid-configuration: 404 Not Found",
		}},
		{"another issuer", map[string]string{
			"/.well-known/openid-configuration": `{"issuer":"https://evil.example.com","jwks_uri":"JWKS"}`,
		}, []string{`/.well-known/openid-configuration: issuer is "https://evil.example.com", want "http://127.0.0.1:`}},
		{"no jwks_uri", map[string]string{
			"/.well-known/oauth-authorization-server": `{"issuer":"ISSUER"}`,
		}, []string{"/.well-known/oauth-authorization-server: no jwks_uri"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			as := newASServer(t, "", keys.URL, tc.docs)
			_, err := NewJWT(t.Context(), JWTOptions{Issuer: as.issuer, Audience: testAudience})
			if err == nil {
				t.Fatal("NewJWT succeeded")
			}
			for _, w := range append(tc.want, "no metadata of issuer "+as.issuer) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}
