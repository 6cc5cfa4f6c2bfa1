package gosdk

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/fixture"
	"github.com/mcpgen/mcpgen/internal/servertest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestDifferences checks each difference from the built-in server that
// the package documentation lists for prompts, resources and completions,
// asserting what go-sdk does, so that a change in the SDK shows here.
func TestDifferences(t *testing.T) {
	t.Parallel()
	zero := 0.0
	annotated := mcprt.Resource{URI: "test://annotated", Name: "annotated", Title: "Annotated",
		Annotations: &mcprt.Annotations{Audience: []string{"user"}, Priority: &zero, LastModified: "2026-01-02T15:04:05Z"},
		Read: func(context.Context, string) ([]mcprt.ResourceContents, error) {
			return []mcprt.ResourceContents{{Text: ""}}, nil
		}}
	ranked := mcprt.Prompt{Name: "ranked", Description: "Ranks.", Get: func(context.Context, map[string]string) (mcprt.PromptResult, error) {
		return mcprt.PromptResult{Messages: []mcprt.PromptMessage{{Content: mcprt.Text("r").With(mcprt.Annotations{Audience: []string{"user"}, Priority: &zero})}}}, nil
	}}
	empty := mcprt.Prompt{Name: "empty", Description: "Embeds an empty text.", Get: func(context.Context, map[string]string) (mcprt.PromptResult, error) {
		return mcprt.PromptResult{Messages: []mcprt.PromptMessage{{Content: mcprt.TextResource("test://e", "text/plain", "")}}}, nil
	}}
	server := func(id mcprt.Identity) *mcp.Server {
		s := NewServer(id)
		AddPrompts(s, fixture.Kinds, empty, ranked, textPromptNamed("b"), textPromptNamed("a"))
		AddResources(s, annotated, fixture.DataTemplate, fixture.TextResource("test://b", "b"), fixture.TextResource("test://a", "a"))
		return s
	}
	s := server(mcprt.Identity{Name: "t", Version: "1", EnableCompletions: true, EnableResourceSubscriptions: true})
	old := dial(t, s, "2024-11-05")

	t.Run("lists are sorted", func(t *testing.T) {
		if got := old.call("prompts/list", `{}`); !strings.Contains(got, `"name":"a"`) || strings.Index(got, `"name":"a"`) > strings.Index(got, `"name":"b"`) {
			t.Errorf("prompts not sorted by name: %s", got)
		}
		if got := old.call("resources/list", `{}`); strings.Index(got, `"uri":"test://a"`) > strings.Index(got, `"uri":"test://annotated"`) {
			t.Errorf("resources not sorted by URI: %s", got)
		}
	})
	t.Run("cache hints on reads on every revision", func(t *testing.T) {
		if got := old.call("resources/read", `{"uri":"test://a"}`); !strings.Contains(got, `"ttlMs":0,"cacheScope":"private"`) {
			t.Errorf("2024-11-05 resources/read without cache hints: %s", got)
		}
	})
	t.Run("resource not found is -32602 on every revision", func(t *testing.T) {
		if got, want := old.call("resources/read", `{"uri":"test://nope"}`), `{"error":{"code":-32602,"message":"Resource not found","data":{"uri":"test://nope"}}}`; got != want {
			t.Errorf("2024-11-05:\n got %s\nwant %s", got, want)
		}
	})
	t.Run("templates match as go-sdk's matcher does", func(t *testing.T) {
		const uri = "test://template/a:b/data"
		if contents, err := fixture.DataTemplate.Read(context.Background(), uri); err != nil || len(contents) != 1 {
			t.Fatalf("the template itself serves %s: %v, %v", uri, contents, err)
		}
		if got := old.call("resources/read", `{"uri":"`+uri+`"}`); !strings.Contains(got, `"code":-32602,"message":"Resource not found"`) {
			t.Errorf("%s: %s, want not found", uri, got)
		}
	})
	t.Run("priority 0 is not published in content", func(t *testing.T) {
		if got, want := dial(t, s, "2025-11-25").call("prompts/get", `{"name":"ranked"}`), `{"messages":[{"content":{"type":"text","text":"r","annotations":{"audience":["user"]}},"role":"user"}]}`; got != want {
			t.Errorf("priority 0:\n got %s\nwant %s", got, want)
		}
	})
	t.Run("empty text is left out", func(t *testing.T) {
		if got, want := old.call("resources/read", `{"uri":"test://annotated"}`), `"contents":[{"uri":"test://annotated"}]`; !strings.Contains(got, want) {
			t.Errorf("read of empty text: %s, want %s", got, want)
		}
		if got, want := old.call("prompts/get", `{"name":"empty"}`), `{"type":"resource","resource":{"uri":"test://e","mimeType":"text/plain"}}`; !strings.Contains(got, want) {
			t.Errorf("embedded empty text: %s, want %s", got, want)
		}
	})
	t.Run("completion leaves out zero total and hasMore", func(t *testing.T) {
		if got, want := old.call("completion/complete", `{"ref":{"type":"ref/prompt","name":"empty"},"argument":{"name":"x","value":""}}`), `{"completion":{"values":[]}}`; got != want {
			t.Errorf("\n got %s\nwant %s", got, want)
		}
	})
	t.Run("capabilities from the start", func(t *testing.T) {
		cs := connect(t, NewServer(mcprt.Identity{Name: "t", Version: "1", EnableCompletions: true}), "2024-11-05", nil)
		caps := cs.InitializeResult().Capabilities
		if caps.Prompts == nil || caps.Resources == nil || caps.Prompts.ListChanged || caps.Resources.ListChanged {
			t.Errorf("no prompts or resources yet: prompts %+v, resources %+v; want both, without listChanged", caps.Prompts, caps.Resources)
		}
	})
	t.Run("listChanged and subscribe on 2026-07-28", func(t *testing.T) {
		stateless := dial(t, s, "2026-07-28")
		if got := stateless.call("server/discover", `{`+servertest.StatelessMeta+`}`); !strings.Contains(got, `"resources":{"subscribe":true}`) {
			t.Errorf("2026-07-28 discover: %s, want resources.subscribe", got)
		}
	})
}

// textPromptNamed is a prompt of one user text message, its name.
func textPromptNamed(name string) mcprt.Prompt {
	return mcprt.Prompt{Name: name, Description: "Says " + name, Get: func(context.Context, map[string]string) (mcprt.PromptResult, error) {
		return mcprt.PromptResult{Messages: []mcprt.PromptMessage{{Content: mcprt.Text(name)}}}, nil
	}}
}
