package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpgen/mcpgen/internal/tokentest"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

const (
	authResource = "https://kb.example.com/mcp"
	authMetadata = `resource_metadata="https://kb.example.com/.well-known/oauth-protected-resource/mcp"`
)

// testTokens are alice's with every scope, alice's with the base scope only,
// and bob's with every scope.
var testTokens = tokentest.Tokens{
	"alice-all":  {Issuer: "https://as.example.com", Subject: "alice", Scopes: []string{"kb", "kb:write", "kb:prompt", "kb:read", "kb:t"}},
	"alice-base": {Issuer: "https://as.example.com", Subject: "alice", Scopes: []string{"kb"}},
	"bob-all":    {Issuer: "https://as.example.com", Subject: "bob", Scopes: []string{"kb", "kb:write", "kb:prompt", "kb:read", "kb:t"}},
}

// ran counts the handlers of authServer that ran.
type ran struct{ n atomic.Int32 }

// authServer serves a tool a (no scope of its own), w (kb:write), a
// prompt p (kb:prompt), a resource kb://r (kb:read) and a template
// kb://t/{id} (kb:t), behind Auth requiring kb.
func authServer(r *ran, tasks ...mcprt.Tool) *Server {
	who := func(ctx context.Context) string {
		r.n.Add(1)
		t, ok := mcprt.Token(ctx)
		if !ok {
			return "nobody"
		}
		return t.Subject
	}
	a := handlerTool("a", func(ctx context.Context, _ []byte) mcprt.Result { return mcprt.TextResult("a:" + who(ctx)) })
	w := handlerTool("w", func(ctx context.Context, _ []byte) mcprt.Result { return mcprt.TextResult("w:" + who(ctx)) })
	w.Scopes = []string{"kb:write"}
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableElicitation: true, EnableTasks: len(tasks) > 0}, append([]mcprt.Tool{a, w}, tasks...)...)
	srv.AddPrompts(mcprt.Prompt{Name: "p", Scopes: []string{"kb:prompt"}, Get: func(ctx context.Context, _ map[string]string) (mcprt.PromptResult, error) {
		return mcprt.PromptResult{Messages: []mcprt.PromptMessage{{Role: mcprt.RoleUser, Content: mcprt.Text("p:" + who(ctx))}}}, nil
	}})
	read := func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
		if strings.HasPrefix(uri, "kb://t/") && strings.Contains(uri[len("kb://t/"):], "/") {
			return nil, mcprt.ErrNotFound
		}
		return []mcprt.ResourceContents{{Text: uri + ":" + who(ctx)}}, nil
	}
	greedy := func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
		if uri != "kb://zzz" {
			return nil, mcprt.ErrNotFound
		}
		return []mcprt.ResourceContents{{Text: "greedy:" + who(ctx)}}, nil
	}
	srv.AddResources(
		// A hand-written template whose Read answers a URI outside its
		// template: it is not tried for a token without its scope.
		mcprt.Resource{URI: "kb://g/{id}", Name: "g", Scopes: []string{"kb:t"}, Read: greedy},
		mcprt.Resource{URI: "kb://r", Name: "r", Scopes: []string{"kb:read"}, Read: read},
		mcprt.Resource{URI: "kb://t/{id}", Name: "t", Scopes: []string{"kb:t"}, Read: read},
		mcprt.Resource{URI: "kb://open/{+path}", Name: "open", Read: read},
	)
	srv.Auth = &Auth{Resource: authResource, AuthorizationServers: []string{"https://as.example.com"}, Verifier: testTokens, Scopes: []string{"kb"}}
	return srv
}

// bearer sets the Authorization header, then applies more.
func bearer(token string, more ...func(*http.Request)) func(*http.Request) {
	return func(r *http.Request) {
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
		for _, f := range more {
			f(r)
		}
	}
}

