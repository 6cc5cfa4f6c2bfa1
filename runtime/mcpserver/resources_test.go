package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/fixture"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// textResource is a static resource whose content is text.
func textResource(uri, text string) mcprt.Resource {
	return mcprt.Resource{
		URI: uri, Name: strings.TrimPrefix(uri, "test://"), MIMEType: "text/plain",
		Read: func(ctx context.Context, u string) ([]mcprt.ResourceContents, error) {
			return []mcprt.ResourceContents{{Text: text}}, nil
		},
	}
}

// dataTemplate is the conformance suite's template test://template/{id}/data:
// its Read matches the URI itself and answers JSON text.
var dataTemplate = mcprt.Resource{
	URI: "test://template/{id}/data", Name: "template", MIMEType: "application/json",
	Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
		rest, ok := strings.CutPrefix(uri, "test://template/")
		id, ok2 := strings.CutSuffix(rest, "/data")
		if !ok || !ok2 || id == "" || strings.Contains(id, "/") {
			return nil, mcprt.ErrNotFound
		}
		return []mcprt.ResourceContents{{Text: `{"id":"` + id + `","templateTest":true}`}}, nil
	},
}

// resourceServer serves the fixtures of the read tests.
func resourceServer(id mcprt.Identity) *Server {
	srv := New(id)
	srv.AddResources(
		textResource("test://static-text", "This is the content of the static text resource."),
		mcprt.Resource{URI: "test://static-binary", Name: "static-binary", MIMEType: "image/png",
			Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
				return []mcprt.ResourceContents{{Blob: fixture.PNGBytes()}}, nil
			}},
		mcprt.Resource{URI: "test://config", Name: "config", MIMEType: "application/json",
			Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
				return []mcprt.ResourceContents{{Text: `{"debug":true,"level":"<high>"}`}}, nil
			}},
		mcprt.Resource{URI: "test://dir", Name: "dir",
			Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
				return []mcprt.ResourceContents{
					{URI: "test://dir/a.txt", MIMEType: "text/plain", Text: "A"},
					{URI: "test://dir/b.bin", Blob: []byte{0}, Meta: []byte(`{"k":1}`)},
				}, nil
			}},
		mcprt.Resource{URI: "test://gone", Name: "gone",
			Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
				return nil, fmt.Errorf("looking up %s: %w", uri, mcprt.ErrNotFound)
			}},
		mcprt.Resource{URI: "test://broken", Name: "broken",
			Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
				return nil, errors.New("disk on fire")
			}},
		mcprt.Resource{URI: "test://boom", Name: "boom",
			Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) { panic("kaputt") }},
		dataTemplate,
	)
	return srv
}

