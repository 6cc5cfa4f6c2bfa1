package wire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// testLog returns a logger writing to the buffer it returns.
func testLog() (*slog.Logger, *bytes.Buffer) {
	buf := new(bytes.Buffer)
	return slog.New(slog.NewTextHandler(buf, nil)), buf
}

// template answers the URIs that start with prefix, and ErrNotFound for
// the others.
func template(uri, prefix, answer string) mcprt.Resource {
	return mcprt.Resource{URI: uri, Read: func(ctx context.Context, u string) ([]mcprt.ResourceContents, error) {
		if !strings.HasPrefix(u, prefix) {
			return nil, fmt.Errorf("no: %w", mcprt.ErrNotFound)
		}
		return []mcprt.ResourceContents{{Text: answer}}, nil
	}}
}

func TestCatalogReadTemplateInOrder(t *testing.T) {
	t.Parallel()
	var c Catalog
	c.AddResources([]mcprt.Resource{
		template("kb://{a}", "kb://x", "first"),
		{URI: "kb://{b}/nil"}, // no Read: skipped
		template("kb://{+c}", "kb://", "second"),
		template("kb://static", "", "static"),
	})
	if _, err := c.AddResources([]mcprt.Resource{template("kb://{a}", "kb://y", "first, again")}); err == nil {
		t.Error("a second template of one URI template was added")
	}
	for _, tt := range []struct{ uri, want string }{
		{"kb://x1", "first"},
		{"kb://y1", "second"},
	} {
		contents, tmpl, err := c.ReadTemplate(context.Background(), tt.uri)
		if err != nil || len(contents) != 1 || contents[0].Text != tt.want {
			t.Errorf("ReadTemplate(%s) = %v, %v; want %s", tt.uri, contents, err, tt.want)
		}
		if tmpl == nil || (tt.want == "second") != (tmpl.URI == "kb://{+c}") {
			t.Errorf("ReadTemplate(%s) answered from %v", tt.uri, tmpl)
		}
	}
	if _, _, err := c.ReadTemplate(context.Background(), "other://1"); !errors.Is(err, mcprt.ErrNotFound) {
		t.Errorf("no template answers: %v, want ErrNotFound", err)
	}
}

func TestCatalogCompleter(t *testing.T) {
	t.Parallel()
	comp := func(ctx context.Context, argument, value string, args map[string]string) ([]string, error) {
		return nil, nil
	}
	var c Catalog
	c.AddPrompts([]mcprt.Prompt{{Name: "p", Complete: comp}, {Name: "bare"}})
	c.AddResources([]mcprt.Resource{{URI: "kb://{id}", Complete: comp}, {URI: "kb://index"}})
	for _, tt := range []struct{ typ, name, uri, kind, err string }{
		{"ref/prompt", "p", "", "prompt", ""},
		{"ref/prompt", "bare", "", "prompt", ""},
		{"ref/resource", "", "kb://{id}", "resource", ""},
		{"ref/resource", "", "kb://index", "resource", ""},
		{"ref/prompt", "nope", "", "", `invalid params: unknown prompt "nope"`},
		{"ref/resource", "", "kb://1", "", `invalid params: unknown resource "kb://1"`},
		{"ref/tool", "p", "", "", `invalid params: unknown ref type "ref/tool"; want ref/prompt or ref/resource`},
	} {
		kind, _, got, err := c.Completer(tt.typ, tt.name, tt.uri)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("Completer(%s %s%s) error %v, want %s", tt.typ, tt.name, tt.uri, err, tt.err)
			}
			continue
		}
		if err != nil || kind != tt.kind || (got != nil) != (tt.name == "p" || tt.uri == "kb://{id}") {
			t.Errorf("Completer(%s %s%s) = %s, %v, %v", tt.typ, tt.name, tt.uri, kind, got != nil, err)
		}
	}
}

func TestComplete(t *testing.T) {
	t.Parallel()
	log, logs := testLog()
	many := func(n int) mcprt.Completer {
		return func(ctx context.Context, argument, value string, args map[string]string) ([]string, error) {
			return make([]string, n), nil
		}
	}
	for _, tt := range []struct {
		name          string
		comp          mcprt.Completer
		n, total      int
		more          bool
		err           string
		valuesNotNull bool
	}{
		{name: "none", comp: nil},
		{name: "nothing", comp: many(0)},
		{name: "hundred", comp: many(100), n: 100, total: 100},
		{name: "more", comp: many(150), n: 100, total: 150, more: true},
		{name: "error", comp: func(context.Context, string, string, map[string]string) ([]string, error) {
			return nil, errors.New("index unavailable")
		}, err: "index unavailable"},
		{name: "panic", comp: func(context.Context, string, string, map[string]string) ([]string, error) { panic("kaputt") },
			err: `internal error: prompt completion "p" panicked: kaputt`},
	} {
		values, total, more, err := Complete(context.Background(), log, tt.comp, "prompt", "p", "a", "v", nil)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%s: error %v, want %s", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || values == nil || len(values) != tt.n || total != tt.total || more != tt.more {
			t.Errorf("%s: %d values (nil %v), total %d, more %v, %v", tt.name, len(values), values == nil, total, more, err)
		}
	}
	if !strings.Contains(logs.String(), "mcp prompt completion handler panicked") {
		t.Errorf("the panic was not logged: %s", logs)
	}
}

