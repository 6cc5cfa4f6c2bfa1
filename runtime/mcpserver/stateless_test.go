package mcpserver

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// statelessHeaders are the headers of a 2026-07-28 POST of method, naming
// name when it is not empty.
func statelessHeaders(method, name string) func(*http.Request) {
	return func(r *http.Request) {
		r.Header.Set("MCP-Protocol-Version", "2026-07-28")
		r.Header.Set("Mcp-Method", method)
		if name != "" {
			r.Header.Set("Mcp-Name", name)
		}
	}
}

// TestStatelessRequestValidation holds a 2026-07-28 request over HTTP to
// the transport's rules: what its _meta and headers must carry, in which
// order they are checked, and the status and code of each refusal, which
// keeps the request's id.
func TestStatelessRequestValidation(t *testing.T) {
	t.Parallel()
	c := startHTTP(t, New(mcprt.Identity{Name: "n", Version: "v"}, textTool("a", "A")))
	const supported = `"supported":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"]`
	tests := []struct {
		name, body string
		edit       func(*http.Request)
		status     int
		want       string
	}{
		{"no _meta", `{"jsonrpc":"2.0","id":101,"method":"server/discover","params":{}}`, statelessHeaders("server/discover", ""), 400,
			`{"jsonrpc":"2.0","id":101,"error":{"code":-32602,"message":"invalid params: a 2026-07-28 request carries io.modelcontextprotocol/protocolVersion in params._meta"}}`},
		{"no capabilities", `{"jsonrpc":"2.0","id":104,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, statelessHeaders("server/discover", ""), 400,
			`{"jsonrpc":"2.0","id":104,"error":{"code":-32602,"message":"invalid params: a 2026-07-28 request carries io.modelcontextprotocol/clientCapabilities in params._meta"}}`},
		{"header and _meta disagree before support is asked", `{"jsonrpc":"2.0","id":302,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"v999.0.0","io.modelcontextprotocol/clientCapabilities":{}}}}`, statelessHeaders("server/discover", ""), 400,
			`{"jsonrpc":"2.0","id":302,"error":{"code":-32020,"message":"header mismatch: MCP-Protocol-Version 2026-07-28 does not match _meta io.modelcontextprotocol/protocolVersion v999.0.0"}}`},
		{"unsupported", `{"jsonrpc":"2.0","id":301,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"v999.0.0","io.modelcontextprotocol/clientCapabilities":{}}}}`, header("MCP-Protocol-Version", "v999.0.0"), 400,
			`{"jsonrpc":"2.0","id":301,"error":{"code":-32022,"message":"Unsupported protocol version","data":{` + supported + `,"requested":"v999.0.0"}}}`},
		{"removed initialize", `{"jsonrpc":"2.0","id":500,"method":"initialize","params":{` + statelessMeta + `}}`, statelessHeaders("initialize", ""), 404,
			`{"jsonrpc":"2.0","id":500,"error":{"code":-32601,"message":"method not found: initialize"}}`},
		{"removed ping", `{"jsonrpc":"2.0","id":500,"method":"ping","params":{` + statelessMeta + `}}`, statelessHeaders("ping", ""), 404,
			`{"jsonrpc":"2.0","id":500,"error":{"code":-32601,"message":"method not found: ping"}}`},
		{"removed logging/setLevel", `{"jsonrpc":"2.0","id":500,"method":"logging/setLevel","params":{` + statelessMeta + `,"level":"info"}}`, statelessHeaders("logging/setLevel", ""), 404,
			`{"jsonrpc":"2.0","id":500,"error":{"code":-32601,"message":"method not found: logging/setLevel"}}`},
		{"unknown method", `{"jsonrpc":"2.0","id":601,"method":"unknown/method","params":{` + statelessMeta + `}}`, statelessHeaders("unknown/method", ""), 404,
			`{"jsonrpc":"2.0","id":601,"error":{"code":-32601,"message":"method not found: unknown/method"}}`},
		{"method header in other case", `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{` + statelessMeta + `}}`, statelessHeaders("TOOLS/LIST", ""), 400,
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32020,"message":"header mismatch: Mcp-Method TOOLS/LIST does not match method tools/list"}}`},
		{"unknown tool is answered, not refused", `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{` + statelessMeta + `,"name":"zz"}}`, statelessHeaders("tools/call", "zz"), 200,
			`{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"invalid params: unknown tool \"zz\""}}`},
		{"client info is optional", `{"jsonrpc":"2.0","id":105,"method":"tools/list","params":{` + statelessMeta + `}}`, func(r *http.Request) {
			statelessHeaders("tools/list", "")(r)
			r.Header.Set("mcp-method", "tools/list") // header names are case-insensitive
		}, 200, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.want == "" {
				c.do(http.MethodPost, tt.body, tt.edit)
				return
			}
			c.post(tt.body, tt.status, tt.want, tt.edit)
		})
	}
}