func TestResourcesRead(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, uri, contents string }{
		{"text", "test://static-text", `[{"uri":"test://static-text","mimeType":"text/plain","text":"This is the content of the static text resource."}]`},
		{"blob", "test://static-binary", `[{"uri":"test://static-binary","mimeType":"image/png","blob":"` + fixture.PNGPixel + `"}]`},
		{"json text", "test://config", `[{"uri":"test://config","mimeType":"application/json","text":"{\"debug\":true,\"level\":\"\u003chigh\u003e\"}"}]`},
		{"several contents", "test://dir", `[{"uri":"test://dir/a.txt","mimeType":"text/plain","text":"A"},{"uri":"test://dir/b.bin","blob":"AA==","_meta":{"k":1}}]`},
		{"template", "test://template/123/data", `[{"uri":"test://template/123/data","mimeType":"application/json","text":"{\"id\":\"123\",\"templateTest\":true}"}]`},
	}
	srv := resourceServer(mcprt.Identity{Name: "n", Version: "v"})
	c := startStdio(t, srv)
	c.initialize(wire.Rev20251125, `{}`)
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.t = t
			c.call(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":%q}}`, i, tt.uri),
				fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"contents":%s}}`, i, tt.contents))
			c.call(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{%s,"uri":%q}}`, i, statelessMeta, tt.uri),
				fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"resultType":"complete","contents":%s,"ttlMs":0,"cacheScope":"private"}}`, i, tt.contents))
		})
	}
}

// TestResourcesReadErrors checks each era's "resource not found" and the
// other errors of a read.
func TestResourcesReadErrors(t *testing.T) {
	t.Parallel()
	srv := resourceServer(mcprt.Identity{Name: "n", Version: "v"})
	srv.AddResources(fixture.ItemsTemplate)
	logs := captureLog(srv)
	notFound := func(code int, uri string) string {
		return fmt.Sprintf(`"error":{"code":%d,"message":"Resource not found","data":{"uri":%q}}`, code, uri)
	}
	because := func(code int, uri, reason string) string {
		return fmt.Sprintf(`"error":{"code":%d,"message":"Resource not found: %s","data":{"uri":%q,"reason":%q}}`, code, reason, uri, reason)
	}
	tests := []struct{ name, params, legacy, stateless string }{
		{"no such uri", `{"uri":"test://nonexistent-resource-for-conformance-testing"}`,
			notFound(-32002, "test://nonexistent-resource-for-conformance-testing"), notFound(-32602, "test://nonexistent-resource-for-conformance-testing")},
		{"template does not match", `{"uri":"test://template/1/2/data"}`, notFound(-32002, "test://template/1/2/data"), notFound(-32602, "test://template/1/2/data")},
		{"handler wraps ErrNotFound", `{"uri":"test://gone"}`, because(-32002, "test://gone", "looking up test://gone"), because(-32602, "test://gone", "looking up test://gone")},
		{"variable does not parse", `{"uri":"test://items/x"}`, because(-32002, "test://items/x", "n: x is not an integer"), because(-32602, "test://items/x", "n: x is not an integer")},
		{"handler error", `{"uri":"test://broken"}`, `"error":{"code":-32603,"message":"disk on fire"}`, `"error":{"code":-32603,"message":"disk on fire"}`},
		{"panic", `{"uri":"test://boom"}`, `"error":{"code":-32603,"message":"internal error: resource \"test://boom\" panicked: kaputt"}`,
			`"error":{"code":-32603,"message":"internal error: resource \"test://boom\" panicked: kaputt"}`},
		{"no uri", `{}`, `"error":{"code":-32602,"message":"invalid params: uri is missing"}`, `"error":{"code":-32602,"message":"invalid params: uri is missing"}`},
		{"uri not a string", `{"uri":1}`, `"error":{"code":-32602,"message":"invalid params: uri must not be a number"}`, `"error":{"code":-32602,"message":"invalid params: uri must not be a number"}`},
	}
	for _, rev := range []wire.Revision{wire.Rev20241105, wire.Rev20250326, wire.Rev20250618, wire.Rev20251125, wire.Rev20260728} {
		t.Run(string(rev), func(t *testing.T) {
			c := startStdio(t, srv)
			if !rev.Stateless() {
				c.initialize(rev, `{}`)
			}
			// The first case again shows the server still serving after
			// the panic.
			for i, tt := range append(tests, tests[0]) {
				params, want := tt.params, tt.legacy
				if rev.Stateless() {
					params, want = `{`+statelessMeta+`,`+params[1:], tt.stateless
					if params == `{`+statelessMeta+`,}` {
						params = `{` + statelessMeta + `}`
					}
				}
				c.t = t
				c.call(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":%s}`, i, params),
					fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,%s}`, i, want))
			}
		})
	}
	if l := logs.String(); !strings.Contains(l, "mcp resource handler panicked") || !strings.Contains(l, "kaputt") {
		t.Errorf("the panic is not logged by the server's logger: %q", l)
	}
	for _, want := range []string{
		`level=INFO msg="mcp resource not found" uri=test://gone reason="looking up test://gone"`,
		`level=INFO msg="mcp resource not found" uri=test://items/x reason="n: x is not an integer"`,
	} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the reason is not logged: want %s in\n%s", want, logs)
		}
	}
}

// TestResourcesReadOrder checks that the static resource of the exact URI
// answers before any template, and that templates are asked in the order
// they were added.
func TestResourcesReadOrder(t *testing.T) {
	t.Parallel()
	asked := []string{}
	tmpl := func(uri, text string) mcprt.Resource {
		prefix, _, _ := strings.Cut(uri, "{")
		return mcprt.Resource{URI: uri, Name: text, MIMEType: "text/x-" + text,
			Read: func(ctx context.Context, u string) ([]mcprt.ResourceContents, error) {
				asked = append(asked, text)
				if !strings.HasPrefix(u, prefix) {
					return nil, mcprt.ErrNotFound
				}
				return []mcprt.ResourceContents{{Text: text}}, nil
			}}
	}
	srv := New(mcprt.Identity{Name: "n", Version: "v"})
	srv.AddResources(tmpl("x://files/{+path}", "files"), tmpl("x://{+any}", "any"), textResource("x://files/exact", "exact"))
	c := startStdio(t, srv)
	c.initialize(wire.Rev20250618, `{}`)
	c.call(`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"x://files/exact"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"x://files/exact","mimeType":"text/plain","text":"exact"}]}}`)
	c.call(`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"x://files/a/b"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"contents":[{"uri":"x://files/a/b","mimeType":"text/x-files","text":"files"}]}}`)
	c.call(`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"x://other"}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"contents":[{"uri":"x://other","mimeType":"text/x-any","text":"any"}]}}`)
	if got := strings.Join(asked, ","); got != "files,files,any" {
		t.Errorf("templates asked %s, want files,files,any", got)
	}
}

