package servertest_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	. "github.com/mcpgen/mcpgen/internal/fixture"
	. "github.com/mcpgen/mcpgen/internal/servertest"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestResourcesAsTheBuiltInServer checks resources/list,
// resources/templates/list and resources/read against the built-in
// server's writers on every revision of the path.
func TestResourcesAsTheBuiltInServer(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		s := m.new(mcprt.Identity{Name: "t", Version: "1"})
		rs := Resources()
		s.addResources(rs...)
		reads := []struct {
			uri      string
			contents each
		}{
			{"test://static-text", all(`[{"uri":"test://static-text","mimeType":"text/plain","text":"This is the content of the static text resource."}]`)},
			{"test://static-binary", all(`[{"uri":"test://static-binary","mimeType":"image/png","blob":"` + PNGPixel + `"}]`)},
			{"test://template/123/data", all(`[{"uri":"test://template/123/data","mimeType":"application/json","text":"{\"id\":\"123\",\"templateTest\":true}"}]`)},
			// go-sdk leaves out empty text (see its TestDifferences).
			{"test://empty", each{builtin: `[{"uri":"test://empty","mimeType":"text/plain","text":""}]`, gosdk: `[{"uri":"test://empty","mimeType":"text/plain"}]`,
				mcpgo: `[{"uri":"test://empty","mimeType":"text/plain","text":""}]`}},
		}
		for _, rev := range m.revisions {
			t.Run(string(rev), func(t *testing.T) {
				c := s.raw(t, string(rev))
				SameJSON(t, "resources/list", c.Call("resources/list", `{}`), `{"resources":[`+Join(m.listResources(rs[:len(rs)-1]), wire.AppendResource, rev)+`]}`, m.listExtra...)
				SameJSON(t, "resources/templates/list", c.Call("resources/templates/list", `{}`), `{"resourceTemplates":[`+Join(rs[len(rs)-1:], wire.AppendResourceTemplate, rev)+`]}`, m.listExtra...)
				for _, r := range reads {
					SameJSON(t, "resources/read "+r.uri, c.Call("resources/read", `{"uri":"`+r.uri+`"}`), `{"contents":`+r.contents.on(m)+`}`, m.readExtra...)
				}
				meta := ""
				if rev.HasStructuredOutput() {
					meta = `,"_meta":{"k":1}`
				}
				SameJSON(t, "resources/read of several contents", c.Call("resources/read", `{"uri":"test://dir"}`),
					`{"contents":[{"uri":"test://dir/a.txt","mimeType":"text/plain","text":"A"},{"uri":"test://dir/b.bin","blob":"AA=="`+meta+`}]}`, m.readExtra...)
			})
		}
		if !m.revisions[len(m.revisions)-1].Stateless() {
			return
		}
		// 2026-07-28: lists may be kept by anyone, reads only by the client.
		c := s.raw(t, "2026-07-28")
		for method, scope := range map[string]string{"resources/list": "public", "resources/read": "private"} {
			if got := c.Call(method, `{"uri":"test://static-text"}`); !strings.Contains(got, `"ttlMs":0,"cacheScope":"`+scope+`"`) {
				t.Errorf("2026-07-28 %s: %s, want cacheScope %s", method, got, scope)
			}
		}
	})
}

