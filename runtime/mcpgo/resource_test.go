package mcpgo

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

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
		{URI: "test://empty", Name: "empty", MIMEType: "text/plain",
			Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
				return []mcprt.ResourceContents{{}}, nil
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

// byName returns rs sorted by name, as mcp-go lists them.
func byName(rs []mcprt.Resource) []mcprt.Resource {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b mcprt.Resource) int { return strings.Compare(a.Name, b.Name) })
	return rs
}

// list writes rs as the built-in server lists them on revision rev.
func list(rs []mcprt.Resource, appendOne func([]byte, *mcprt.Resource, wire.Revision) []byte, rev wire.Revision) string {
	var b []byte
	for i := range rs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendOne(b, &rs[i], rev)
	}
	return string(b)
}

// TestResourcesAsTheBuiltInServer checks resources/list,
// resources/templates/list and resources/read against the built-in
// server's writers on every revision.
func TestResourcesAsTheBuiltInServer(t *testing.T) {
	s := NewServer(mcprt.Identity{Name: "t", Version: "1"})
	rs := fixtures()
	AddResources(s, rs...)
	reads := []struct{ uri, contents string }{
		{"test://static-text", `[{"uri":"test://static-text","mimeType":"text/plain","text":"This is the content of the static text resource."}]`},
		{"test://static-binary", `[{"uri":"test://static-binary","mimeType":"image/png","blob":"` + pngPixel + `"}]`},
		{"test://empty", `[{"uri":"test://empty","mimeType":"text/plain","text":""}]`},
		{"test://template/123/data", `[{"uri":"test://template/123/data","mimeType":"application/json","text":"{\"id\":\"123\",\"templateTest\":true}"}]`},
	}
	for _, rev := range wire.Revisions {
		t.Run(string(rev), func(t *testing.T) {
			sameJSON(t, "resources/list", call(t, s, string(rev), "resources/list", `{}`),
				`{"resources":[`+list(byName(rs[:len(rs)-1]), wire.AppendResource, rev)+`]}`, statelessMembers...)
			sameJSON(t, "resources/templates/list", call(t, s, string(rev), "resources/templates/list", `{}`),
				`{"resourceTemplates":[`+list(rs[len(rs)-1:], wire.AppendResourceTemplate, rev)+`]}`, statelessMembers...)
			for _, r := range reads {
				sameJSON(t, "resources/read "+r.uri, call(t, s, string(rev), "resources/read", `{"uri":"`+r.uri+`"}`), `{"contents":`+r.contents+`}`, statelessMembers...)
			}
			meta := ""
			if rev.HasStructuredOutput() {
				meta = `,"_meta":{"k":1}`
			}
			sameJSON(t, "resources/read of several contents", call(t, s, string(rev), "resources/read", `{"uri":"test://dir"}`),
				`{"contents":[{"uri":"test://dir/a.txt","mimeType":"text/plain","text":"A"},{"uri":"test://dir/b.bin","blob":"AA=="`+meta+`}]}`, statelessMembers...)
		})
	}
	// 2026-07-28: lists may be kept by anyone, reads only by the client.
	for method, scope := range map[string]string{"resources/list": "public", "resources/read": "private"} {
		if got := call(t, s, "2026-07-28", method, `{"uri":"test://static-text"}`); !strings.Contains(got, `"ttlMs":0,"cacheScope":"`+scope+`"`) {
			t.Errorf("2026-07-28 %s: %s, want cacheScope %s", method, got, scope)
		}
	}
}

// TestResourceReadErrors checks the answers to reads that find nothing,
// fail or panic; after a panic the server keeps serving.
func TestResourceReadErrors(t *testing.T) {
	logs := quietLog(t)
	s := NewServer(mcprt.Identity{Name: "t", Version: "1"})
	AddResources(s, fixtures()...)
	cs := connect(t, s, "2025-11-25", nil)
	for _, tt := range []struct{ uri, want string }{
		{"test://nonexistent-resource-for-conformance-testing", "-32002 handler not found for resource URI 'test://nonexistent-resource-for-conformance-testing': resource not found"},
		{"test://template/1/2/data", "-32002 handler not found for resource URI 'test://template/1/2/data': resource not found"}, // mcp-go's matcher refuses it
		{"test://template/0/data", "-32603 resource not found: test://template/0/data"},                                          // the template's Read refuses it
		{"test://gone", "-32603 resource not found: test://gone"},
		{"test://broken", "-32603 disk on fire"},
		{"test://boom", `-32603 internal error: resource "test://boom" panicked: kaputt`},
	} {
		_, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: tt.uri})
		if got := rpcError(err); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.uri, got, tt.want)
		}
	}
	if !strings.Contains(logs.String(), `"mcp resource handler panicked" resource=test://boom panic=kaputt`) {
		t.Errorf("the panic was not logged:\n%s", logs)
	}
	if res, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: "test://static-text"}); err != nil || len(res.Contents) != 1 {
		t.Errorf("after a panic: %v, %v", res, err)
	}
}

