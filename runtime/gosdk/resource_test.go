package gosdk

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// textResource is a static resource whose content is text.
func textResource(uri, text string) mcprt.Resource {
	return mcprt.Resource{
		URI: uri, Name: strings.TrimPrefix(uri, "test://"), Title: "Text " + uri, Description: "Says " + text, MIMEType: "text/plain",
		Size: int64(len(text)), Annotations: &mcprt.Annotations{Audience: []string{"user", "assistant"}, Priority: &priority},
		Icons: []mcprt.Icon{{Src: "https://example.com/t.png"}},
		Read: func(ctx context.Context, u string) ([]mcprt.ResourceContents, error) {
			return []mcprt.ResourceContents{{Text: text}}, nil
		},
	}
}

// dataTemplate is the conformance suite's template test://template/{id}/data:
// its Read matches the URI itself and answers JSON text.
var dataTemplate = mcprt.Resource{
	URI: "test://template/{id}/data", Name: "template", Title: "Data", Description: "Data by id.", MIMEType: "application/json",
	Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
		rest, ok := strings.CutPrefix(uri, "test://template/")
		id, ok2 := strings.CutSuffix(rest, "/data")
		if !ok || !ok2 || id == "" || strings.Contains(id, "/") || id == "0" {
			return nil, mcprt.ErrNotFound
		}
		return []mcprt.ResourceContents{{Text: `{"id":"` + id + `","templateTest":true}`}}, nil
	},
}

// fixtures are the resources of the read tests.
func fixtures() []mcprt.Resource {
	return []mcprt.Resource{
		textResource("test://static-text", "This is the content of the static text resource."),
		{URI: "test://static-binary", Name: "static-binary", MIMEType: "image/png",
			Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
				return []mcprt.ResourceContents{{Blob: pngBytes()}}, nil
			}},
		{URI: "test://dir", Name: "dir",
			Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
				return []mcprt.ResourceContents{
					{URI: "test://dir/a.txt", MIMEType: "text/plain", Text: "A"},
					{URI: "test://dir/b.bin", Blob: []byte{0}, Meta: []byte(`{"k":1}`)},
				}, nil
			}},
		{URI: "test://gone", Name: "gone",
			Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
				return nil, fmt.Errorf("looking up %s: %w", uri, mcprt.ErrNotFound)
			}},
		{URI: "test://broken", Name: "broken",
			Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
				return nil, errors.New("disk on fire")
			}},
		{URI: "test://boom", Name: "boom",
			Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) { panic("kaputt") }},
		dataTemplate,
	}
}

// TestResourcesAsTheBuiltInServer checks resources/list,
// resources/templates/list and resources/read against the built-in
// server's writers on every revision go-sdk speaks with sessions.
func TestResourcesAsTheBuiltInServer(t *testing.T) {
	s := NewServer(mcprt.Identity{Name: "t", Version: "1"})
	rs := fixtures()
	AddResources(s, rs...)
	list := func(rs []mcprt.Resource, appendOne func([]byte, *mcprt.Resource, wire.Revision) []byte, rev wire.Revision) string {
		var b []byte
		for i := range rs {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendOne(b, &rs[i], rev)
		}
		return string(b)
	}
	reads := []struct{ uri, contents string }{
		{"test://static-text", `[{"uri":"test://static-text","mimeType":"text/plain","text":"This is the content of the static text resource."}]`},
		{"test://static-binary", `[{"uri":"test://static-binary","mimeType":"image/png","blob":"` + pngPixel + `"}]`},
		{"test://template/123/data", `[{"uri":"test://template/123/data","mimeType":"application/json","text":"{\"id\":\"123\",\"templateTest\":true}"}]`},
	}
	for _, rev := range []wire.Revision{wire.Rev20241105, wire.Rev20250326, wire.Rev20250618, wire.Rev20251125} {
		t.Run(string(rev), func(t *testing.T) {
			c := dial(t, s, string(rev))
			// go-sdk lists in the order of URIs.
			sameJSON(t, "resources/list", c.call("resources/list", `{}`), `{"resources":[`+list(byURI(rs[:len(rs)-1]), wire.AppendResource, rev)+`]}`)
			sameJSON(t, "resources/templates/list", c.call("resources/templates/list", `{}`), `{"resourceTemplates":[`+list(rs[len(rs)-1:], wire.AppendResourceTemplate, rev)+`]}`)
			for _, r := range reads {
				sameJSON(t, "resources/read "+r.uri, c.call("resources/read", `{"uri":"`+r.uri+`"}`), `{"contents":`+r.contents+`}`, cacheHints...)
			}
			meta := ""
			if rev.HasStructuredOutput() {
				meta = `,"_meta":{"k":1}`
			}
			sameJSON(t, "resources/read of several contents", c.call("resources/read", `{"uri":"test://dir"}`),
				`{"contents":[{"uri":"test://dir/a.txt","mimeType":"text/plain","text":"A"},{"uri":"test://dir/b.bin","blob":"AA=="`+meta+`}]}`, cacheHints...)
		})
	}
}

// byURI returns rs sorted by URI.
func byURI(rs []mcprt.Resource) []mcprt.Resource {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b mcprt.Resource) int { return strings.Compare(a.URI, b.URI) })
	return rs
}