func TestResourcesListPagination(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v", PageSize: 2})
	for _, n := range []string{"e", "d", "c", "b", "a"} {
		srv.AddResources(mcprt.Resource{URI: "x://" + n, Name: n}, mcprt.Resource{URI: "x://" + n + "/{id}", Name: n + "s"})
	}
	res := func(n string) string { return `{"uri":"x://` + n + `","name":"` + n + `"}` }
	tmpl := func(n string) string { return `{"uriTemplate":"x://` + n + `/{id}","name":"` + n + `s"}` }
	c := startStdio(t, srv)
	c.initialize(wire.Rev20250326, `{}`)
	for _, l := range []struct {
		method, key string
		desc        func(string) string
	}{{"resources/list", "resources", res}, {"resources/templates/list", "resourceTemplates", tmpl}} {
		c.call(`{"jsonrpc":"2.0","id":1,"method":"`+l.method+`"}`,
			`{"jsonrpc":"2.0","id":1,"result":{"`+l.key+`":[`+l.desc("e")+`,`+l.desc("d")+`],"nextCursor":"`+encodeCursor(2)+`"}}`)
		c.call(`{"jsonrpc":"2.0","id":2,"method":"`+l.method+`","params":{"cursor":"`+encodeCursor(2)+`"}}`,
			`{"jsonrpc":"2.0","id":2,"result":{"`+l.key+`":[`+l.desc("c")+`,`+l.desc("b")+`],"nextCursor":"`+encodeCursor(4)+`"}}`)
		c.call(`{"jsonrpc":"2.0","id":3,"method":"`+l.method+`","params":{"cursor":"`+encodeCursor(4)+`"}}`,
			`{"jsonrpc":"2.0","id":3,"result":{"`+l.key+`":[`+l.desc("a")+`]}}`)
		c.call(`{"jsonrpc":"2.0","id":4,"method":"`+l.method+`","params":{"cursor":"zz"}}`,
			`{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"invalid params: invalid cursor"}}`)
		c.call(`{"jsonrpc":"2.0","id":5,"method":"`+l.method+`","params":{`+statelessMeta+`,"cursor":"`+encodeCursor(4)+`"}}`,
			`{"jsonrpc":"2.0","id":5,"result":{"resultType":"complete","`+l.key+`":[`+l.desc("a")+`],"ttlMs":0,"cacheScope":"public"}}`)
	}
	srv.RemoveResources("x://c", "x://b/{id}")
	c.call(`{"jsonrpc":"2.0","id":6,"method":"resources/list","params":{"cursor":"`+encodeCursor(2)+`"}}`,
		`{"jsonrpc":"2.0","id":6,"result":{"resources":[`+res("b")+`,`+res("a")+`]}}`)
	c.call(`{"jsonrpc":"2.0","id":7,"method":"resources/templates/list","params":{"cursor":"`+encodeCursor(2)+`"}}`,
		`{"jsonrpc":"2.0","id":7,"result":{"resourceTemplates":[`+tmpl("c")+`,`+tmpl("a")+`]}}`)
}

