package mcpgo

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestDifferences checks each difference from the built-in server that
// the package documentation lists for prompts, resources and completions,
// asserting what mcp-go does, so that a change in mcp-go shows here.
func TestDifferences(t *testing.T) {
	annotated := mcprt.Resource{URI: "test://annotated", Name: "annotated", Title: "Annotated",
		Annotations: &mcprt.Annotations{Audience: []string{"user"}, LastModified: "2026-01-02T15:04:05Z"},
		Read: func(context.Context, string) ([]mcprt.ResourceContents, error) {
			return []mcprt.ResourceContents{{Text: "a"}}, nil
		}}
	s := NewServer(mcprt.Identity{Name: "t", Version: "1", EnableCompletions: true, EnableResourceSubscriptions: true})
	AddPrompts(s, kinds, failing)
	AddResources(s, annotated, dataTemplate, textResource("test://b", "b"), textResource("test://a", "a"), fixtures()[4])
	old := func(method, params string) string { return call(t, s, "2024-11-05", method, params) }

	t.Run("descriptors are the same on every revision on a server the caller made", func(t *testing.T) {
		own := server.NewMCPServer("t", "1", server.WithToolCapabilities(false))
		AddPrompts(own, kinds)
		AddResources(own, annotated)
		AddTools(own, sampleTools()...)
		prompts := call(t, own, "2024-11-05", "prompts/list", `{}`)
		if !strings.Contains(prompts, `"title":"Every kind"`) || !strings.Contains(prompts, `"icons":[`) {
			t.Errorf("2024-11-05 prompts/list without title or icons: %s", prompts)
		}
		if resources := call(t, own, "2024-11-05", "resources/list", `{}`); !strings.Contains(resources, `"annotations":{"audience":["user"],"lastModified":"2026-01-02T15:04:05Z"}`) {
			t.Errorf("2024-11-05 resources/list without annotations: %s", resources)
		}
		if tools := call(t, own, "2024-11-05", "tools/list", `{}`); !strings.Contains(tools, `"annotations":{"title":"Full","readOnlyHint":true,"openWorldHint":false}`) || !strings.Contains(tools, `"execution":{"taskSupport":"optional"}`) {
			t.Errorf("2024-11-05 tools/list without annotations or execution: %s", tools)
		}
		// The output schema is the wrapped one, valid on every revision
		// with structured output, and so are the results on 2026-07-28.
		if got := call(t, own, "2026-07-28", "tools/call", `{"name":"b_full","arguments":{}}`); !strings.Contains(got, `"structuredContent":{"result":[1,2]}`) {
			t.Errorf("2026-07-28 call on a server the caller made: %s, want the wrapped result", got)
		}
	})
	t.Run("annotations always written", func(t *testing.T) {
		tools := NewServer(mcprt.Identity{Name: "t", Version: "1"}, sampleTools()...)
		for rev, want := range map[string]string{
			"2024-11-05": `"annotations":{},"description":"Has everything."`,
			"2025-11-25": `"annotations":{},"description":"Has no title and no hints."`,
		} {
			if got := call(t, tools, rev, "tools/list", `{}`); !strings.Contains(got, want) {
				t.Errorf("%s tools/list: %s, want %s", rev, got, want)
			}
		}
	})
	t.Run("lists are sorted by name", func(t *testing.T) {
		if got := old("prompts/list", `{}`); strings.Index(got, `"name":"failing"`) > strings.Index(got, `"name":"kinds"`) {
			t.Errorf("prompts not sorted by name: %s", got)
		}
		if got := old("resources/list", `{}`); strings.Index(got, `"name":"a"`) > strings.Index(got, `"name":"annotated"`) {
			t.Errorf("resources not sorted by name: %s", got)
		}
	})
	t.Run("a prompt's argument error is -32603", func(t *testing.T) {
		if got, want := old("prompts/get", `{"name":"kinds"}`), `{"error":{"code":-32603,"message":"invalid arguments:\nwho: required argument is missing"}}`; got != want {
			t.Errorf("\n got %s\nwant %s", got, want)
		}
	})
	t.Run("a read handler's not found is -32603", func(t *testing.T) {
		for _, rev := range []string{"2025-11-25", "2026-07-28"} {
			for uri, want := range map[string]string{
				"test://gone":            `{"error":{"code":-32603,"message":"resource not found: test://gone"}}`,
				"test://template/0/data": `{"error":{"code":-32603,"message":"resource not found: test://template/0/data"}}`,
			} {
				if got := call(t, s, rev, "resources/read", `{"uri":"`+uri+`"}`); got != want {
					t.Errorf("%s %s:\n got %s\nwant %s", rev, uri, got, want)
				}
			}
		}
	})
	t.Run("mcp-go's own not found has no data", func(t *testing.T) {
		for rev, code := range map[string]string{"2024-11-05": "-32002", "2025-11-25": "-32002", "2026-07-28": "-32602"} {
			want := `{"error":{"code":` + code + `,"message":"handler not found for resource URI 'test://nope': resource not found"}}`
			if got := call(t, s, rev, "resources/read", `{"uri":"test://nope"}`); got != want {
				t.Errorf("%s:\n got %s\nwant %s", rev, got, want)
			}
		}
	})
	t.Run("templates match as mcp-go's matcher does", func(t *testing.T) {
		const uri = "test://template/a:b/data"
		if contents, err := dataTemplate.Read(context.Background(), uri); err != nil || len(contents) != 1 {
			t.Fatalf("the template itself serves %s: %v, %v", uri, contents, err)
		}
		if got := old("resources/read", `{"uri":"`+uri+`"}`); !strings.Contains(got, `"code":-32002`) {
			t.Errorf("%s: %s, want not found", uri, got)
		}
	})
	t.Run("completion of an unknown prompt is -32603", func(t *testing.T) {
		if got, want := old("completion/complete", `{"ref":{"type":"ref/prompt","name":"nope"},"argument":{"name":"x","value":""}}`), `{"error":{"code":-32603,"message":"invalid params: unknown prompt \"nope\""}}`; got != want {
			t.Errorf("\n got %s\nwant %s", got, want)
		}
	})
	t.Run("completion leaves out zero total and hasMore", func(t *testing.T) {
		if got, want := old("completion/complete", `{"ref":{"type":"ref/prompt","name":"failing"},"argument":{"name":"x","value":""}}`), `{"completion":{"values":[]}}`; got != want {
			t.Errorf("\n got %s\nwant %s", got, want)
		}
	})
	t.Run("completions capability on 2024-11-05", func(t *testing.T) {
		if got := old("initialize", `{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`); !strings.Contains(got, `"completions":{}`) {
			t.Errorf("2024-11-05 initialize: %s", got)
		}
	})
	t.Run("completions only on a server NewServer made", func(t *testing.T) {
		own := completing(server.NewMCPServer("t", "1", server.WithCompletions()))
		if got, want := call(t, own, "2025-11-25", "completion/complete", `{"ref":{"type":"ref/prompt","name":"show"},"argument":{"name":"x","value":""}}`), `{"completion":{"values":[]}}`; got != want {
			t.Errorf("mcp-go's default provider:\n got %s\nwant %s", got, want)
		}
	})
	t.Run("listChanged and subscribe on 2026-07-28", func(t *testing.T) {
		if got := call(t, s, "2026-07-28", "server/discover", `{}`); !strings.Contains(got, `"resources":{"subscribe":true}`) {
			t.Errorf("2026-07-28 discover: %s, want resources.subscribe", got)
		}
	})
	t.Run("a listen stream is not told of updates", func(t *testing.T) { listenIsNotTold(t, s) })
	t.Run("resources and templates added together notify twice", func(t *testing.T) {
		changed := newNotifications()
		s := NewServer(mcprt.Identity{Name: "t", Version: "1", EnableResourceNotifications: true})
		connect(t, s, "2025-11-25", &sdk.ClientOptions{ResourceListChangedHandler: func(context.Context, *sdk.ResourceListChangedRequest) {
			changed.add("resources")
		}})
		AddResources(s, textResource("test://late", "late"), dataTemplate)
		changed.wait(t, "notifications/resources/list_changed")
		changed.wait(t, "a second notifications/resources/list_changed")
	})
}