// TestResourceReadErrors checks the answers to reads that find nothing,
// fail or panic; after a panic the server keeps serving.
func TestResourceReadErrors(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		log, logs := NewLog()
		s := m.new(mcprt.Identity{Name: "t", Version: "1"})
		s.logTo(log)
		s.addResources(append(Resources(), ItemsTemplate)...)
		cs := s.connect(t, "2025-11-25", nil)
		// go-sdk answers not found with -32602 (see its TestDifferences).
		notFound := func(code, uri string) string { return code + " Resource not found " + `{"uri":"` + uri + `"}` }
		// The reason, when the error gives one: in the message and data,
		// where the SDK sends data.
		because := func(code, uri, reason string) string {
			return code + " Resource not found: " + reason + ` {"uri":"` + uri + `","reason":"` + reason + `"}`
		}
		for _, tt := range []struct {
			uri  string
			want each
		}{
			{"test://nonexistent-resource-for-conformance-testing", each{
				builtin: notFound("-32002", "test://nonexistent-resource-for-conformance-testing"), gosdk: notFound("-32602", "test://nonexistent-resource-for-conformance-testing"),
				mcpgo: "-32002 handler not found for resource URI 'test://nonexistent-resource-for-conformance-testing': resource not found <nil>"}},
			// the SDK's matcher refuses it
			{"test://template/1/2/data", each{builtin: notFound("-32002", "test://template/1/2/data"), gosdk: notFound("-32602", "test://template/1/2/data"),
				mcpgo: "-32002 handler not found for resource URI 'test://template/1/2/data': resource not found <nil>"}},
			// the template's Read refuses it
			{"test://template/0/data", each{builtin: notFound("-32002", "test://template/0/data"), gosdk: notFound("-32602", "test://template/0/data"),
				mcpgo: "-32603 resource not found: test://template/0/data <nil>"}},
			{"test://gone", each{builtin: because("-32002", "test://gone", "looking up test://gone"), gosdk: because("-32602", "test://gone", "looking up test://gone"),
				mcpgo: "-32603 resource not found: test://gone: looking up test://gone <nil>"}},
			// a variable that does not parse
			{"test://items/x", each{builtin: because("-32002", "test://items/x", "n: x is not an integer"), gosdk: because("-32602", "test://items/x", "n: x is not an integer"),
				mcpgo: "-32603 resource not found: test://items/x: n: x is not an integer <nil>"}},
			{"test://broken", all("-32603 disk on fire <nil>")},
			{"test://boom", all(`-32603 internal error: resource "test://boom" panicked: kaputt <nil>`)},
		} {
			_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: tt.uri})
			if got := RPCError(err) + " " + ErrorData(err); got != tt.want.on(m) {
				t.Errorf("%s:\n got %s\nwant %s", tt.uri, got, tt.want.on(m))
			}
		}
		if !strings.Contains(logs.String(), `"mcp resource handler panicked" resource=test://boom panic=kaputt`) {
			t.Errorf("the panic was not logged:\n%s", logs)
		}
		for _, want := range []string{
			`level=INFO msg="mcp resource not found" uri=test://gone reason="looking up test://gone"`,
			`level=INFO msg="mcp resource not found" uri=test://items/x reason="n: x is not an integer"`,
		} {
			if !strings.Contains(logs.String(), want) {
				t.Errorf("the reason is not logged: want %s in\n%s", want, logs)
			}
		}
		if res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "test://static-text"}); err != nil || len(res.Contents) != 1 {
			t.Errorf("after a panic: %v, %v", res, err)
		}
	})
}

// TestTemplatesTriedInOrder checks that a URI two templates match is read
// from the first added that serves it, whichever template the SDK matched
// it to: go-sdk asks its templates in the order of their text,
// kb://{+path} before kb://{x}/n, and mcp-go in no set order.
func TestTemplatesTriedInOrder(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		serves := func(uri, pattern, text string) mcprt.Resource {
			re := regexp.MustCompile(pattern)
			return mcprt.Resource{URI: uri, Name: text, MIMEType: "text/" + text, Read: func(ctx context.Context, u string) ([]mcprt.ResourceContents, error) {
				if !re.MatchString(u) {
					return nil, mcprt.ErrNotFound
				}
				return []mcprt.ResourceContents{{Text: text}}, nil
			}}
		}
		s := m.new(mcprt.Identity{Name: "t", Version: "1"})
		s.addResources(serves("kb://{x}/n", `^kb://a[^/]*/n$`, "segment"), serves("kb://{+path}", `^kb://.+$`, "path"))
		c := s.raw(t, "2025-11-25")
		for range 20 { // mcp-go's order varies from read to read
			for _, tt := range []struct{ uri, want string }{
				{"kb://a/n", `{"contents":[{"uri":"kb://a/n","mimeType":"text/segment","text":"segment"}]}`},
				{"kb://b/n", `{"contents":[{"uri":"kb://b/n","mimeType":"text/path","text":"path"}]}`},
				{"kb://a/b/c", `{"contents":[{"uri":"kb://a/b/c","mimeType":"text/path","text":"path"}]}`},
			} {
				SameJSON(t, tt.uri, c.Call("resources/read", `{"uri":"`+tt.uri+`"}`), tt.want, m.readExtra...)
				if t.Failed() {
					return
				}
			}
		}
	})
}

