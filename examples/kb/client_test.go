package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/examples/kb/kbclient"
	"github.com/mcpgen/mcpgen/internal/servertest"
	"github.com/mcpgen/mcpgen/runtime/gosdk"
	"github.com/mcpgen/mcpgen/runtime/mcpgo"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
	"github.com/mcpgen/mcpgen/runtime/mcptest"
)

// A serverPath serves the knowledge base on one of the three servers and
// connects go-sdk's client to it, asking for revision rev.
type serverPath struct {
	name    string
	connect func(t *testing.T, rev string, opts *mcp.ClientOptions) *mcp.ClientSession
}

var serverPaths = []serverPath{
	{"builtin", func(t *testing.T, rev string, opts *mcp.ClientOptions) *mcp.ClientSession {
		srv := mcpserver.New(identity, MCPTools()...)
		srv.AddPrompts(MCPPrompts()...)
		srv.AddResources(MCPResources()...)
		hs := httptest.NewServer(srv.HTTPHandler())
		t.Cleanup(hs.Close)
		t.Cleanup(srv.CloseStreams)
		return servertest.Connect(t, &mcp.StreamableClientTransport{Endpoint: hs.URL}, rev, opts)
	}},
	{"gosdk", func(t *testing.T, rev string, opts *mcp.ClientOptions) *mcp.ClientSession {
		srv := gosdk.NewServer(identity, MCPTools()...)
		gosdk.AddPrompts(srv, MCPPrompts()...)
		gosdk.AddResources(srv, MCPResources()...)
		st, ct := mcp.NewInMemoryTransports()
		ss, err := srv.Connect(context.Background(), st, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ss.Wait() })
		return servertest.Connect(t, ct, rev, opts)
	}},
	{"mcpgo", func(t *testing.T, rev string, opts *mcp.ClientOptions) *mcp.ClientSession {
		srv := mcpgo.NewServer(identity, MCPTools()...)
		mcpgo.AddPrompts(srv, MCPPrompts()...)
		mcpgo.AddResources(srv, MCPResources()...)
		h, err := mcpgo.HTTPHandler(srv, nil)
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(h)
		t.Cleanup(hs.Close)
		return servertest.Connect(t, &mcp.StreamableClientTransport{Endpoint: hs.URL}, rev, opts)
	}},
}

// keepArticles restores the articles as they are when the test ends.
func keepArticles(t *testing.T) {
	base.Lock()
	saved := make([]*Article, len(base.articles))
	for i, a := range base.articles {
		c := *a
		c.Notes = slices.Clone(a.Notes)
		saved[i] = &c
	}
	base.Unlock()
	t.Cleanup(func() {
		base.Lock()
		base.articles = saved
		base.Unlock()
	})
}

// sameJSON fails the test unless got and want encode to the same JSON.
func sameJSON(t *testing.T, what string, got, want any) {
	t.Helper()
	g, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	w, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	servertest.SameJSON(t, what, string(g), string(w))
}

// sampler answers a sampling request with tags, as a model would.
func sampler(context.Context, *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
	return &mcp.CreateMessageWithToolsResult{Role: "assistant", Model: "m", StopReason: "endTurn",
		Content: []mcp.Content{&mcp.TextContent{Text: "setup, backups"}}}, nil
}

// TestGeneratedClient calls every tool, prompt and resource of the
// knowledge base through the generated client kbclient, on each of the
// three servers and on a session revision and 2026-07-28, and compares
// each result with what mcptest's client reads from the built-in server.
func TestGeneratedClient(t *testing.T) {
	for _, p := range serverPaths {
		for _, rev := range []string{"2025-11-25", "2026-07-28"} {
			if p.name == "gosdk" && rev == "2026-07-28" {
				continue // go-sdk serves 2026-07-28 only statelessly over HTTP
			}
			t.Run(p.name+"/"+rev, func(t *testing.T) {
				keepArticles(t)
				want := newClient(t, mcptest.DefaultRevision)
				cs := p.connect(t, rev, &mcp.ClientOptions{
					Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}},
					ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
						return &mcp.ElicitResult{Action: "accept"}, nil
					},
					CreateMessageWithToolsHandler: sampler,
				})
				// mcp-go's 2026-07-28 sessions cannot carry a handler's
				// questions (the adapter says so), so its tools that ask
				// are called on the session revision only.
				asks := !(p.name == "mcpgo" && rev == "2026-07-28")
				checkClient(t, kbclient.NewClient(cs), want, asks)
			})
		}
	}
}

