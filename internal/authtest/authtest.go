// Package authtest is the authorization scenario every server path runs
// (the built-in server, and both SDK adapters): the same tools, prompt,
// resources and tokens, the same raw HTTP requests, the same expected
// challenges and refusals, so that the paths are held to one wire.
package authtest

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpgen/mcpgen/internal/tokentest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// Tokens is a verifier that knows a fixed set of tokens.
type Tokens = tokentest.Tokens

// The fixture's resource and metadata parameter.
const (
	Resource = "https://kb.example.com/mcp"
	Metadata = `resource_metadata="https://kb.example.com/.well-known/oauth-protected-resource/mcp"`
)

var all = []string{"kb", "kb:write", "kb:prompt", "kb:read", "kb:t"}

// TestTokens are alice's with every scope, alice's with the base scope
// only, and bob's with every scope.
var TestTokens = Tokens{
	"alice-all":  {Issuer: "https://as.example.com", Subject: "alice", Scopes: all},
	"alice-base": {Issuer: "https://as.example.com", Subject: "alice", Scopes: []string{"kb"}},
	"bob-all":    {Issuer: "https://as.example.com", Subject: "bob", Scopes: all},
}

// Fixture is what a server of the scenario serves: a tool a (no scope of
// its own), w (kb:write), a prompt p (kb:prompt), a resource kb://r
// (kb:read) and a template kb://t/{id} (kb:t), behind Auth requiring kb.
// Ran counts the handlers that ran; each answers with the token's subject.
type Fixture struct {
	Auth      *mcpserver.Auth
	Tools     []mcprt.Tool
	Prompts   []mcprt.Prompt
	Resources []mcprt.Resource
	Ran       atomic.Int32
}

// NewFixture returns the scenario's fixture.
func NewFixture() *Fixture {
	f := &Fixture{Auth: &mcpserver.Auth{Resource: Resource, AuthorizationServers: []string{"https://as.example.com"}, Verifier: TestTokens, Scopes: []string{"kb"}}}
	who := func(ctx context.Context) string {
		f.Ran.Add(1)
		if t, ok := mcprt.Token(ctx); ok {
			return t.Subject
		}
		return "nobody"
	}
	tool := func(name string, scopes ...string) mcprt.Tool {
		return mcprt.Tool{Name: name, Description: name, InputSchema: []byte(`{"type":"object"}`), Scopes: scopes,
			Handler: func(ctx context.Context, _ []byte) mcprt.Result { return mcprt.TextResult(name + ":" + who(ctx)) }}
	}
	f.Tools = []mcprt.Tool{tool("a"), tool("w", "kb:write")}
	f.Prompts = []mcprt.Prompt{{Name: "p", Description: "p", Scopes: []string{"kb:prompt"}, Get: func(ctx context.Context, _ map[string]string) (mcprt.PromptResult, error) {
		return mcprt.PromptResult{Messages: []mcprt.PromptMessage{{Role: mcprt.RoleUser, Content: mcprt.Text("p:" + who(ctx))}}}, nil
	}}}
	read := func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
		return []mcprt.ResourceContents{{Text: uri + ":" + who(ctx)}}, nil
	}
	f.Resources = []mcprt.Resource{
		{URI: "kb://r", Name: "r", Scopes: []string{"kb:read"}, Read: read},
		{URI: "kb://t/{id}", Name: "t", Scopes: []string{"kb:t"}, Read: read},
	}
	return f
}

// Client speaks raw Streamable HTTP to a server under test.
type Client struct {
	T   *testing.T
	URL string
	Rev string
	SID string

	prover *Prover // set by DPoP
}

// Start serves h until the test ends.
func Start(t *testing.T, h http.Handler, rev string) *Client {
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return &Client{T: t, URL: ts.URL, Rev: rev}
}

// Stateless reports whether the client's revision has no sessions.
func (c *Client) Stateless() bool { return c.Rev == "2026-07-28" }