// authInit initializes a session of rev with token.
func (c *httpClient) authInit(rev wire.Revision, token string) {
	c.t.Helper()
	resp := c.post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+string(rev)+`","capabilities":{"elicitation":{}}}}`, 200, "", bearer(token))
	c.sid = resp.Header.Get("Mcp-Session-Id")
	c.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, http.StatusAccepted, "", bearer(token, header("MCP-Protocol-Version", string(rev))))
}

// httpRevisions are the revisions that have Streamable HTTP.
var httpRevisions = []wire.Revision{wire.Rev20250326, wire.Rev20250618, wire.Rev20251125, wire.Rev20260728}

// request returns the body and the headers of a request of method on
// name (a tool or prompt name, or a URI) for rev, with params' other
// members.
func request(rev wire.Revision, id int, method, name string) (string, func(*http.Request)) {
	key := "name"
	if method == "resources/read" {
		key = "uri"
	}
	var params []string
	if rev.Stateless() {
		params = append(params, meta2026(`{"elicitation":{}}`))
	}
	if name != "" {
		params = append(params, `"`+key+`":"`+name+`"`)
	}
	body := `{"jsonrpc":"2.0","id":` + string(rune('0'+id)) + `,"method":"` + method + `","params":{` + strings.Join(params, ",") + `}}`
	if rev.Stateless() {
		return body, statelessHeaders(method, name)
	}
	return body, header("MCP-Protocol-Version", string(rev))
}

func challenge(t *testing.T, resp *http.Response, status int, want string) {
	t.Helper()
	if resp.StatusCode != status {
		t.Errorf("status %d, want %d", resp.StatusCode, status)
	}
	if got := resp.Header.Values("WWW-Authenticate"); len(got) != 1 || got[0] != want {
		t.Errorf("WWW-Authenticate %q, want %q", got, want)
	}
}

// TestAuthUnauthorized sends requests without a valid token on every HTTP
// revision and method: each is 401 with the exact challenge, and no
// handler runs.
func TestAuthUnauthorized(t *testing.T) {
	t.Parallel()
	var r ran
	srv := authServer(&r)
	for _, rev := range httpRevisions {
		t.Run(string(rev), func(t *testing.T) {
			c := startHTTP(t, srv)
			if !rev.Stateless() {
				c.authInit(rev, "alice-all")
			}
			body, hdr := request(rev, 1, "tools/call", "a")
			none := `Bearer scope="kb", ` + authMetadata
			invalid := `Bearer error="invalid_token", scope="kb", ` + authMetadata
			for _, tc := range []struct {
				name, auth, url, want string
			}{
				{"no token", "", "", none},
				{"in the query string", "", "?access_token=alice-all", none},
				{"malformed", "Bearer alice-all extra", "", invalid},
				{"another scheme", "Basic YWxpY2U6YWxs", "", invalid},
				{"empty", "Bearer ", "", invalid},
				{"refused", "Bearer forged", "", invalid},
			} {
				for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
					resp := c.do(method, body, func(req *http.Request) {
						hdr(req)
						req.Header.Set("Accept", "application/json, text/event-stream")
						if tc.url != "" {
							q, _ := http.NewRequest(method, c.url+tc.url, nil)
							req.URL = q.URL
						}
						if tc.auth != "" {
							req.Header.Set("Authorization", tc.auth)
						}
					})
					t.Run(tc.name+"/"+method, func(t *testing.T) { challenge(t, resp, http.StatusUnauthorized, tc.want) })
				}
			}
			if n := r.n.Load(); n != 0 {
				t.Errorf("%d handlers ran", n)
			}
		})
	}
}