// TestStatelessStdioValidation checks the _meta rules on stdio, where no
// header carries the revision.
func TestStatelessStdioValidation(t *testing.T) {
	t.Parallel()
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}, textTool("a", "A")))
	c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid params: a 2026-07-28 request carries io.modelcontextprotocol/clientCapabilities in params._meta"}}`)
	c.call(`{"jsonrpc":"2.0","id":2,"method":"ping","params":{`+statelessMeta+`}}`,
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"method not found: ping"}}`)
	c.call(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{`+statelessMeta+`,"name":"a"}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[{"type":"text","text":"A"}]}}`)
}

// TestParamHeaders checks the headers that mirror arguments annotated
// x-mcp-header: required when the argument is there, equal to it after
// decoding, compared as numbers for numbers.
func TestParamHeaders(t *testing.T) {
	t.Parallel()
	tool := textTool("q", "ok")
	tool.InputSchema = []byte(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"limit":{"type":"integer","x-mcp-header":"Limit"},"free":{"type":"string"}}}`)
	c := startHTTP(t, New(mcprt.Identity{Name: "n", Version: "v"}, tool))
	call := func(args string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + statelessMeta + `,"name":"q","arguments":` + args + `}}`
	}
	with := func(kv ...string) func(*http.Request) {
		return func(r *http.Request) {
			statelessHeaders("tools/call", "q")(r)
			for i := 0; i < len(kv); i += 2 {
				r.Header.Set(kv[i], kv[i+1])
			}
		}
	}
	const ok = `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"ok"}]}}`
	mismatch := func(msg string) string {
		return `{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"header mismatch: ` + msg + `"}}`
	}
	c.post(call(`{"region":"us-west1","limit":42}`), 200, ok, with("Mcp-Param-Region", "us-west1", "Mcp-Param-Limit", "42.0"))
	c.post(call(`{"region":"Hello"}`), 200, ok, with("mcp-param-region", "=?base64?SGVsbG8=?="))
	c.post(call(`{"region":"=?base64?SGVsbG8="}`), 200, ok, with("Mcp-Param-Region", "=?base64?PT9iYXNlNjQ/U0dWc2JHOD0=?="))
	c.post(call(`{"free":"x","region":null}`), 200, ok, with())
	c.post(call(`{"region":"=?base64?SGVsbG8="}`), 200, ok, with("Mcp-Param-Region", "=?base64?SGVsbG8=")) // no suffix: literal
	c.post(call(`{"region":"us"}`), 400, mismatch("the Mcp-Param-Region header is missing; it mirrors argument region"), with())
	c.post(call(`{"region":"us"}`), 400, mismatch(`Mcp-Param-Region eu does not match argument region \"us\"`), with("Mcp-Param-Region", "eu"))
	c.post(call(`{"region":"Hello"}`), 400, mismatch("the Mcp-Param-Region header =?base64?SGVsbG8?= is not valid"), with("Mcp-Param-Region", "=?base64?SGVsbG8?="))
	c.post(call(`{"limit":7}`), 400, mismatch("Mcp-Param-Limit 8 does not match argument limit 7"), with("Mcp-Param-Limit", "8"))
}

// TestCacheHints: the caching hints of 2026-07-28 lists and reads are the
// server's to set.
func TestCacheHints(t *testing.T) {
	t.Parallel()
	srv := resourceServer(mcprt.Identity{Name: "n", Version: "v"})
	srv.ListCache = CacheHint{TTL: 5 * time.Minute}
	srv.ReadCache = CacheHint{TTL: time.Second, Private: true}
	c := startStdio(t, srv)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"resources/list","params":{` + statelessMeta + `}}`)
	if l := c.recv(); !strings.Contains(l, `"ttlMs":300000,"cacheScope":"public"`) {
		t.Errorf("list hints: %s", l)
	}
	c.send(`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{` + statelessMeta + `,"uri":"test://template/7/data"}}`)
	if l := c.recv(); !strings.Contains(l, `"ttlMs":1000,"cacheScope":"private"`) {
		t.Errorf("read hints: %s", l)
	}
	d := startStdio(t, resourceServer(mcprt.Identity{Name: "n", Version: "v"}))
	d.send(`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{` + statelessMeta + `,"uri":"test://template/7/data"}}`)
	if l := d.recv(); !strings.Contains(l, `"ttlMs":0,"cacheScope":"private"`) {
		t.Errorf("default read hints: %s", l)
	}
}
