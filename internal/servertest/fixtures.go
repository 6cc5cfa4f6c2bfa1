package servertest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

var priority = 0.5

// KindsResult is a rendered prompt with a message of every content kind.
func KindsResult(who string) mcprt.PromptResult {
	return mcprt.PromptResult{Description: "Greets " + who, Messages: []mcprt.PromptMessage{
		{Role: mcprt.RoleAssistant, Content: mcprt.Text("Hello, " + who).With(mcprt.Annotations{Audience: []string{"user"}, Priority: &priority, LastModified: "2026-01-02T15:04:05Z"})},
		{Content: mcprt.Image(PNGBytes(), "image/png")}, // no role: the user's
		{Role: mcprt.RoleUser, Content: mcprt.Audio([]byte{1, 2, 3}, "audio/wav")},
		{Role: mcprt.RoleUser, Content: mcprt.Content{Type: mcprt.TypeResourceLink, URI: "kb://a", Name: "a", Description: "Article a", MIMEType: "text/markdown"}},
		{Role: mcprt.RoleUser, Content: mcprt.TextResource("kb://b", "text/plain", "embedded")},
		{Role: mcprt.RoleUser, Content: mcprt.BlobResource("kb://c", "image/png", PNGBytes())},
	}}
}

// Missing is the error generated code returns for a required argument
// the client left out.
func Missing(name string) error {
	return &mcpimpl.ArgumentError{Problems: []mcpimpl.Problem{{Path: name, Message: "required argument is missing"}}}
}

// Kinds renders KindsResult for its required argument "who".
var Kinds = mcprt.Prompt{
	Name: "kinds", Title: "Every kind", Description: "A message of every content kind.",
	Arguments: []mcprt.PromptArgument{{Name: "who", Title: "Who", Description: "Whom to greet.", Required: true}, {Name: "tone"}},
	Icons:     []mcprt.Icon{{Src: "https://example.com/k.png", MIMEType: "image/png", Sizes: []string{"48x48"}}},
	Get: func(ctx context.Context, args map[string]string) (mcprt.PromptResult, error) {
		who, ok := args["who"]
		if !ok {
			return mcprt.PromptResult{}, Missing("who")
		}
		return KindsResult(who), nil
	},
}

// Failing is a prompt whose Get fails; Boom one whose Get panics.
var (
	Failing = mcprt.Prompt{Name: "failing", Description: "Fails.", Get: func(context.Context, map[string]string) (mcprt.PromptResult, error) {
		return mcprt.PromptResult{}, errors.New("template store unavailable")
	}}
	Boom = mcprt.Prompt{Name: "boom", Description: "Panics.", Get: func(context.Context, map[string]string) (mcprt.PromptResult, error) {
		panic("kaputt")
	}}
)

// TextResource is a static resource whose content is text.
func TextResource(uri, text string) mcprt.Resource {
	return mcprt.Resource{
		URI: uri, Name: strings.TrimPrefix(uri, "test://"), Title: "Text " + uri, Description: "Says " + text, MIMEType: "text/plain",
		Size: int64(len(text)), Annotations: &mcprt.Annotations{Audience: []string{"user", "assistant"}, Priority: &priority},
		Icons: []mcprt.Icon{{Src: "https://example.com/t.png"}},
		Read: func(ctx context.Context, u string) ([]mcprt.ResourceContents, error) {
			return []mcprt.ResourceContents{{Text: text}}, nil
		},
	}
}

// DataTemplate is the conformance suite's template
// test://template/{id}/data: its Read matches the URI itself and answers
// JSON text.
var DataTemplate = mcprt.Resource{
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

// Resources are the resources of the read tests: text, a blob, several
// contents, empty text, one not found, one failing, one panicking, and
// DataTemplate last.
func Resources() []mcprt.Resource {
	return []mcprt.Resource{
		TextResource("test://static-text", "This is the content of the static text resource."),
		{URI: "test://static-binary", Name: "static-binary", MIMEType: "image/png",
			Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
				return []mcprt.ResourceContents{{Blob: PNGBytes()}}, nil
			}},
		{URI: "test://dir", Name: "dir",
			Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
				return []mcprt.ResourceContents{
					{URI: "test://dir/a.txt", MIMEType: "text/plain", Text: "A"},
					{URI: "test://dir/b.bin", Blob: []byte{0}, Meta: []byte(`{"k":1}`)},
				}, nil
			}},
		Empty,
		Gone,
		Broken,
		{URI: "test://boom", Name: "boom",
			Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) { panic("kaputt") }},
		DataTemplate,
	}
}

// ItemsTemplate reads test://items/{n} as generated code does: a
// variable that does not parse is mcpimpl.NotFound, saying why.
var ItemsTemplate = mcprt.Resource{URI: "test://items/{n}", Name: "items",
	Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
		n, ok := strings.CutPrefix(uri, "test://items/")
		if !ok {
			return nil, mcprt.ErrNotFound
		}
		if _, err := strconv.Atoi(n); err != nil {
			return nil, mcpimpl.NotFound(fmt.Errorf("n: %s is not an integer", n))
		}
		return []mcprt.ResourceContents{{Text: n}}, nil
	}}

// Gone is a resource whose Read finds nothing; Broken one whose Read
// fails.
var (
	Gone = mcprt.Resource{URI: "test://gone", Name: "gone",
		Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
			return nil, fmt.Errorf("looking up %s: %w", uri, mcprt.ErrNotFound)
		}}
	Broken = mcprt.Resource{URI: "test://broken", Name: "broken",
		Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
			return nil, errors.New("disk on fire")
		}}
)