// Do sends one request of method with body and token ("" for none),
// with the headers the revision needs, changed by edit.
func (c *Client) Do(method, body, token string, edit func(*http.Request)) *http.Response {
	c.T.Helper()
	req, err := http.NewRequest(method, c.URL, strings.NewReader(body))
	if err != nil {
		c.T.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.SID != "" {
		req.Header.Set("Mcp-Session-Id", c.SID)
	}
	switch {
	case token != "" && c.prover != nil:
		req.Header.Set("Authorization", "DPoP "+token)
		req.Header.Set("DPoP", c.prover.Proof(c.T, method, Resource, token, nil))
	case token != "":
		req.Header.Set("Authorization", "Bearer "+token)
	}
	var m struct {
		Method string
		Params struct{ Name, URI string }
	}
	_ = json.Unmarshal([]byte(body), &m)
	if c.Stateless() {
		req.Header.Set("MCP-Protocol-Version", c.Rev)
		if m.Method != "" {
			req.Header.Set("Mcp-Method", m.Method)
		}
		if n := m.Params.Name + m.Params.URI; n != "" {
			req.Header.Set("Mcp-Name", n)
		}
	} else if m.Method != "initialize" {
		req.Header.Set("MCP-Protocol-Version", c.Rev)
	}
	if edit != nil {
		edit(req)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.T.Fatal(err)
	}
	c.T.Cleanup(func() { resp.Body.Close() })
	return resp
}

// Request returns the body of request id of method naming name (a tool
// or prompt name, or a URI for resources/read).
func (c *Client) Request(id int, method, name string) string {
	var params []string
	if c.Stateless() {
		params = append(params, `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`)
	}
	switch {
	case name == "":
	case method == "resources/read":
		params = append(params, `"uri":"`+name+`"`)
	default:
		params = append(params, `"name":"`+name+`"`)
	}
	return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"` + method + `","params":{` + strings.Join(params, ",") + `}}`
}

// Init starts a session with token on a revision that has them.
func (c *Client) Init(token string) {
	c.T.Helper()
	c.SID = ""
	if c.Stateless() {
		return
	}
	resp := c.Do(http.MethodPost, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+c.Rev+`","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`, token, nil)
	if body := Body(c.T, resp); resp.StatusCode != 200 {
		c.T.Fatalf("initialize: %d %s", resp.StatusCode, body)
	}
	c.SID = resp.Header.Get("Mcp-Session-Id")
	if resp := c.Do(http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, token, nil); resp.StatusCode != http.StatusAccepted {
		c.T.Fatalf("notifications/initialized: %d", resp.StatusCode)
	}
}

// Body returns the JSON-RPC message of a response, plain or the last
// event of an SSE stream.
func Body(t *testing.T, resp *http.Response) string {
	t.Helper()
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	var last string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			last = d
		}
	}
	return last
}

// Revisions are the revisions with Streamable HTTP.
var Revisions = []string{"2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

// Run runs the scenario on the handler serve makes of a fixture, on each
// of revisions: every refusal's status and exact challenge, the scope of
// each tool, prompt and resource (403 naming every scope the operation
// needs, a JSON-RPC error, no handler run), the token reaching handlers,
// and sessions bound to their principal.
func Run(t *testing.T, revisions []string, serve func(f *Fixture, rev string) http.Handler) {
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) {
			f := NewFixture()
			c := Start(t, serve(f, rev), rev)
			t.Run("unauthorized", func(t *testing.T) { unauthorized(t, c) })
			t.Run("scopes", func(t *testing.T) { scopes(t, c, f) })
			if !c.Stateless() {
				t.Run("sessions", func(t *testing.T) { sessions(t, c, f) })
			}
			t.Run("metadata", func(t *testing.T) { metadata(t, c) })
		})
	}
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

func unauthorized(t *testing.T, c *Client) {
	c.Init("alice-all")
	body := c.Request(1, "tools/call", "a")
	none := `Bearer scope="kb", ` + Metadata
	invalid := `Bearer error="invalid_token", scope="kb", ` + Metadata
	for _, tc := range []struct{ name, auth, query, want string }{
		{"no token", "", "", none},
		{"in the query string", "", "?access_token=alice-all", none},
		{"malformed", "Bearer alice-all extra", "", invalid},
		{"another scheme", "Basic YWxpY2U6YWxs", "", invalid},
		{"refused", "Bearer forged", "", invalid},
	} {
		for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
			resp := c.Do(method, body, "", func(r *http.Request) {
				if tc.query != "" {
					r.URL.RawQuery = tc.query[1:]
				}
				if tc.auth != "" {
					r.Header.Set("Authorization", tc.auth)
				}
			})
			t.Run(tc.name+"/"+method, func(t *testing.T) { challenge(t, resp, http.StatusUnauthorized, tc.want) })
		}
	}
}

func scopes(t *testing.T, c *Client, f *Fixture) {
	ops := []struct{ method, name, need, ok string }{
		{"tools/call", "a", "", "a:alice"},
		{"tools/call", "w", "kb kb:write", "w:alice"},
		{"prompts/get", "p", "kb kb:prompt", "p:alice"},
		{"resources/read", "kb://r", "kb kb:read", "kb://r:alice"},
		{"resources/read", "kb://t/7", "kb kb:t", "kb://t/7:alice"},
	}
	c.Init("alice-base")
	for _, o := range ops {
		before := f.Ran.Load()
		resp := c.Do(http.MethodPost, c.Request(1, o.method, o.name), "alice-base", nil)
		got := Body(t, resp)
		if o.need == "" {
			if resp.StatusCode != 200 || !strings.Contains(got, o.ok) {
				t.Errorf("%s %s: %d %s", o.method, o.name, resp.StatusCode, got)
			}
			continue
		}
		challenge(t, resp, http.StatusForbidden, `Bearer error="insufficient_scope", scope="`+o.need+`", `+Metadata)
		scopes, _ := json.Marshal(strings.Fields(o.need))
		if want := `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"insufficient scope: this request needs the scopes ` + o.need + `","data":{"scopes":` + string(scopes) + `}}}`; got != want {
			t.Errorf("%s %s: body\n%s\nwant\n%s", o.method, o.name, got, want)
		}
		if f.Ran.Load() != before {
			t.Errorf("%s %s: the handler ran without its scope", o.method, o.name)
		}
	}
	c.Init("alice-all")
	for _, o := range ops {
		resp := c.Do(http.MethodPost, c.Request(2, o.method, o.name), "alice-all", nil)
		if got := Body(t, resp); resp.StatusCode != 200 || !strings.Contains(got, o.ok) {
			t.Errorf("%s %s with every scope: %d %s", o.method, o.name, resp.StatusCode, got)
		}
	}
}

func sessions(t *testing.T, c *Client, f *Fixture) {
	c.Init("alice-all")
	before := f.Ran.Load()
	body := c.Request(3, "tools/call", "a")
	for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
		if resp := c.Do(method, body, "bob-all", nil); resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s with bob's token on alice's session: %d", method, resp.StatusCode)
		}
	}
	if f.Ran.Load() != before {
		t.Error("bob's call ran on alice's session")
	}
	if resp := c.Do(http.MethodPost, body, "alice-all", nil); resp.StatusCode != 200 || !strings.Contains(Body(t, resp), "a:alice") {
		t.Errorf("alice after bob: %d", resp.StatusCode)
	}
}

func metadata(t *testing.T, c *Client) {
	want := `{"resource":"https://kb.example.com/mcp","authorization_servers":["https://as.example.com"],"scopes_supported":["kb","kb:prompt","kb:read","kb:t","kb:write"],"bearer_methods_supported":["header"]}`
	req, _ := http.NewRequest(http.MethodGet, c.URL+"/.well-known/oauth-protected-resource/mcp", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !sameScopes(string(got), want) || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("metadata: %d %s", resp.StatusCode, got)
	}
}

// sameScopes compares two metadata documents with scopes_supported in any
// order: the built-in server lists them in the order added, the adapters
// sorted.
func sameScopes(a, b string) bool {
	norm := func(s string) string {
		var m map[string]any
		if json.Unmarshal([]byte(s), &m) != nil {
			return s
		}
		if l, ok := m["scopes_supported"].([]any); ok {
			ss := make([]string, len(l))
			for i, v := range l {
				ss[i], _ = v.(string)
			}
			slices.Sort(ss)
			m["scopes_supported"] = ss
		}
		out, _ := json.Marshal(m)
		return string(out)
	}
	return norm(a) == norm(b)
}