// TestTemplatesTriedInOrder checks that a URI two templates match is read
// from the first added that serves it, whichever mcp-go matched it to
// (it tries its templates in no set order).
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
	AddResources(s, serves("kb://{x}/n", `^kb://[^/]+/n$`, "old"), serves("kb://{+path}", `^kb://.+$`, "path"))
	AddResources(s, serves("kb://{x}/n", `^kb://a[^/]*/n$`, "segment")) // replaced, in its place
	for range 20 {                                                      // mcp-go's order varies from read to read
		for _, tt := range []struct{ uri, want string }{
			{"kb://a/n", `{"contents":[{"uri":"kb://a/n","mimeType":"text/segment","text":"segment"}]}`},
			{"kb://b/n", `{"contents":[{"uri":"kb://b/n","mimeType":"text/path","text":"path"}]}`},
			{"kb://a/b/c", `{"contents":[{"uri":"kb://a/b/c","mimeType":"text/path","text":"path"}]}`},
		} {
			if got := call(t, s, "2025-11-25", "resources/read", `{"uri":"`+tt.uri+`"}`); got != tt.want {
				t.Fatalf("%s:\n got %s\nwant %s", tt.uri, got, tt.want)
			}
		}
	}
}

// TestResourceSubscriptions subscribes from two sessions; each is told of
// updates of the URIs it subscribed to and of no other, until it
// unsubscribes.
func TestResourceSubscriptions(t *testing.T) {
	s := NewServer(mcprt.Identity{Name: "t", Version: "1", EnableResourceSubscriptions: true})
	AddResources(s, fixtures()...)
	var updated [2]*notifications
	var sessions [2]*sdk.ClientSession
	for i := range sessions {
		n := newNotifications()
		updated[i] = n
		sessions[i] = connect(t, s, "2025-11-25", &sdk.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, req *sdk.ResourceUpdatedNotificationRequest) {
			n.add(req.Params.URI)
		}})
	}
	if caps := sessions[0].InitializeResult().Capabilities.Resources; caps == nil || !caps.Subscribe || caps.ListChanged {
		t.Errorf("resources capability %+v, want subscribe only", caps)
	}
	ctx := context.Background()
	subscribe := func(i int, uri string) {
		if err := sessions[i].Subscribe(ctx, &sdk.SubscribeParams{URI: uri}); err != nil {
			t.Fatal(err)
		}
	}
	subscribe(0, "test://static-text")
	subscribe(0, "test://template/7/data")
	subscribe(1, "test://template/7/data")
	ResourceUpdated(s, "test://static-binary")
	ResourceUpdated(s, "test://template/7/data")
	updated[0].wait(t, "notifications/resources/updated")
	updated[1].wait(t, "notifications/resources/updated")
	if err := sessions[0].Unsubscribe(ctx, &sdk.UnsubscribeParams{URI: "test://template/7/data"}); err != nil {
		t.Fatal(err)
	}
	ResourceUpdated(s, "test://template/7/data")
	ResourceUpdated(s, "test://static-text")
	updated[0].wait(t, "notifications/resources/updated")
	updated[1].wait(t, "notifications/resources/updated")
	updated[0].none(t, "notification")
	for i, want := range []string{"test://template/7/data test://static-text", "test://template/7/data test://template/7/data"} {
		if got := strings.Join(updated[i].list(), " "); got != want {
			t.Errorf("session %d was told of %s, want %s", i, got, want)
		}
	}
}

// TestSubscriptionsNeedTheSwitch checks that without
// EnableResourceSubscriptions resources/subscribe is not a method.
func TestSubscriptionsNeedTheSwitch(t *testing.T) {
	s := NewServer(mcprt.Identity{Name: "t", Version: "1"})
	AddResources(s, fixtures()...)
	cs := connect(t, s, "2025-11-25", nil)
	err := cs.Subscribe(context.Background(), &sdk.SubscribeParams{URI: "test://static-text"})
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
			AddResources(s, textResource("test://first", "first")) // mcp-go publishes resources once there are some
			cs := connect(t, s, "2025-11-25", &sdk.ClientOptions{ResourceListChangedHandler: func(context.Context, *sdk.ResourceListChangedRequest) {
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