// listenIsNotTold opens a subscriptions/listen stream of 2026-07-28 asking
// for updates of one URI: mcp-go acknowledges the subscription, but keeps
// it only in a session that implements SessionWithResourceSubscriptions,
// which none of its own do, so ResourceUpdated finds no one to tell.
func listenIsNotTold(t *testing.T, s *server.MCPServer) {
	sess := newTestSession("listen", "2026-07-28")
	ctx, cancel := context.WithCancel(s.WithContext(context.Background(), sess))
	done := make(chan any)
	go func() {
		done <- s.HandleMessage(ctx, json.RawMessage(`{"jsonrpc":"2.0","id":9,"method":"subscriptions/listen","params":{`+modernMeta+`,"notifications":{"resourceSubscriptions":["test://a"]}}}`))
	}()
	select {
	case ack := <-sess.ch:
		js, _ := json.Marshal(ack)
		if !strings.Contains(string(js), `"notifications/subscriptions/acknowledged"`) || !strings.Contains(string(js), `"resourceSubscriptions":["test://a"]`) {
			t.Errorf("acknowledgement: %s", js)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no acknowledgement")
	}
	ResourceUpdated(s, "test://a")
	select {
	case n := <-sess.ch:
		t.Errorf("the listen stream was told: %+v", n)
	case <-time.After(100 * time.Millisecond):
	}
	cancel()
	<-done
}
