package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcptest"
)

// newClient serves the knowledge base as main does, on revision rev, and
// connects a client to it.
func newClient(t *testing.T, rev string) *mcptest.Client {
	t.Helper()
	c := mcptest.New(t, mcptest.Identity(identity), mcptest.Revision(rev),
		mcptest.Tools(MCPTools()...), mcptest.Prompts(MCPPrompts()...), mcptest.Resources(MCPResources()...))
	srv := c.Server()
	base.Lock()
	base.changed = srv.ResourceUpdated
	base.added = func(a Article) { srv.AddResources(articleResource(a)) }
	base.Unlock()
	t.Cleanup(func() {
		base.Lock()
		base.changed, base.added = nil, nil
		base.Unlock()
	})
	return c
}

// TestSearch finds articles and reads the structured result.
func TestSearch(t *testing.T) {
	c := newClient(t, mcptest.DefaultRevision)
	var res SearchResult
	c.CallTool("search_articles", SearchInput{Query: "restore", Tag: "setup"}).Decode(&res)
	if len(res.Hits) != 1 || res.Hits[0].ID != 3 || res.Hits[0].URI != "kb://articles/3" {
		t.Errorf("search for restore: %+v", res.Hits)
	}
	if r := c.CallTool("search_articles", map[string]any{"query": "x", "tag": "cooking"}); !r.IsError || !strings.Contains(r.Text(), `tag: "cooking" is not one of "setup", "operations"`) {
		t.Errorf("search with an unknown tag = %q (isError %v)", r.Text(), r.IsError)
	}
}

// TestNoteUpdatesSubscribers adds a note on both kinds of revision: a
// client subscribed to the article is told it changed, and reads the note.
func TestNoteUpdatesSubscribers(t *testing.T) {
	for _, rev := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(rev, func(t *testing.T) {
			c := newClient(t, rev)
			c.Subscribe("kb://articles/2")
			note := "checked on " + rev
			if r := c.CallTool("add_note", map[string]any{"id": 2, "note": note}); r.IsError {
				t.Fatalf("add_note: %s", r.Text())
			}
			var u struct{ URI string }
			if err := c.Await("notifications/resources/updated").Decode(&u); err != nil || u.URI != "kb://articles/2" {
				t.Errorf("update of %q (%v), want kb://articles/2", u.URI, err)
			}
			got := c.ReadResource("kb://articles/2")
			if len(got) != 1 || got[0].MIMEType != "text/markdown" || !strings.HasSuffix(got[0].Text, "> Note: "+note) {
				t.Errorf("article 2 after the note: %+v", got)
			}
			if r := c.CallTool("add_note", map[string]any{"id": 99, "note": "x"}); !r.IsError || r.Text() != "no article 99" {
				t.Errorf("a note on no article = %q (isError %v)", r.Text(), r.IsError)
			}
		})
	}
}

// TestAddedArticleIsListed checks that an article added by a tool becomes
// a resource of its own, announced to the client.
func TestAddedArticleIsListed(t *testing.T) {
	c := newClient(t, mcptest.DefaultRevision)
	var hit Hit
	c.CallTool("add_article", NewArticle{Title: "Upgrades", Body: "# Upgrades\n\nRead the notes first."}).Decode(&hit)
	c.Await("notifications/resources/list_changed")
	raw, err := c.Request("resources/list", nil)
	if err != nil || !strings.Contains(string(raw), `"uri":"`+hit.URI+`"`) {
		t.Errorf("resources/list after adding %s: %s (%v)", hit.URI, raw, err)
	}
	if got := c.ReadResource(hit.URI); len(got) != 1 || got[0].Text != "# Upgrades\n\nRead the notes first." {
		t.Errorf("reading %s: %+v", hit.URI, got)
	}
}

// TestResources reads the templates, and a resource that is not there.
func TestResources(t *testing.T) {
	c := newClient(t, mcptest.DefaultRevision)
	if got := c.ReadResource("kb://articles/1/html"); len(got) != 1 || got[0].MIMEType != "text/html" || !strings.HasPrefix(got[0].Text, "<pre># Getting started") {
		t.Errorf("article 1 as html: %+v", got)
	}
	for _, uri := range []string{"kb://articles/99", "kb://articles/1/pdf"} {
		var e *mcptest.Error
		if _, err := c.Request("resources/read", map[string]string{"uri": uri}); !errors.As(err, &e) || e.Code != -32002 {
			t.Errorf("reading %s: %v, want resource not found (-32002)", uri, err)
		}
	}
}

// TestPromptsAndCompletions renders both prompts and completes article
// numbers for a prompt and a template.
func TestPromptsAndCompletions(t *testing.T) {
	c := newClient(t, mcptest.DefaultRevision)
	p := c.GetPrompt("summarize", map[string]string{"article": "2", "style": "detailed"})
	if len(p.Messages) != 2 || p.Messages[0].Content.Type != mcprt.TypeResource || p.Messages[0].Content.URI != "kb://articles/2" ||
		p.Messages[1].Content.Text != `Write a detailed summary of the article above, "Backups".` {
		t.Errorf("summarize: %+v", p)
	}
	cmp := c.GetPrompt("compare", map[string]string{"first": "1", "second": "3"})
	if cmp.Description != "Compare Getting started with Restoring" || len(cmp.Messages) != 3 || cmp.Messages[0].Content.Type != mcprt.TypeResourceLink {
		t.Errorf("compare: %+v", cmp)
	}
	if _, err := c.Request("prompts/get", map[string]any{"name": "summarize", "arguments": map[string]string{"article": "x"}}); err == nil {
		t.Error("summarize of article x was rendered")
	}
	if got := c.Complete(mcptest.PromptRef("summarize"), "article", "", nil); len(got.Values) < 3 || got.Values[0] != "1" {
		t.Errorf("completing summarize's article: %+v", got)
	}
	if got := c.Complete(mcptest.ResourceRef("kb://articles/{id}/{format}"), "format", "h", map[string]string{"id": "1"}); len(got.Values) != 1 || got.Values[0] != "html" {
		t.Errorf("completing a format: %+v", got)
	}
}