func TestRenderPromptAndReadResourceRecover(t *testing.T) {
	t.Parallel()
	log, logs := testLog()
	p := &mcprt.Prompt{Name: "p", Get: func(context.Context, map[string]string) (mcprt.PromptResult, error) { panic("kaputt") }}
	if _, err := RenderPrompt(context.Background(), log, p, nil); err == nil || err.Error() != `internal error: prompt "p" panicked: kaputt` {
		t.Errorf("RenderPrompt panic: %v", err)
	}
	bad := &mcpimpl.ArgumentError{Problems: []mcpimpl.Problem{{Path: "n", Message: "missing"}}}
	p.Get = func(ctx context.Context, args map[string]string) (mcprt.PromptResult, error) {
		if args == nil {
			t.Error("Get got nil arguments")
		}
		return mcprt.PromptResult{}, bad
	}
	if _, err := RenderPrompt(context.Background(), log, p, nil); !IsArgumentError(err) {
		t.Errorf("RenderPrompt argument error: %v", err)
	}
	if _, err := RenderPrompt(context.Background(), log, &mcprt.Prompt{Name: "q"}, nil); err == nil || err.Error() != `internal error: prompt "q" has no Get function` {
		t.Errorf("RenderPrompt without Get: %v", err)
	}
	r := &mcprt.Resource{URI: "kb://r", Read: func(context.Context, string) ([]mcprt.ResourceContents, error) { panic("kaputt") }}
	if _, err := ReadResource(context.Background(), log, r, "kb://r"); err == nil || errors.Is(err, mcprt.ErrNotFound) || err.Error() != `internal error: resource "kb://r" panicked: kaputt` {
		t.Errorf("ReadResource panic: %v", err)
	}
	if _, err := ReadResource(context.Background(), log, &mcprt.Resource{URI: "kb://s"}, "kb://s"); err == nil || err.Error() != `internal error: resource "kb://s" has no Read function` {
		t.Errorf("ReadResource without Read: %v", err)
	}
	if n := strings.Count(logs.String(), "handler panicked"); n != 2 {
		t.Errorf("logged %d panics, want 2:\n%s", n, logs)
	}
}

func TestStandInAndAnnotationsIn(t *testing.T) {
	t.Parallel()
	audio, link := mcprt.Audio([]byte{1, 2}, "audio/wav"), mcprt.ResourceLink("kb://a", "a")
	for _, tt := range []struct {
		c    mcprt.Content
		rev  Revision
		want string
	}{
		{audio, Rev20241105, "[audio content of type audio/wav, 2 bytes, is not supported by protocol revision 2024-11-05]"},
		{audio, Rev20250326, ""},
		{link, Rev20250326, "resource: kb://a"},
		{link, Rev20250618, ""},
		{mcprt.Text("t"), Rev20241105, ""},
	} {
		got, ok := StandIn(&tt.c, tt.rev)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("StandIn(%s, %s) = %q, %v; want %q", tt.c.Type, tt.rev, got, ok, tt.want)
		}
	}
	p := 0.0
	a := &mcprt.Annotations{Priority: &p, LastModified: "2026-01-02T15:04:05Z"}
	if AnnotationsIn(a, Rev20241105) != nil || AnnotationsIn(nil, Rev20251125) != nil {
		t.Error("annotations before 2025-03-26")
	}
	if got := AnnotationsIn(a, Rev20250326); got == nil || got.LastModified != "" || got.Priority != &p || a.LastModified == "" {
		t.Errorf("2025-03-26: %+v (lastModified dropped from a copy)", got)
	}
	if got := AnnotationsIn(&mcprt.Annotations{LastModified: "x"}, Rev20250326); got != nil {
		t.Errorf("only lastModified on 2025-03-26: %+v, want nil", got)
	}
	if got := AnnotationsIn(a, Rev20250618); got == nil || got.LastModified == "" {
		t.Errorf("2025-06-18: %+v", got)
	}
}

