package main

import (
	"context"
	"errors"
	"fmt"
	"html"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen

// Article is one article of the knowledge base.
type Article struct {
	ID    int      `json:"id"`    // Article number
	Title string   `json:"title"` // Title of the article
	Body  string   `json:"body"`  // Text of the article, in Markdown
	Tags  []string `json:"tags"`  // Topics the article is about
	Notes []string `json:"notes"` // Notes added to the article
}

// base is the knowledge base: a few articles in memory, guarded for the
// concurrent handlers.
var base = struct {
	sync.RWMutex
	articles []*Article
	changed  func(uri string) // told the URI of each article that changes
	added    func(a Article)  // told of each article added
}{articles: []*Article{
	{ID: 1, Title: "Getting started", Body: "# Getting started\n\nInstall the tool, then run `kb init`.", Tags: []string{"setup"}},
	{ID: 2, Title: "Backups", Body: "# Backups\n\nRun `kb backup` every night; keep seven copies.\n\n## Where\n\nOn another disk.\n\n### Off site\n\nOne copy a week leaves the building.", Tags: []string{"operations"}},
	{ID: 3, Title: "Restoring", Body: "# Restoring\n\nStop the server, then `kb restore FILE`.", Tags: []string{"operations", "setup"}},
}}

// find returns a copy of the article id, or an error wrapping
// mcprt.ErrNotFound.
func find(id int) (Article, error) {
	base.RLock()
	defer base.RUnlock()
	for _, a := range base.articles {
		if a.ID == id {
			c := *a
			c.Notes = slices.Clone(a.Notes)
			return c, nil
		}
	}
	return Article{}, fmt.Errorf("article %d: %w", id, mcprt.ErrNotFound)
}

// SearchInput is what to look for.
type SearchInput struct {
	Query string `json:"query" mcp:"minLength=1"`                      // Words to find in titles and bodies
	Tag   string `json:"tag,omitempty" mcp:"enum=setup|operations"`    // Only articles with this tag
	Limit int    `json:"limit,omitempty" mcp:"min=1,max=20,default=5"` // Most articles to return
}

// Hit is one article found.
type Hit struct {
	ID    int    `json:"id"`    // Article number
	Title string `json:"title"` // Title of the article
	URI   string `json:"uri"`   // Resource to read the article from
}

// SearchResult lists the articles found.
type SearchResult struct {
	Hits []Hit `json:"hits"` // Articles found, best first
}

// SearchArticles finds articles by words in their title or body.
//
//mcp:tool title="Search articles" readonly
func SearchArticles(ctx context.Context, in SearchInput) (SearchResult, error) {
	base.RLock()
	defer base.RUnlock()
	q := strings.ToLower(in.Query)
	res := SearchResult{Hits: []Hit{}}
	for _, a := range base.articles {
		text := strings.ToLower(a.Title + " " + a.Body)
		if !strings.Contains(text, q) || in.Tag != "" && !slices.Contains(a.Tags, in.Tag) {
			continue
		}
		res.Hits = append(res.Hits, Hit{ID: a.ID, Title: a.Title, URI: articleURI(a.ID)})
		if len(res.Hits) == in.Limit {
			break
		}
	}
	return res, nil
}

func articleURI(id int) string { return "kb://articles/" + strconv.Itoa(id) }

// AddNote appends a note to an article; clients subscribed to the
// article's resource are told it changed.
//
//mcp:tool title="Add a note" idempotent=false scope="kb.write"
//mcp:param id description="Article number" min=1
//mcp:param note description="Text of the note" minLength=1 maxLength=500
func AddNote(id int, note string) (string, error) {
	base.Lock()
	var found *Article
	for _, a := range base.articles {
		if a.ID == id {
			found = a
		}
	}
	if found == nil {
		base.Unlock()
		return "", fmt.Errorf("no article %d", id)
	}
	found.Notes = append(found.Notes, note)
	changed := base.changed
	base.Unlock()
	if changed != nil {
		changed(articleURI(id))
	}
	return fmt.Sprintf("article %d has %d notes", id, len(found.Notes)), nil
}

// NewArticle is an article to add.
type NewArticle struct {
	Title string   `json:"title" mcp:"minLength=1,maxLength=100"` // Title of the article
	Body  string   `json:"body" mcp:"minLength=1"`                // Text of the article, in Markdown
	Tags  []string `json:"tags,omitempty" mcp:"uniqueItems"`      // Topics the article is about
}

// AddArticle adds an article to the knowledge base; it is listed as a
// resource of its own from then on.
//
//mcp:tool title="Add an article" scope="kb.write"
func AddArticle(in NewArticle) (Hit, error) {
	base.Lock()
	a := &Article{ID: len(base.articles) + 1, Title: in.Title, Body: in.Body, Tags: slices.Clone(in.Tags)}
	base.articles = append(base.articles, a)
	added := base.added
	base.Unlock()
	if added != nil {
		added(*a)
	}
	return Hit{ID: a.ID, Title: a.Title, URI: articleURI(a.ID)}, nil
}

// ReadArticle returns an article: its Markdown is the text block the model
// reads as it is, and the structured content has its title, tags and notes
// too.
//
//mcp:tool title="Read an article" readonly
//mcp:param id description="Article number" min=1
func ReadArticle(id int) (mcprt.Structured[Article], error) {
	a, err := find(id)
	if err != nil {
		return mcprt.Structured[Article]{}, err
	}
	return mcprt.Structured[Article]{Value: a, Text: a.Body}, nil
}

// Section is a heading of an article, with the headings under it.
type Section struct {
	Title    string    `json:"title"`              // Text of the heading
	Sections []Section `json:"sections,omitempty"` // Headings one level down
}

// OutlineArticle returns the headings of an article as a tree.
//
//mcp:tool title="Outline an article" readonly
//mcp:param id description="Article number" min=1
func OutlineArticle(id int) ([]Section, error) {
	a, err := find(id)
	if err != nil {
		return nil, err
	}
	return outline(a.Body), nil
}

// outline builds the tree of the Markdown headings ("# ", "## ", ...) of
// body. A heading goes under the nearest one before it of a lower level.
func outline(body string) []Section {
	root := []Section{}
	type open struct {
		level int
		list  *[]Section
	}
	stack := []open{{0, &root}}
	for line := range strings.SplitSeq(body, "\n") {
		level := len(line) - len(strings.TrimLeft(line, "#"))
		if level == 0 || !strings.HasPrefix(line[level:], " ") {
			continue
		}
		for stack[len(stack)-1].level >= level {
			stack = stack[:len(stack)-1]
		}
		list := stack[len(stack)-1].list
		*list = append(*list, Section{Title: strings.TrimSpace(line[level:])})
		stack = append(stack, open{level, &(*list)[len(*list)-1].Sections})
	}
	return root
}

// articleResource is the resource of one article, added while the server
// runs: a resource need not be annotated.
func articleResource(a Article) mcprt.Resource {
	return mcprt.Resource{
		URI: articleURI(a.ID), Name: "article_" + strconv.Itoa(a.ID), Title: a.Title, MIMEType: "text/markdown",
		Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
			text, err := ArticleText(a.ID)
			return []mcprt.ResourceContents{{Text: text}}, err
		},
	}
}

