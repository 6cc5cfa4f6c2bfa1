package gosdk

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/fixture"
	"github.com/mcpgen/mcpgen/internal/servertest"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// listOf is the list result the built-in server sends for items on rev,
// in the order given, each written by appendOne.
func listOf[T any](key string, items []T, appendOne func([]byte, *T, wire.Revision) []byte, rev wire.Revision) string {
	b := []byte(`{`)
	if rev.Stateless() {
		b = append(b, `"resultType":"complete",`...)
	}
	b = append(b, `"`+key+`":[`...)
	for i := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendOne(b, &items[i], rev)
	}
	b = append(b, ']')
	if rev.Stateless() {
		b = append(b, `,"ttlMs":0,"cacheScope":"public"`...)
	}
	return string(append(b, '}'))
}

// withoutServerInfo removes the _meta member go-sdk adds to every result
// of 2026-07-28, naming the server.
func withoutServerInfo(t *testing.T, got string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(got), &m); err != nil {
		t.Fatalf("%v: %s", err, got)
	}
	if !strings.Contains(string(m["_meta"]), `"io.modelcontextprotocol/serverInfo"`) {
		t.Errorf("no serverInfo in _meta: %s", got)
	}
	i := strings.Index(got, `,"_meta":`)
	return got[:i] + "}"
}

// TestListsPerRevision lists tools, prompts, resources and templates on
// every revision and compares the bytes with what the built-in server's
// writers produce for that revision: a 2024-11-05 client sees no
// annotations, a 2025-03-26 client no title or output schema, icons come
// with 2025-11-25, no revision sees task support (execution), since go-sdk
// has no tasks, and nothing the SDK's own types would add (false hints) or
// drop (annotations.title) shows.
func TestListsPerRevision(t *testing.T) {
	t.Parallel()
	s := NewServer(mcprt.Identity{Name: "t", Version: "1"}, fixture.SampleTools()...)
	AddPrompts(s, fixture.Kinds)
	rs := fixture.Resources()
	AddResources(s, rs[0], fixture.DataTemplate)
	tools := fixture.SampleTools()
	sorted := []mcprt.Tool{tools[1], tools[0]} // go-sdk lists by name
	for i := range sorted {
		sorted[i].TaskSupport = "" // go-sdk has no tasks
	}
	for _, rev := range wire.Revisions {
		t.Run(string(rev), func(t *testing.T) {
			c := dial(t, s, string(rev))
			params := `{}`
			call := func(method string) string {
				got := c.call(method, params)
				if rev.Stateless() {
					got = withoutServerInfo(t, got)
				}
				return got
			}
			if rev.Stateless() {
				params = `{` + servertest.StatelessMeta + `}`
			}
			for _, tc := range []struct{ method, want string }{
				{"tools/list", listOf("tools", sorted, wire.AppendTool, rev)},
				{"prompts/list", listOf("prompts", []mcprt.Prompt{fixture.Kinds}, wire.AppendPrompt, rev)},
				{"resources/list", listOf("resources", rs[:1], wire.AppendResource, rev)},
				{"resources/templates/list", listOf("resourceTemplates", []mcprt.Resource{fixture.DataTemplate}, wire.AppendResourceTemplate, rev)},
			} {
				if got := call(tc.method); got != tc.want {
					t.Errorf("%s:\n got %s\nwant %s", tc.method, got, tc.want)
				}
			}
		})
	}
}

// TestListsOnACallersServer lists per revision on a server the caller
// made, and keeps what the caller added or replaced through the SDK
// itself as the SDK writes it. A page size of one makes every list
// paginate with the SDK's cursors.
func TestListsOnACallersServer(t *testing.T) {
	t.Parallel()
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ServerOptions{PageSize: 1})
	AddTools(s, fixture.SampleTools()...)
	own := &mcp.Tool{Name: "c_own", Description: "The caller's.", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: &mcp.ToolAnnotations{Title: "Own"}}
	s.AddTool(own, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	})
	ownJSON, _ := json.Marshal(own)
	tools := fixture.SampleTools()
	c := dial(t, s, "2024-11-05")
	var got []string
	cursor := ""
	for range 4 {
		params := `{}`
		if cursor != "" {
			params = `{"cursor":"` + cursor + `"}`
		}
		var page struct {
			Tools      []json.RawMessage
			NextCursor string
		}
		if err := json.Unmarshal([]byte(c.call("tools/list", params)), &page); err != nil {
			t.Fatal(err)
		}
		for _, d := range page.Tools {
			got = append(got, string(d))
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	want := []string{string(wire.AppendTool(nil, &tools[1], wire.Rev20241105)), string(wire.AppendTool(nil, &tools[0], wire.Rev20241105)), string(ownJSON)}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("pages of tools/list on 2024-11-05:\n got %s\nwant %s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	replaced := &mcp.Tool{Name: "a_bare", Description: "Replaced.", InputSchema: json.RawMessage(`{"type":"object"}`)}
	s.AddTool(replaced, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	})
	if got := c.call("tools/list", `{}`); !strings.Contains(got, `"description":"Replaced."`) {
		t.Errorf("a tool the caller replaced through the SDK is not listed as the SDK has it: %s", got)
	}
}

// TestToolsCalledAfterListing checks that the list middleware leaves
// every other method alone: calls answer as before, with the client's
// revision.
func TestToolsCalledAfterListing(t *testing.T) {
	t.Parallel()
	s := NewServer(mcprt.Identity{Name: "t", Version: "1"}, fixture.SampleTools()...)
	cs := connect(t, s, "2025-03-26", nil)
	ctx := context.Background()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 2 || list.Tools[1].Annotations == nil || list.Tools[1].Annotations.Title != "Full" || list.Tools[1].Title != "" || list.Tools[1].OutputSchema != nil {
		js, _ := json.Marshal(list)
		t.Errorf("go-sdk's client reads the 2025-03-26 list as %s", js)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "b_full", Arguments: map[string]any{}})
	if err != nil || len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != "[1,2]" {
		t.Errorf("call after listing: %v %+v", err, res)
	}
}