// TestCatalogScopes finds the scopes of each operation: a tool's, a
// prompt's, a resource's, and those of every template matching a URI.
func TestCatalogScopes(t *testing.T) {
	t.Parallel()
	var c Catalog
	c.AddTools([]mcprt.Tool{{Name: "w", Scopes: []string{"kb:write"}}, {Name: "a"}})
	c.AddPrompts([]mcprt.Prompt{{Name: "p", Scopes: []string{"kb:prompt"}}})
	c.AddResources([]mcprt.Resource{
		{URI: "kb://r", Scopes: []string{"kb:read"}},
		{URI: "kb://t/{id}", Scopes: []string{"kb:t"}},
		{URI: "kb://{+any}", Scopes: []string{"kb:any", "kb:t"}},
	})
	for _, tt := range []struct{ method, name, uri, want string }{
		{"tools/call", "w", "", "kb:write"},
		{"tools/call", "a", "", ""},
		{"tools/call", "x", "", ""},
		{"prompts/get", "p", "", "kb:prompt"},
		{"resources/read", "", "kb://r", "kb:read"},
		{"resources/read", "", "kb://t/1", "kb:t kb:any"},
		{"resources/read", "", "other://1", ""},
		{"tools/list", "", "", ""},
	} {
		if got := strings.Join(c.ScopesOf(tt.method, tt.name, tt.uri), " "); got != tt.want {
			t.Errorf("ScopesOf(%s %s%s) = %q, want %q", tt.method, tt.name, tt.uri, got, tt.want)
		}
	}
	if got := strings.Join(c.AllScopes(), " "); got != "kb:any kb:prompt kb:read kb:t kb:write" {
		t.Errorf("AllScopes = %q", got)
	}
	if err := c.AddTools([]mcprt.Tool{{Name: "v"}, {Name: "w"}}); err == nil {
		t.Error("a second tool of one name was added")
	}
	if got := c.ScopesOf("tools/call", "v", ""); got != nil {
		t.Errorf("a tool of a refused call was added, with scopes %q", got)
	}
}

// TestCatalogDuplicates refuses a second tool, prompt, resource or
// template of one name or URI, among those added before or in one call,
// and adds none of that call.
func TestCatalogDuplicates(t *testing.T) {
	t.Parallel()
	var c Catalog
	if err := c.AddTools([]mcprt.Tool{{Name: "t"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddPrompts([]mcprt.Prompt{{Name: "p"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddResources([]mcprt.Resource{{URI: "kb://r"}, {URI: "kb://{id}"}}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		add  func() error
		want string
	}{
		{func() error { return c.AddTools([]mcprt.Tool{{Name: "u"}, {Name: "u"}}) }, `tool "u" is added twice, both times with no function`},
		{func() error { return c.AddTools([]mcprt.Tool{{Name: "t"}}) }, `tool "t" is added twice, both times with no function`},
		{func() error { _, err := c.AddPrompts([]mcprt.Prompt{{Name: "p"}}); return err }, `prompt "p" is added twice, both times with no function`},
		{func() error { _, err := c.AddResources([]mcprt.Resource{{URI: "kb://s"}, {URI: "kb://r"}}); return err }, `resource "kb://r" is added twice, both times with no function`},
		{func() error { _, err := c.AddResources([]mcprt.Resource{{URI: "kb://{id}"}}); return err }, `resource template "kb://{id}" is added twice, both times with no function`},
	} {
		if err := tt.add(); err == nil || err.Error() != tt.want {
			t.Errorf("got %v, want %s", err, tt.want)
		}
	}
	if c.tools["u"] != nil || c.resources["kb://s"] != nil || len(c.templates) != 1 || c.ScopesOf("tools/call", "u", "") != nil {
		t.Error("a refused call added some of what it was given")
	}
}

// TestCatalogReadTemplateScopes skips a template whose scopes the
// request's token lacks, so that its Read never runs for it.
func TestCatalogReadTemplateScopes(t *testing.T) {
	t.Parallel()
	var c Catalog
	scoped := template("kb://{a}", "kb://", "scoped")
	scoped.Scopes = []string{"kb:secret"}
	c.AddResources([]mcprt.Resource{scoped, template("kb://{+b}", "kb://", "open")})
	for _, tt := range []struct {
		name string
		ctx  context.Context
		want string
	}{
		{"no token", context.Background(), "scoped"},
		{"without the scope", mcprt.WithToken(context.Background(), mcprt.TokenInfo{Scopes: []string{"kb"}}), "open"},
		{"with the scope", mcprt.WithToken(context.Background(), mcprt.TokenInfo{Scopes: []string{"kb:secret"}}), "scoped"},
	} {
		contents, _, err := c.ReadTemplate(tt.ctx, "kb://1")
		if err != nil || len(contents) != 1 || contents[0].Text != tt.want {
			t.Errorf("%s: %v, %v; want %s", tt.name, contents, err, tt.want)
		}
	}
}

// TestNotFoundReason tells what a not found says beyond "not found".
func TestNotFoundReason(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		err  error
		want string
	}{
		{mcprt.ErrNotFound, ""},
		{fmt.Errorf("%w: kb://x", mcprt.ErrNotFound), "kb://x"},
		{fmt.Errorf("article 3: %w", mcprt.ErrNotFound), "article 3"},
		{mcpimpl.NotFound(errors.New("id: not an integer")), "id: not an integer"},
		{fmt.Errorf("reading: %w", mcpimpl.NotFound(errors.New("id: not an integer"))), "id: not an integer"},
	} {
		if got := NotFoundReason(tt.err); got != tt.want {
			t.Errorf("NotFoundReason(%q) = %q, want %q", tt.err, got, tt.want)
		}
	}
}