// TestAuthScopes calls a tool, gets a prompt and reads a resource and a
// template with and without their scopes on every HTTP revision: without,
// 403 naming every scope the operation needs, a JSON-RPC error, and the
// handler does not run; with, the handler sees the token's subject.
func TestAuthScopes(t *testing.T) {
	t.Parallel()
	var r ran
	srv := authServer(&r)
	type op struct{ method, name, need, ok string }
	ops := []op{
		{"tools/call", "a", "", `"a:alice"`},
		{"tools/call", "w", "kb kb:write", `"w:alice"`},
		{"prompts/get", "p", "kb kb:prompt", `"p:alice"`},
		{"resources/read", "kb://r", "kb kb:read", `"kb://r:alice"`},
		{"resources/read", "kb://t/7", "kb kb:t", `"kb://t/7:alice"`},
		{"resources/read", "kb://open/x/y", "", `"kb://open/x/y:alice"`},
	}
	greedyBase := op{"resources/read", "kb://zzz", "", `"kb://zzz:alice"`}
	greedyAll := op{"resources/read", "kb://zzz", "", `"greedy:alice"`}
	for _, rev := range httpRevisions {
		t.Run(string(rev), func(t *testing.T) {
			c := startHTTP(t, srv)
			if !rev.Stateless() {
				c.authInit(rev, "alice-base")
			}
			for _, o := range append(ops, greedyBase) {
				before := r.n.Load()
				body, hdr := request(rev, 1, o.method, o.name)
				resp := c.do(http.MethodPost, body, bearer("alice-base", hdr))
				got := readAll(t, resp)
				if o.need == "" {
					if resp.StatusCode != 200 || !strings.Contains(got, o.ok) {
						t.Errorf("%s %s: %d %s", o.method, o.name, resp.StatusCode, got)
					}
					continue
				}
				challenge(t, resp, http.StatusForbidden, `Bearer error="insufficient_scope", scope="`+o.need+`", `+authMetadata)
				scopes, _ := json.Marshal(strings.Fields(o.need))
				sameJSON(t, got, `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"insufficient scope: this request needs the scopes `+o.need+`","data":{"scopes":`+string(scopes)+`}}}`)
				if r.n.Load() != before {
					t.Errorf("%s %s: the handler ran without its scope", o.method, o.name)
				}
			}
			if !rev.Stateless() {
				c.sid = ""
				c.authInit(rev, "alice-all")
			}
			for _, o := range append(ops, greedyAll) {
				body, hdr := request(rev, 2, o.method, o.name)
				resp := c.do(http.MethodPost, body, bearer("alice-all", hdr))
				if got := readAll(t, resp); resp.StatusCode != 200 || !strings.Contains(got, o.ok) {
					t.Errorf("%s %s with every scope: %d %s", o.method, o.name, resp.StatusCode, got)
				}
			}
		})
	}
}

// TestAuthBatch refuses a 2025-03-26 batch as a whole when one of its
// requests lacks a scope, naming every scope the batch needs.
func TestAuthBatch(t *testing.T) {
	t.Parallel()
	var r ran
	c := startHTTP(t, authServer(&r))
	c.authInit(wire.Rev20250326, "alice-base")
	batch := `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"w"}}]`
	resp := c.do(http.MethodPost, batch, bearer("alice-base"))
	challenge(t, resp, http.StatusForbidden, `Bearer error="insufficient_scope", scope="kb kb:write", `+authMetadata)
	sameJSON(t, readAll(t, resp), `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"insufficient scope: this request needs the scopes kb kb:write","data":{"scopes":["kb","kb:write"]}}}`)
	if n := r.n.Load(); n != 0 {
		t.Errorf("%d handlers of the refused batch ran", n)
	}
	c.sid = ""
	c.authInit(wire.Rev20250326, "alice-all")
	resp = c.do(http.MethodPost, batch, bearer("alice-all"))
	if got := readAll(t, resp); resp.StatusCode != 200 || !strings.Contains(got, "a:alice") || !strings.Contains(got, "w:alice") {
		t.Errorf("the batch with every scope: %d %s", resp.StatusCode, got)
	}
}