// checkClient calls everything through c and compares with want.
// asks says whether the tools that ask the client are called.
func checkClient(t *testing.T, c *kbclient.Client, want *mcptest.Client, asks bool) {
	ctx := context.Background()

	hits, err := c.SearchArticles(ctx, kbclient.SearchInput{Query: "restore", Tag: "setup"})
	var wantHits SearchResult
	want.CallTool("search_articles", SearchInput{Query: "restore", Tag: "setup"}).Decode(&wantHits)
	if err != nil || len(hits.Hits) != 1 {
		t.Fatalf("SearchArticles: %+v, %v", hits, err)
	}
	sameJSON(t, "search_articles", hits, wantHits)

	_, err = c.SearchArticles(ctx, kbclient.SearchInput{Query: "x", Tag: "cooking"})
	var te *mcprt.ToolResultError
	wantText := want.CallTool("search_articles", map[string]any{"query": "x", "tag": "cooking"}).Text()
	if !errors.As(err, &te) || te.Tool != "search_articles" || te.Text() != wantText || !te.Result.IsError {
		t.Errorf("SearchArticles with an unknown tag: %v, want a *mcprt.ToolResultError saying %q", err, wantText)
	}

	art, err := c.ReadArticle(ctx, kbclient.ReadArticleInput{ID: 1})
	var wantArt Article
	want.CallTool("read_article", map[string]any{"id": 1}).Decode(&wantArt)
	if err != nil || art.Title != "Getting started" {
		t.Fatalf("ReadArticle: %+v, %v", art, err)
	}
	sameJSON(t, "read_article", art, wantArt)

	sections, err := c.OutlineArticle(ctx, kbclient.OutlineArticleInput{ID: 2})
	var wantSections struct{ Result []Section }
	want.CallTool("outline_article", map[string]any{"id": 2}).Decode(&wantSections)
	if err != nil || len(sections) == 0 {
		t.Fatalf("OutlineArticle: %+v, %v", sections, err)
	}
	sameJSON(t, "outline_article", sections, wantSections.Result)

	view, err := c.ShowArticle(ctx, kbclient.ShowArticleInput{ID: 3})
	var wantView ArticleView
	want.CallTool("show_article", map[string]any{"id": 3}).Decode(&wantView)
	if err != nil {
		t.Fatalf("ShowArticle: %v", err)
	}
	sameJSON(t, "show_article", view, wantView)

	note, err := c.AddNote(ctx, kbclient.AddNoteInput{ID: 2, Note: "checked"})
	if err != nil || note != "article 2 has 1 notes" {
		t.Errorf("AddNote = %q, %v", note, err)
	}
	if got, wantNote := want.CallTool("add_note", map[string]any{"id": 2, "note": "again"}).Text(), "article 2 has 2 notes"; got != wantNote {
		t.Errorf("add_note after the client's note = %q, want %q", got, wantNote)
	}

	hit, err := c.AddArticle(ctx, kbclient.NewArticle{Title: "Upgrades", Body: "# Upgrades\n\nRead the notes first.", Tags: []string{"operations"}})
	if err != nil || hit.ID != 4 || hit.URI != "kb://articles/4" {
		t.Fatalf("AddArticle = %+v, %v", hit, err)
	}
	added, err := c.ReadArticle(ctx, kbclient.ReadArticleInput{ID: hit.ID})
	var wantAdded Article
	want.CallTool("read_article", map[string]any{"id": hit.ID}).Decode(&wantAdded)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "the article added", added, wantAdded)

	if asks {
		// mcptest's client declares no URL elicitation and no sampling
		// with tools: these two answer what the client's handlers say.
		link, err := c.LinkAccount(ctx)
		if err != nil || !strings.HasPrefix(link, "accept") {
			t.Errorf("LinkAccount = %q, %v", link, err)
		}
		tags, err := c.SuggestTags(ctx, kbclient.SuggestTagsInput{ID: 1})
		if err != nil || tags != "setup, backups" {
			t.Errorf("SuggestTags = %q, %v; the model said %q", tags, err, "setup, backups")
		}
	}

	detailed := kbclient.StyleDetailed
	sum, err := c.Summarize(ctx, kbclient.SummarizeInput{Article: 2, Style: &detailed})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.GetPrompt("summarize", map[string]string{"article": "2", "style": "detailed"}), sum); diff != "" {
		t.Errorf("Summarize (-mcptest +client):\n%s", diff)
	}
	brief, err := c.Summarize(ctx, kbclient.SummarizeInput{Article: 1})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.GetPrompt("summarize", map[string]string{"article": "1"}), brief); diff != "" {
		t.Errorf("Summarize without a style (-mcptest +client):\n%s", diff)
	}
	compared, err := c.Compare(ctx, kbclient.CompareArgs{First: 1, Second: 3})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.GetPrompt("compare", map[string]string{"first": "1", "second": "3"}), compared); diff != "" {
		t.Errorf("Compare (-mcptest +client):\n%s", diff)
	}

	index, err := c.Index(ctx)
	var wantIndex []Hit
	if err := json.Unmarshal([]byte(want.ReadResource("kb://index")[0].Text), &wantIndex); err != nil {
		t.Fatal(err)
	}
	if err != nil || len(index) != 4 {
		t.Fatalf("Index = %+v, %v", index, err)
	}
	sameJSON(t, "kb://index", index, wantIndex)

	text, err := c.ArticleText(ctx, 2)
	if wantText := want.ReadResource("kb://articles/2")[0].Text; err != nil || text != wantText {
		t.Errorf("ArticleText(2) = %q, %v; mcptest reads %q", text, err, wantText)
	}
	for _, f := range []kbclient.Format{kbclient.FormatMarkdown, kbclient.FormatHTML, kbclient.FormatText} {
		got, err := c.ArticleIn(ctx, 3, f)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.ReadResource("kb://articles/3/"+string(f)), got); diff != "" {
			t.Errorf("ArticleIn(3, %s) (-mcptest +client):\n%s", f, diff)
		}
	}
	page, err := c.Viewer(ctx)
	if wantPage := want.ReadResource("ui://kb/viewer")[0].Text; err != nil || page != wantPage {
		t.Errorf("Viewer = %d bytes, %v; mcptest reads %d", len(page), err, len(wantPage))
	}
	if _, err := c.ArticleText(ctx, 99); err == nil || !strings.Contains(err.Error(), "kb://articles/99") {
		t.Errorf("ArticleText(99) = %v, want resource not found", err)
	}
}

