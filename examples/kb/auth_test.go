package main

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/mcpgen/mcpgen/runtime/gosdk"
	"github.com/mcpgen/mcpgen/runtime/mcpgo"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

func TestAuthFlags(t *testing.T) {
	full := authFlags{issuer: "https://as.example.com", resource: "http://127.0.0.1:8080/mcp"}
	if a, err := (authFlags{}).auth(t.Context(), ""); a != nil || err != nil {
		t.Errorf("no -auth flags: %v, %v; want no Auth", a, err)
	}
	for _, tc := range []struct {
		auth authFlags
		addr string
		want string
	}{
		{authFlags{issuer: full.issuer}, "127.0.0.1:8080", "go together"},
		{authFlags{resource: full.resource, scopes: "kb.read"}, "127.0.0.1:8080", "go together"},
		{full, "", "needs -http"},
		{authFlags{issuer: full.issuer, resource: "/mcp"}, "127.0.0.1:8080", "want the absolute URL"},
		{authFlags{issuer: full.issuer, resource: full.resource, dpop: "always"}, "127.0.0.1:8080", "want accepted or required"},
	} {
		_, err := tc.auth.auth(t.Context(), tc.addr)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("auth(%+v, %q) = %v, want an error saying %q", tc.auth, tc.addr, err, tc.want)
		}
	}
}

// TestAuthRoutes serves kb with the -auth flags against an issuer whose
// metadata and key set are served here: a request without a token is
// refused with the metadata URL, the metadata document is served there,
// and a token of the issuer for the resource is let in.
func TestAuthRoutes(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	as := httptest.NewUnstartedServer(nil)
	issuer := "http://" + as.Listener.Addr().String()
	as.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/openid-configuration":
			json.NewEncoder(w).Encode(map[string]string{"issuer": issuer, "jwks_uri": issuer + "/jwks"})
		case "/jwks":
			b64 := base64.RawURLEncoding.EncodeToString
			json.NewEncoder(w).Encode(map[string]any{"keys": []any{map[string]any{
				"kty": "RSA", "kid": "k1", "use": "sig", "alg": "RS256",
				"n": b64(key.N.Bytes()), "e": b64(big.NewInt(int64(key.E)).Bytes()),
			}}})
		default:
			http.NotFound(w, r)
		}
	})
	as.Start()
	defer as.Close()

	// The issuer at /tenant has no metadata: only -auth-jwks finds its keys.
	for _, tc := range []struct{ sdk, issuer, jwks string }{
		{"builtin", issuer, ""},
		{"builtin", issuer + "/tenant", issuer + "/jwks"},
		{"gosdk", issuer, ""},
		{"mcpgo", issuer, ""},
	} {
		t.Run(tc.sdk+" "+tc.issuer+" "+tc.jwks, func(t *testing.T) {
			issuer := tc.issuer
			kb := httptest.NewUnstartedServer(nil)
			resource := "http://" + kb.Listener.Addr().String() + "/mcp"
			a, err := authFlags{issuer: issuer, resource: resource, jwks: tc.jwks, scopes: "kb.read"}.auth(t.Context(), "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			var routes map[string]http.Handler
			switch tc.sdk {
			case "builtin":
				routes, err = builtinRoutes(mcpserver.New(identity, MCPTools()...), a)
			case "gosdk":
				routes, err = gosdkRoutes(gosdk.NewServer(identity, MCPTools()...), a)
			case "mcpgo":
				routes, err = mcpgoRoutes(mcpgo.NewServer(identity, MCPTools()...), a)
			}
			if err != nil {
				t.Fatal(err)
			}
			mux := http.NewServeMux()
			for path, h := range routes {
				mux.Handle(path, h)
			}
			kb.Config.Handler = mux
			kb.Start()
			defer kb.Close()
			metadataURL := strings.Replace(resource, "/mcp", "/.well-known/oauth-protected-resource/mcp", 1)

			res := initialize(t, resource, "")
			if want := `resource_metadata="` + metadataURL + `"`; res.StatusCode != http.StatusUnauthorized || !strings.Contains(res.Header.Get("WWW-Authenticate"), want) {
				t.Errorf("without a token: %s %q, want 401 with %s", res.Status, res.Header.Get("WWW-Authenticate"), want)
			}

			mres, err := http.Get(metadataURL)
			if err != nil {
				t.Fatal(err)
			}
			defer mres.Body.Close()
			var doc struct {
				Resource             string   `json:"resource"`
				AuthorizationServers []string `json:"authorization_servers"`
				ScopesSupported      []string `json:"scopes_supported"`
			}
			if err := json.NewDecoder(mres.Body).Decode(&doc); err != nil || doc.Resource != resource || len(doc.AuthorizationServers) != 1 || doc.AuthorizationServers[0] != issuer {
				t.Errorf("metadata %+v, %v; want the resource %s of issuer %s", doc, err, resource, issuer)
			}
			// kb.read from -auth-scopes, kb.write from the tools that write.
			if got := strings.Join(doc.ScopesSupported, " "); got != "kb.read kb.write" {
				t.Errorf("scopes_supported %q, want kb.read kb.write", got)
			}

			tok := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.MapClaims{
				"iss": issuer, "sub": "alice", "aud": resource, "scope": "kb.read",
				"exp": time.Now().Add(time.Hour).Unix(),
			})
			tok.Header["kid"], tok.Header["typ"] = "k1", "at+jwt"
			signed, err := tok.SignedString(key)
			if err != nil {
				t.Fatal(err)
			}
			if res := initialize(t, resource, signed); res.StatusCode != http.StatusOK {
				t.Errorf("with a token: %s %q, want 200", res.Status, res.Header.Get("WWW-Authenticate"))
			}
		})
	}
}

// initialize posts an initialize request to url with token, if any.
func initialize(t *testing.T, url, token string) *http.Response {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}