// TestAuthSessionPrincipal uses alice's session with bob's token: every
// method is 404, as for an unknown session, and the session stays alice's.
func TestAuthSessionPrincipal(t *testing.T) {
	t.Parallel()
	var r ran
	srv := authServer(&r)
	for _, rev := range httpRevisions[:3] {
		t.Run(string(rev), func(t *testing.T) {
			c := startHTTP(t, srv)
			c.authInit(rev, "alice-all")
			body, hdr := request(rev, 1, "tools/call", "a")
			for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
				resp := c.do(method, body, bearer("bob-all", hdr))
				if resp.StatusCode != http.StatusNotFound {
					t.Errorf("%s with bob's token on alice's session: %d", method, resp.StatusCode)
				}
			}
			if r.n.Load() != 0 {
				t.Error("bob's call ran")
			}
			resp := c.do(http.MethodPost, body, bearer("alice-all", hdr))
			if got := readAll(t, resp); resp.StatusCode != 200 || !strings.Contains(got, "a:alice") {
				t.Errorf("alice after bob: %d %s", resp.StatusCode, got)
			}
			r.n.Store(0)
		})
	}
}

// TestAuthRequestStatePrincipal continues alice's 2026-07-28 request
// state with bob's token: -32602; alice's own retry is served.
func TestAuthRequestStatePrincipal(t *testing.T) {
	t.Parallel()
	var r ran
	srv := authServer(&r)
	srv.Add(nameTool)
	c := startHTTP(t, srv)
	body, hdr := request(wire.Rev20260728, 1, "tools/call", "name")
	_, state := inputRequired(t, readAll(t, c.do(http.MethodPost, body, bearer("alice-base", hdr))))
	retry := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{` + meta2026(`{"elicitation":{}}`) + `,"name":"name","inputResponses":{"user_name":{"action":"accept","content":{"name":"Ada"}}},"requestState":"` + state + `"}}`
	c.post(retry, 200, `{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"invalid params: requestState is not one this server issued for this request, or it expired"}}`, bearer("bob-all", hdr))
	c.post(retry, 200, `{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"accept: hello Ada"}]}}`, bearer("alice-base", hdr))
}

// TestAuthTaskPrincipal makes a 2026-07-28 task as alice: bob's tasks/get
// on it is an unknown task, alice's finds it.
func TestAuthTaskPrincipal(t *testing.T) {
	t.Parallel()
	var r ran
	must := textTool("must", "M")
	must.TaskSupport = mcprt.TaskRequired
	srv := authServer(&r, must)
	c := startHTTP(t, srv)
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + extMeta + `,"name":"must"}}`
	id, _, _ := taskOf(t, readAll(t, c.do(http.MethodPost, call, bearer("alice-base", statelessHeaders("tools/call", "must")))))
	get := `{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{` + extMeta + `,"taskId":"` + id + `"}}`
	resp := readAll(t, c.do(http.MethodPost, get, bearer("bob-all", statelessHeaders("tasks/get", id))))
	if !strings.Contains(resp, `"code":-32602`) || strings.Contains(resp, `"result"`) {
		t.Errorf("bob's tasks/get of alice's task: %s", resp)
	}
	resp = readAll(t, c.do(http.MethodPost, get, bearer("alice-base", statelessHeaders("tasks/get", id))))
	if _, _, raw := taskOf(t, resp); raw["taskId"] != id {
		t.Errorf("alice's tasks/get: %s", resp)
	}
}

// TestAuthMetadata reads the metadata from MetadataHandler and from the
// endpoint's own well-known paths, without a token and from another
// origin.
func TestAuthMetadata(t *testing.T) {
	t.Parallel()
	var r ran
	srv := authServer(&r)
	want := `{"resource":"https://kb.example.com/mcp","authorization_servers":["https://as.example.com"],"scopes_supported":["kb","kb:write","kb:prompt","kb:read","kb:t"],"bearer_methods_supported":["header"]}`
	c := startHTTP(t, srv)
	for _, path := range []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"} {
		req, _ := http.NewRequest(http.MethodGet, c.url+path, nil)
		req.Header.Set("Origin", "https://app.elsewhere.example")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got := readAll(t, resp)
		if resp.StatusCode != 200 || got != want || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("GET %s: %d %v %s", path, resp.StatusCode, resp.Header, got)
		}
	}
	ts := startHandler(t, srv.MetadataHandler())
	if got := readAll(t, get(t, ts)); got != want {
		t.Errorf("MetadataHandler: %s", got)
	}
	srv = authServer(&r)
	srv.Auth.ScopesSupported = []string{"kb", "offline_access"}
	if got := readAll(t, get(t, startHandler(t, srv.MetadataHandler()))); !strings.Contains(got, `"scopes_supported":["kb"]`) {
		t.Errorf("with ScopesSupported: %s", got)
	}
	if u, err := srv.Auth.MetadataURL(); u != "https://kb.example.com/.well-known/oauth-protected-resource/mcp" || err != nil {
		t.Errorf("MetadataURL = %q, %v", u, err)
	}
	if p, err := srv.Auth.MetadataPath(); p != "/.well-known/oauth-protected-resource/mcp" || err != nil {
		t.Errorf("MetadataPath = %q, %v", p, err)
	}
}

// TestAuthMisconfigured answers 500 to every request of a server whose
// Auth is not usable, and logs why.
func TestAuthMisconfigured(t *testing.T) {
	t.Parallel()
	var r ran
	srv := authServer(&r)
	srv.Auth.Resource = "kb.example.com/mcp"
	var logs bytes.Buffer
	srv.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	c := startHTTP(t, srv)
	body, hdr := request(wire.Rev20260728, 1, "tools/call", "a")
	if resp := c.do(http.MethodPost, body, bearer("alice-all", hdr)); resp.StatusCode != 500 {
		t.Errorf("status %d, want 500", resp.StatusCode)
	}
	if !strings.Contains(logs.String(), "must be an absolute http or https URL") {
		t.Errorf("log: %s", logs.String())
	}
}

// TestAuthTokenNotLogged has the verifier refuse a token with an error
// that quotes it: the server's log shows the error without the token.
func TestAuthTokenNotLogged(t *testing.T) {
	t.Parallel()
	var r ran
	srv := authServer(&r)
	var logs bytes.Buffer
	srv.Logger = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := startHTTP(t, srv)
	body, hdr := request(wire.Rev20260728, 1, "tools/call", "a")
	const secret = "eyJhbGciOiJSUzI1NiJ9.c2VjcmV0.c2ln"
	resp := c.do(http.MethodPost, body, bearer(secret, hdr))
	got := readAll(t, resp)
	if resp.StatusCode != 401 || strings.Contains(got, secret) || strings.Contains(resp.Header.Get("WWW-Authenticate"), secret) {
		t.Errorf("the refusal shows the token: %d %q %s", resp.StatusCode, resp.Header, got)
	}
	if strings.Contains(logs.String(), secret) || !strings.Contains(logs.String(), "unknown token [token]") {
		t.Errorf("log: %s", logs.String())
	}
}

// TestAuthListsPrivate marks 2026-07-28 lists private behind Auth, unless
// ListCache says otherwise.
func TestAuthListsPrivate(t *testing.T) {
	t.Parallel()
	var r ran
	c := startHTTP(t, authServer(&r))
	body, hdr := request(wire.Rev20260728, 1, "tools/list", "")
	if got := readAll(t, c.do(http.MethodPost, body, bearer("alice-base", hdr))); !strings.Contains(got, `"cacheScope":"private"`) {
		t.Errorf("tools/list behind Auth: %s", got)
	}
	srv := authServer(&r)
	srv.ListCache = CacheHint{TTL: 1000}
	c = startHTTP(t, srv)
	if got := readAll(t, c.do(http.MethodPost, body, bearer("alice-base", hdr))); !strings.Contains(got, `"cacheScope":"public"`) {
		t.Errorf("tools/list with ListCache set: %s", got)
	}
}

// TestAuthStdio serves the same server on stdio: no token, no check, and
// mcprt.Token reports none.
func TestAuthStdio(t *testing.T) {
	t.Parallel()
	var r ran
	c := startStdio(t, authServer(&r))
	c.initialize(wire.Rev20250618, `{}`)
	c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"w"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"w:nobody"}]}}`)
}

func startHandler(t *testing.T, h http.Handler) string {
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL
}

func get(t *testing.T, url string) *http.Response {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}