// TestResourceSubscriptions subscribes from two sessions; each is told of
// updates of the URIs it subscribed to and of no other, until it
// unsubscribes.
func TestResourceSubscriptions(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		s := m.new(mcprt.Identity{Name: "t", Version: "1", EnableResourceSubscriptions: true})
		s.addResources(Resources()...)
		var updated [2]*Notifications
		var sessions [2]*mcp.ClientSession
		for i := range sessions {
			n := NewNotifications()
			updated[i] = n
			sessions[i] = s.connect(t, "2025-11-25", &mcp.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
				n.Add(req.Params.URI)
			}})
		}
		if caps := sessions[0].InitializeResult().Capabilities.Resources; caps == nil || !caps.Subscribe || caps.ListChanged {
			t.Errorf("resources capability %+v, want subscribe only", caps)
		}
		ctx := context.Background()
		subscribe := func(i int, uri string) {
			if err := sessions[i].Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
				t.Fatal(err)
			}
		}
		subscribe(0, "test://static-text")
		subscribe(0, "test://template/7/data")
		subscribe(1, "test://template/7/data")
		s.resourceUpdated("test://static-binary")
		s.resourceUpdated("test://template/7/data")
		updated[0].Wait(t, "notifications/resources/updated")
		updated[1].Wait(t, "notifications/resources/updated")
		if err := sessions[0].Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "test://template/7/data"}); err != nil {
			t.Fatal(err)
		}
		s.resourceUpdated("test://template/7/data")
		s.resourceUpdated("test://static-text")
		updated[0].Wait(t, "notifications/resources/updated")
		updated[1].Wait(t, "notifications/resources/updated")
		updated[0].None(t, "notification")
		for i, want := range []string{"test://template/7/data test://static-text", "test://template/7/data test://template/7/data"} {
			if got := strings.Join(updated[i].List(), " "); got != want {
				t.Errorf("session %d was told of %s, want %s", i, got, want)
			}
		}
	})
}

// TestSubscriptionsNeedTheSwitch checks that without
// EnableResourceSubscriptions resources/subscribe is not a method.
func TestSubscriptionsNeedTheSwitch(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		s := m.new(mcprt.Identity{Name: "t", Version: "1"})
		s.addResources(Resources()...)
		cs := s.connect(t, "2025-11-25", nil)
		err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: "test://static-text"})
		if got := RPCError(err); !strings.HasPrefix(got, "-32601 ") {
			t.Errorf("subscribe: %s, want -32601", got)
		}
	})
}

// TestResourceListChanged checks that adding resources or templates while
// serving sends notifications/resources/list_changed with
// EnableResourceNotifications, and not without it.
func TestResourceListChanged(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		for _, on := range []bool{true, false} {
			t.Run(fmt.Sprint(on), func(t *testing.T) {
				changed := NewNotifications()
				s := m.new(mcprt.Identity{Name: "t", Version: "1", EnableResourceNotifications: on})
				if !m.emptyCapability {
					s.addResources(TextResource("test://first", "first"))
				}
				cs := s.connect(t, "2025-11-25", &mcp.ClientOptions{ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
					changed.Add("resources")
				}})
				if got := cs.InitializeResult().Capabilities.Resources; got == nil || got.ListChanged != on || got.Subscribe {
					t.Errorf("resources capability %+v", got)
				}
				for _, r := range []mcprt.Resource{TextResource("test://late", "late"), DataTemplate} {
					s.addResources(r)
					if on {
						changed.Wait(t, "notifications/resources/list_changed")
					} else {
						changed.None(t, "notifications/resources/list_changed")
					}
				}
			})
		}
	})
}