func TestResourcesListPerRevision(t *testing.T) {
	t.Parallel()
	p := 0.5
	r := mcprt.Resource{URI: "x://doc", Name: "doc", Title: "Doc", Description: "A doc.", MIMEType: "text/plain", Size: 42,
		Annotations: &mcprt.Annotations{Audience: []string{"user"}, Priority: &p, LastModified: "2026-01-02T15:04:05Z"},
		Icons:       []mcprt.Icon{{Src: "https://x/i.png"}}}
	tmpl := r
	tmpl.URI = "x://doc/{part}"
	tests := []struct {
		rev                 wire.Revision
		resource, template  string
		resourcesCapability string
	}{
		{wire.Rev20241105, `{"uri":"x://doc","name":"doc","description":"A doc.","mimeType":"text/plain","size":42}`,
			`{"uriTemplate":"x://doc/{part}","name":"doc","description":"A doc.","mimeType":"text/plain"}`, `{"subscribe":true,"listChanged":true}`},
		{wire.Rev20250326, `{"uri":"x://doc","name":"doc","description":"A doc.","mimeType":"text/plain","annotations":{"audience":["user"],"priority":0.5},"size":42}`,
			`{"uriTemplate":"x://doc/{part}","name":"doc","description":"A doc.","mimeType":"text/plain","annotations":{"audience":["user"],"priority":0.5}}`, `{"subscribe":true,"listChanged":true}`},
		{wire.Rev20250618, `{"uri":"x://doc","name":"doc","title":"Doc","description":"A doc.","mimeType":"text/plain","annotations":{"audience":["user"],"priority":0.5,"lastModified":"2026-01-02T15:04:05Z"},"size":42}`,
			`{"uriTemplate":"x://doc/{part}","name":"doc","title":"Doc","description":"A doc.","mimeType":"text/plain","annotations":{"audience":["user"],"priority":0.5,"lastModified":"2026-01-02T15:04:05Z"}}`, `{"subscribe":true,"listChanged":true}`},
		{wire.Rev20251125, `{"uri":"x://doc","name":"doc","title":"Doc","description":"A doc.","mimeType":"text/plain","annotations":{"audience":["user"],"priority":0.5,"lastModified":"2026-01-02T15:04:05Z"},"size":42,"icons":[{"src":"https://x/i.png"}]}`,
			`{"uriTemplate":"x://doc/{part}","name":"doc","title":"Doc","description":"A doc.","mimeType":"text/plain","annotations":{"audience":["user"],"priority":0.5,"lastModified":"2026-01-02T15:04:05Z"},"icons":[{"src":"https://x/i.png"}]}`, `{"subscribe":true,"listChanged":true}`},
	}
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableResourceSubscriptions: true, EnableResourceNotifications: true})
	srv.AddResources(r, tmpl)
	for _, tt := range tests {
		t.Run(string(tt.rev), func(t *testing.T) {
			c := startStdio(t, srv)
			c.call(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+string(tt.rev)+`"}}`,
				`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"`+string(tt.rev)+`","capabilities":{"resources":`+tt.resourcesCapability+`,"tools":{}},"serverInfo":{"name":"n","version":"v"}}}`)
			c.call(`{"jsonrpc":"2.0","id":1,"method":"resources/list"}`, `{"jsonrpc":"2.0","id":1,"result":{"resources":[`+tt.resource+`]}}`)
			c.call(`{"jsonrpc":"2.0","id":2,"method":"resources/templates/list"}`, `{"jsonrpc":"2.0","id":2,"result":{"resourceTemplates":[`+tt.template+`]}}`)
		})
	}
	// 2026-07-28 publishes the same: subscriptions/listen delivers them.
	c := startStdio(t, srv)
	c.call(`{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{`+statelessMeta+`}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","supportedVersions":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"],"capabilities":{"resources":{"subscribe":true,"listChanged":true},"tools":{}},"ttlMs":0,"cacheScope":"public","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"n","version":"v"}}}}`)
	c.call(`{"jsonrpc":"2.0","id":4,"method":"resources/list","params":{`+statelessMeta+`}}`,
		`{"jsonrpc":"2.0","id":4,"result":{"resultType":"complete","resources":[`+tests[3].resource+`],"ttlMs":0,"cacheScope":"public"}}`)
}

// TestResourcesCapabilityFollowsRegistration checks that the resources
// methods exist exactly while there are resources or templates.
func TestResourcesCapabilityFollowsRegistration(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v"})
	c := startStdio(t, srv)
	c.initialize(wire.Rev20251125, `{}`)
	methods := []string{"resources/list", "resources/templates/list", "resources/read"}
	for _, m := range methods {
		c.call(`{"jsonrpc":"2.0","id":1,"method":"`+m+`","params":{"uri":"x://a"}}`,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"method not found: `+m+`"}}`)
	}
	srv.AddResources(dataTemplate)
	c.call(`{"jsonrpc":"2.0","id":2,"method":"resources/list"}`, `{"jsonrpc":"2.0","id":2,"result":{"resources":[]}}`)
	c.call(`{"jsonrpc":"2.0","id":3,"method":"resources/templates/list"}`,
		`{"jsonrpc":"2.0","id":3,"result":{"resourceTemplates":[{"uriTemplate":"test://template/{id}/data","name":"template","mimeType":"application/json"}]}}`)
	srv.RemoveResources("test://template/{id}/data")
	c.call(`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"test://template/1/data"}}`,
		`{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"method not found: resources/read"}}`)
}

// TestHTTPResourcesStateless reads a resource over HTTP on 2026-07-28,
// found and not found.
func TestHTTPResourcesStateless(t *testing.T) {
	t.Parallel()
	c := startHTTP(t, resourceServer(mcprt.Identity{Name: "n", Version: "v"}))
	stateless := func(uri string) func(r *http.Request) {
		return func(r *http.Request) {
			r.Header.Set("MCP-Protocol-Version", "2026-07-28")
			r.Header.Set("Mcp-Method", "resources/read")
			r.Header.Set("Mcp-Name", uri)
		}
	}
	c.post(`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{`+statelessMeta+`,"uri":"test://template/7/data"}}`, 200,
		`{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","contents":[{"uri":"test://template/7/data","mimeType":"application/json","text":"{\"id\":\"7\",\"templateTest\":true}"}],"ttlMs":0,"cacheScope":"private"}}`, stateless("test://template/7/data"))
	c.post(`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{`+statelessMeta+`,"uri":"test://missing"}}`, 200,
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Resource not found","data":{"uri":"test://missing"}}}`, stateless("test://missing"))
}