// Empty is a resource whose one content is empty text.
var Empty = mcprt.Resource{URI: "test://empty", Name: "empty", MIMEType: "text/plain",
	Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
		return []mcprt.ResourceContents{{}}, nil
	}}

// ByURI returns rs sorted by URI.
func ByURI(rs []mcprt.Resource) []mcprt.Resource {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b mcprt.Resource) int { return strings.Compare(a.URI, b.URI) })
	return rs
}

// ByName returns rs sorted by name.
func ByName(rs []mcprt.Resource) []mcprt.Resource {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b mcprt.Resource) int { return strings.Compare(a.Name, b.Name) })
	return rs
}

// Join writes items as the built-in server lists them on revision rev,
// each written by appendOne, separated by commas.
func Join[T any](items []T, appendOne func([]byte, *T, wire.Revision) []byte, rev wire.Revision) string {
	var b []byte
	for i := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendOne(b, &items[i], rev)
	}
	return string(b)
}

// Show completes with what it was asked: the argument, the value and the
// other arguments, sorted.
func Show(ctx context.Context, argument, value string, args map[string]string) ([]string, error) {
	var ctxArgs []string
	for k, v := range args {
		ctxArgs = append(ctxArgs, k+"="+v)
	}
	sort.Strings(ctxArgs)
	return []string{argument, value, strings.Join(ctxArgs, "&")}, nil
}

// Many completes with n values.
func Many(n int) mcprt.Completer {
	return func(ctx context.Context, argument, value string, args map[string]string) ([]string, error) {
		values := make([]string, n)
		for i := range values {
			values[i] = fmt.Sprint(i)
		}
		return values, nil
	}
}

// CompletingPrompts are prompts whose completers show what they were
// asked, one without a completer, and completers that suggest 150 and 100
// values, fail and panic.
func CompletingPrompts() []mcprt.Prompt {
	return []mcprt.Prompt{
		{Name: "show", Description: "Shows.", Complete: Show},
		{Name: "plain", Description: "No completer."},
		{Name: "many", Description: "150 values.", Complete: Many(150)},
		{Name: "hundred", Description: "100 values.", Complete: Many(100)},
		{Name: "failing", Description: "Fails.", Complete: func(context.Context, string, string, map[string]string) ([]string, error) {
			return nil, errors.New("index unavailable")
		}},
		{Name: "boom", Description: "Panics.", Complete: func(context.Context, string, string, map[string]string) ([]string, error) {
			panic("kaputt")
		}},
	}
}

// CompletingResources are a template whose completer shows what it was
// asked and a resource without a completer.
func CompletingResources() []mcprt.Resource {
	return []mcprt.Resource{
		{URI: "kb://articles/{id}", Name: "article", Complete: Show},
		{URI: "kb://index", Name: "index"},
	}
}

// SampleTools are tools with everything a descriptor may hold: a title
// and hints, a list result (its output schema wrapped before 2026-07-28),
// icons and task support; and one with neither title nor hints.
func SampleTools() []mcprt.Tool {
	return []mcprt.Tool{
		{Name: "b_full", Title: "Full", Description: "Has everything.",
			InputSchema:  []byte(`{"type":"object","properties":{"n":{"type":["integer","null"]}},"additionalProperties":false}`),
			OutputSchema: []byte(`{"type":"array","items":{"type":"integer"}}`), WrapOutput: true,
			Hints: mcprt.Hints{ReadOnly: new(true), OpenWorld: new(false)},
			Icons: []mcprt.Icon{{Src: "https://example.com/f.png", MIMEType: "image/png", Sizes: []string{"48x48"}}}, TaskSupport: mcprt.TaskOptional,
			Handler: func(context.Context, []byte) mcprt.Result {
				return mcprt.Result{Content: []mcprt.Content{mcprt.Text("[1,2]")}, StructuredContent: []byte(`[1,2]`), WrapStructured: true}
			}},
		{Name: "a_bare", Description: "Has no title and no hints.", InputSchema: []byte(`{"type":"object"}`),
			Handler: func(context.Context, []byte) mcprt.Result {
				return mcprt.Result{Content: []mcprt.Content{mcprt.Text("bare")}}
			}},
	}
}

// URLTools are a tool that sends the user to a page and one that needs the
// user to have visited one; both report the elicitation's id on ids.
func URLTools(ids chan<- string) []mcprt.Tool {
	schema := []byte(`{"type":"object"}`)
	return []mcprt.Tool{
		{Name: "consent", InputSchema: schema, Handler: func(ctx context.Context, _ []byte) mcprt.Result {
			r, id, err := mcprt.ElicitURL(ctx, "Grant access", "https://example.com/consent")
			if err != nil {
				return mcprt.ErrorResult(err)
			}
			ids <- id
			return mcprt.TextResult(r.Action)
		}},
		{Name: "gate", InputSchema: schema, Handler: func(ctx context.Context, _ []byte) mcprt.Result {
			err := mcprt.URLElicitationRequired("Authorize", "https://example.com/oauth")
			var ue *mcprt.URLElicitationError
			if errors.As(err, &ue) {
				ids <- ue.Elicitations[0].ID
			}
			return mcprt.ErrorResult(err)
		}},
	}
}