// Index lists every article.
//
//mcp:resource uri=kb://index title="Index of articles"
func Index() []Hit {
	base.RLock()
	defer base.RUnlock()
	hits := []Hit{}
	for _, a := range base.articles {
		hits = append(hits, Hit{ID: a.ID, Title: a.Title, URI: articleURI(a.ID)})
	}
	return hits
}

// ArticleText is one article, in Markdown, with its notes.
//
//mcp:resource uri=kb://articles/{id} name=article title="Article" mime=text/markdown
//mcp:param id complete=CompleteArticle
func ArticleText(id int) (string, error) {
	a, err := find(id)
	if err != nil {
		return "", err
	}
	text := a.Body
	for _, n := range a.Notes {
		text += "\n\n> Note: " + n
	}
	return text, nil
}

// Format is how an article is rendered.
type Format string

// The formats an article is rendered in.
const (
	Markdown Format = "markdown" // as written
	HTML     Format = "html"     // as an HTML page
	Plain    Format = "text"     // without markup
)

// ArticleIn is one article rendered in a format.
//
//mcp:resource uri=kb://articles/{id}/{format} name=article_rendered title="Rendered article"
//mcp:param id complete=CompleteArticle
func ArticleIn(id int, format Format) ([]mcprt.ResourceContents, error) {
	a, err := find(id)
	if err != nil {
		return nil, err
	}
	switch format {
	case HTML:
		return []mcprt.ResourceContents{{MIMEType: "text/html", Text: "<pre>" + html.EscapeString(a.Body) + "</pre>"}}, nil
	case Plain:
		return []mcprt.ResourceContents{{MIMEType: "text/plain", Text: strings.NewReplacer("# ", "", "`", "").Replace(a.Body)}}, nil
	}
	return []mcprt.ResourceContents{{MIMEType: "text/markdown", Text: a.Body}}, nil
}