// TestClientMismatch: a server whose results do not match the client's
// types gets a *mcprt.MismatchError naming the path of each problem; a
// property the client does not know is skipped, as -diff calls one
// added compatible.
func TestClientMismatch(t *testing.T) {
	t.Parallel()
	lying := func(structured string) mcprt.Tool {
		return mcprt.Tool{Name: "search_articles", InputSchema: []byte(`{"type":"object"}`), Handler: func(context.Context, []byte) mcprt.Result {
			return mcprt.StructuredResult([]byte(structured))
		}}
	}
	for _, tc := range []struct{ structured, want string }{
		{`{"hits":[{"id":true,"title":"t","uri":"u"}]}`, `tool search_articles: the result does not match the client: hits[0].id: expected integer, got true`},
		{`{"hits":[{"id":1,"uri":"u"}],"more":1}`, `tool search_articles: the result does not match the client: hits[0].title: required property is missing`},
		{`{"hits":[{"id":1,"title":"t","uri":"u","score":0.5}],"more":1}`, ``},
	} {
		srv := mcpserver.New(mcprt.Identity{Name: "liar", Version: "1"}, lying(tc.structured))
		hs := httptest.NewServer(srv.HTTPHandler())
		t.Cleanup(hs.Close)
		c := kbclient.NewClient(servertest.Connect(t, &mcp.StreamableClientTransport{Endpoint: hs.URL}, "2025-11-25", nil))
		_, err := c.SearchArticles(context.Background(), kbclient.SearchInput{Query: "x"})
		if tc.want == "" {
			if err != nil {
				t.Errorf("SearchArticles of %s: %v", tc.structured, err)
			}
			continue
		}
		var me *mcprt.MismatchError
		if !errors.As(err, &me) || err.Error() != tc.want {
			t.Errorf("SearchArticles of %s: %v, want a *mcprt.MismatchError %q", tc.structured, err, tc.want)
		}
	}
}