// TestResourceReadErrors checks the answers to reads that find nothing,
// fail or panic; after a panic the server keeps serving.
func TestResourceReadErrors(t *testing.T) {
	logs := quietLog(t)
	s := NewServer(mcprt.Identity{Name: "t", Version: "1"})
	AddResources(s, fixtures()...)
	cs := connect(t, s, "2025-11-25", nil)
	notFound := func(uri string) string { return "-32602 Resource not found " + `{"uri":"` + uri + `"}` }
	for _, tt := range []struct{ uri, want string }{
		{"test://nonexistent-resource-for-conformance-testing", notFound("test://nonexistent-resource-for-conformance-testing")},
		{"test://template/1/2/data", notFound("test://template/1/2/data")}, // the SDK's matcher refuses it
		{"test://template/0/data", notFound("test://template/0/data")},     // the template's Read refuses it
		{"test://gone", notFound("test://gone")},
		{"test://broken", "-32603 disk on fire <nil>"},
		{"test://boom", `-32603 internal error: resource "test://boom" panicked: kaputt <nil>`},
	} {
		_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: tt.uri})
		if got := rpcError(err) + " " + errorData(err); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.uri, got, tt.want)
		}
	}
	if !strings.Contains(logs.String(), `"mcp resource handler panicked" resource=test://boom panic=kaputt`) {
		t.Errorf("the panic was not logged:\n%s", logs)
	}
	if res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "test://static-text"}); err != nil || len(res.Contents) != 1 {
		t.Errorf("after a panic: %v, %v", res, err)
	}
}

// TestTemplatesTriedInOrder checks that a URI two templates match is read
// from the first added that serves it, whichever go-sdk matched it to.
func TestTemplatesTriedInOrder(t *testing.T) {
	serves := func(uri, pattern, text string) mcprt.Resource {
		re := regexp.MustCompile(pattern)
		return mcprt.Resource{URI: uri, Name: text, MIMEType: "text/" + text, Read: func(ctx context.Context, u string) ([]mcprt.ResourceContents, error) {
			if !re.MatchString(u) {
				return nil, mcprt.ErrNotFound
			}
			return []mcprt.ResourceContents{{Text: text}}, nil
		}}
	}
	s := NewServer(mcprt.Identity{Name: "t", Version: "1"})
	// go-sdk asks the templates in the order of their text, kb://{+path}
	// before kb://{x}/n; the built-in server, and so the adapter, in the
	// order added.
	AddResources(s, serves("kb://{x}/n", `^kb://[^/]+/n$`, "old"), serves("kb://{+path}", `^kb://.+$`, "path"))
	AddResources(s, serves("kb://{x}/n", `^kb://a[^/]*/n$`, "segment")) // replaced, in its place
	cs := connect(t, s, "2025-11-25", nil)
	for _, tt := range []struct{ uri, want string }{
		{"kb://a/n", "segment text/segment"},
		{"kb://b/n", "path text/path"},
		{"kb://a/b/c", "path text/path"},
	} {
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: tt.uri})
		if err != nil {
			t.Fatalf("%s: %v", tt.uri, err)
		}
		if got := res.Contents[0].Text + " " + res.Contents[0].MIMEType; got != tt.want {
			t.Errorf("%s: %s, want %s", tt.uri, got, tt.want)
		}
	}
}

// TestResourceSubscriptions subscribes, is told of an update of the URI
// subscribed to and of no other, unsubscribes and is told nothing more.
func TestResourceSubscriptions(t *testing.T) {
	updated := newNotifications()
	s := NewServer(mcprt.Identity{Name: "t", Version: "1", EnableResourceSubscriptions: true})
	AddResources(s, fixtures()...)
	cs := connect(t, s, "2025-11-25", &mcp.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
		updated.add(req.Params.URI)
	}})
	if caps := cs.InitializeResult().Capabilities.Resources; caps == nil || !caps.Subscribe || caps.ListChanged {
		t.Errorf("resources capability %+v, want subscribe only", caps)
	}
	ctx := context.Background()
	for _, uri := range []string{"test://static-text", "test://template/7/data"} {
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
			t.Fatal(err)
		}
	}
	ResourceUpdated(s, "test://static-binary")
	ResourceUpdated(s, "test://template/7/data")
	updated.wait(t, "notifications/resources/updated")
	if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "test://template/7/data"}); err != nil {
		t.Fatal(err)
	}
	ResourceUpdated(s, "test://template/7/data")
	ResourceUpdated(s, "test://static-text")
	updated.wait(t, "notifications/resources/updated")
	updated.none(t, "notification")
	if got := strings.Join(updated.list(), " "); got != "test://template/7/data test://static-text" {
		t.Errorf("updated: %s", got)
	}
}

// TestSubscriptionsNeedTheSwitch checks that without
// EnableResourceSubscriptions resources/subscribe is not a method.
func TestSubscriptionsNeedTheSwitch(t *testing.T) {
	s := NewServer(mcprt.Identity{Name: "t", Version: "1"})
	AddResources(s, fixtures()...)
	cs := connect(t, s, "2025-11-25", nil)
	err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: "test://static-text"})
	if got := rpcError(err); !strings.HasPrefix(got, "-32601 ") {
		t.Errorf("subscribe: %s, want -32601", got)
	}
}

// TestResourceListChanged checks that adding resources or templates while
// serving sends notifications/resources/list_changed with
// EnableResourceNotifications, and not without it.
func TestResourceListChanged(t *testing.T) {
	for _, on := range []bool{true, false} {
		t.Run(fmt.Sprint(on), func(t *testing.T) {
			changed := newNotifications()
			s := NewServer(mcprt.Identity{Name: "t", Version: "1", EnableResourceNotifications: on})
			cs := connect(t, s, "2025-11-25", &mcp.ClientOptions{ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
				changed.add("resources")
			}})
			if got := cs.InitializeResult().Capabilities.Resources; got == nil || got.ListChanged != on || got.Subscribe {
				t.Errorf("resources capability %+v", got)
			}
			for _, r := range []mcprt.Resource{textResource("test://late", "late"), dataTemplate} {
				AddResources(s, r)
				if on {
					changed.wait(t, "notifications/resources/list_changed")
				} else {
					changed.none(t, "notifications/resources/list_changed")
				}
			}
		})
	}
}