// CompleteArticle suggests the numbers of the articles that start with
// what was typed.
func CompleteArticle(ctx context.Context, value string, args map[string]string) ([]string, error) {
	base.RLock()
	defer base.RUnlock()
	var ids []string
	for _, a := range base.articles {
		if id := strconv.Itoa(a.ID); strings.HasPrefix(id, value) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// Style is how long a summary is.
type Style string

// The summary styles.
const (
	Brief    Style = "brief"    // one sentence
	Detailed Style = "detailed" // a paragraph per section
)

// Summarize asks for a summary of an article.
//
//mcp:prompt title="Summarize an article"
//mcp:param article description="Article number" complete=CompleteArticle
//mcp:param style description="How long the summary is"
func Summarize(article int, style *Style) ([]mcprt.PromptMessage, error) {
	a, err := find(article)
	if err != nil {
		return nil, err
	}
	s := Brief
	if style != nil {
		s = *style
	}
	return []mcprt.PromptMessage{
		{Role: mcprt.RoleUser, Content: mcprt.TextResource(articleURI(a.ID), "text/markdown", a.Body)},
		{Role: mcprt.RoleUser, Content: mcprt.Text(fmt.Sprintf("Write a %s summary of the article above, %q.", s, a.Title))},
	}, nil
}

// CompareArgs are the articles to compare.
type CompareArgs struct {
	First  int `json:"first" mcp:"complete=CompleteArticle"`  // The first article
	Second int `json:"second" mcp:"complete=CompleteArticle"` // The second article
}

// Compare asks how two articles differ.
//
//mcp:prompt title="Compare two articles"
func Compare(ctx context.Context, in CompareArgs) (mcprt.PromptResult, error) {
	if in.First == in.Second {
		return mcprt.PromptResult{}, errors.New("compare two different articles")
	}
	a, err := find(in.First)
	if err != nil {
		return mcprt.PromptResult{}, err
	}
	b, err := find(in.Second)
	if err != nil {
		return mcprt.PromptResult{}, err
	}
	return mcprt.PromptResult{
		Description: "Compare " + a.Title + " with " + b.Title,
		Messages: []mcprt.PromptMessage{
			{Role: mcprt.RoleUser, Content: mcprt.ResourceLink(articleURI(a.ID), a.Title)},
			{Role: mcprt.RoleUser, Content: mcprt.ResourceLink(articleURI(b.ID), b.Title)},
			{Role: mcprt.RoleUser, Content: mcprt.Text("How do these two articles differ? Which should a newcomer read first?")},
		},
	}, nil
}
