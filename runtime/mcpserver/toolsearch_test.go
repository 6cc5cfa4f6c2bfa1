package mcpserver

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/wire"
)

// TestToolSearchScopes checks that call_tool calls a tool only with the
// scopes the tool needs: the endpoint refuses it as it refuses a call of
// the tool by name, naming the tool's scopes.
func TestToolSearchScopes(t *testing.T) {
	t.Parallel()
	var r ran
	srv := authServer(&r)
	srv.ToolSearch = &ToolSearch{}
	for _, rev := range httpRevisions {
		t.Run(string(rev), func(t *testing.T) {
			c := startHTTP(t, srv)
			if !rev.Stateless() {
				c.authInit(rev, "alice-base")
			}
			call := func(id int, token, inner string) (*http.Response, string) {
				body, hdr := request(rev, id, "tools/call", wire.CallToolName)
				body = strings.Replace(body, `"name":"call_tool"`, `"name":"call_tool","arguments":{"name":"`+inner+`"}`, 1)
				resp := c.do(http.MethodPost, body, bearer(token, hdr))
				return resp, readAll(t, resp)
			}
			before := r.n.Load()
			resp, got := call(1, "alice-base", "w")
			challenge(t, resp, http.StatusForbidden, `Bearer error="insufficient_scope", scope="kb kb:write", `+authMetadata)
			if r.n.Load() != before {
				t.Errorf("w ran through call_tool without its scope: %s", got)
			}
			if resp, got := call(2, "alice-base", "a"); resp.StatusCode != 200 || !strings.Contains(got, `"a:alice"`) {
				t.Errorf("call_tool of a tool without scopes: %d %s", resp.StatusCode, got)
			}
			if !rev.Stateless() {
				c.sid = ""
				c.authInit(rev, "alice-all")
			}
			if resp, got := call(3, "alice-all", "w"); resp.StatusCode != 200 || !strings.Contains(got, `"w:alice"`) {
				t.Errorf("call_tool of w with its scope: %d %s", resp.StatusCode, got)
			}
		})
	}
}
