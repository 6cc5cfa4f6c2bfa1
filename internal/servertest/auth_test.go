package servertest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/authtest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestAuthorization runs the authorization scenario on every path behind
// its HTTP handler, on every revision with HTTP.
func TestAuthorization(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		authtest.Run(t, authtest.Revisions, func(f *authtest.Fixture, rev string) http.Handler {
			s := m.new(mcprt.Identity{Name: "n", Version: "v"}, f.Tools...)
			s.addPrompts(f.Prompts...)
			s.addResources(f.Resources...)
			return s.httpHandler(t, f.Auth, rev)
		})
	})
}

// TestDPoP runs the DPoP scenario on every path behind its HTTP
// handler, on every revision with HTTP.
func TestDPoP(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		authtest.RunDPoP(t, authtest.Revisions, func(f *authtest.Fixture, rev string) http.Handler {
			s := m.new(mcprt.Identity{Name: "n", Version: "v"}, f.Tools...)
			s.addPrompts(f.Prompts...)
			s.addResources(f.Resources...)
			return s.httpHandler(t, f.Auth, rev)
		})
	})
}

// TestAuthListsPublic asserts a difference the SDKs force: behind their
// HTTP handler with Auth, 2026-07-28 lists keep the cacheScope "public"
// the SDK fixes when the server is made, where the built-in server's Auth
// makes them "private".
func TestAuthListsPublic(t *testing.T) {
	scope := each{builtin: "private", gosdk: "public", mcpgo: "public"}
	run(t, func(t *testing.T, m *mode) {
		f := authtest.NewFixture()
		c := authtest.Start(t, m.new(mcprt.Identity{Name: "n", Version: "v"}, f.Tools...).httpHandler(t, f.Auth, "2026-07-28"), "2026-07-28")
		want := `"cacheScope":"` + scope.on(m) + `"`
		if got := authtest.Body(t, c.Do(http.MethodPost, c.Request(1, "tools/list", ""), "alice-base", nil)); !strings.Contains(got, want) {
			t.Errorf("tools/list: %s, want %s", got, want)
		}
	})
}

// TestAuthRequestStatePrincipal: a 2026-07-28 request state belongs to
// the principal it was issued to, on every path: bob cannot continue
// alice's request (invalid params where the SDK lets a handler say so;
// mcp-go answers an internal error), alice can.
func TestAuthRequestStatePrincipal(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		f := authtest.NewFixture()
		c := authtest.Start(t, m.new(mcprt.Identity{Name: "n", Version: "v", EnableElicitation: true}, nameTool).httpHandler(t, f.Auth, "2026-07-28"), "2026-07-28")
		call := func(token, more string) string {
			return authtest.Body(t, c.Do(http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}},"name":"name","arguments":{}`+more+`}}`, token, nil))
		}
		var first struct {
			Result struct{ RequestState string } `json:"result"`
		}
		if err := json.Unmarshal([]byte(call("alice-base", "")), &first); err != nil || first.Result.RequestState == "" {
			t.Fatalf("no request state: %v", err)
		}
		retry := `,"inputResponses":{"user_name":{"action":"accept","content":{"name":"Ada"}}},"requestState":"` + first.Result.RequestState + `"`
		if got := call("bob-all", retry); !strings.Contains(got, `"code":`+each{"-32602", "-32602", "-32603"}.on(m)) || !strings.Contains(got, "requestState is not one this server issued") {
			t.Errorf("bob continues alice's request: %s", got)
		}
		if got := call("alice-base", retry); !strings.Contains(got, `accept {\"name\":\"Ada\"}`) {
			t.Errorf("alice continues her request: %s", got)
		}
	})
}
