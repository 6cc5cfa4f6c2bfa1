package mcpimpl

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func lit(s string) TemplatePart  { return TemplatePart{Literal: s} }
func vr(s string) TemplatePart   { return TemplatePart{Var: s} }
func plus(s string) TemplatePart { return TemplatePart{Var: s, Plus: true} }

func TestTemplateMatch(t *testing.T) {
	t.Parallel()
	article := &Template{Parts: []TemplatePart{lit("kb://articles/"), vr("id"), lit("/"), vr("format")}}
	files := &Template{Parts: []TemplatePart{lit("kb://files/"), plus("path")}}
	raw := &Template{Parts: []TemplatePart{lit("kb://files/"), plus("path"), lit("/raw")}}
	dotted := &Template{Parts: []TemplatePart{lit("x://"), vr("a"), lit("b")}}
	tests := []struct {
		t    *Template
		uri  string
		want []string // nil: no match
	}{
		{article, "kb://articles/42/markdown", []string{"42", "markdown"}},
		{article, "kb://articles/42", nil},
		{article, "kb://articles/42/markdown/extra", nil},
		{article, "kb://articles//markdown", nil},
		{article, "kb://articles/a%20b/html", []string{"a b", "html"}},
		{article, "kb://articles/a%zz/html", nil},
		{article, "kb://other/42/markdown", nil},
		{files, "kb://files/docs/guide.md", []string{"docs/guide.md"}},
		{files, "kb://files/", nil},
		{raw, "kb://files/a/raw/b/raw", []string{"a/raw/b"}},
		{dotted, "x://abb", []string{"ab"}},
		{dotted, "x://b", nil},
	}
	for _, tt := range tests {
		got, ok := tt.t.Match(tt.uri)
		if ok != (tt.want != nil) || !cmp.Equal(got, tt.want) {
			t.Errorf("Match(%q) = %q, %v; want %q", tt.uri, got, ok, tt.want)
		}
	}
}

// referenceMatch matches with a regular expression built from the
// template: the straightforward matcher Match must agree with.
func referenceMatch(t *Template, uri string) ([]string, bool) {
	var b strings.Builder
	b.WriteString("^")
	for _, p := range t.Parts {
		switch {
		case p.Var == "":
			b.WriteString(regexp.QuoteMeta(p.Literal))
		case p.Plus:
			b.WriteString("((?s).+)")
		default:
			b.WriteString("([^/?#]+?)")
		}
	}
	b.WriteString("$")
	m := regexp.MustCompile(b.String()).FindStringSubmatch(uri)
	if m == nil {
		return nil, false
	}
	vals := m[1:]
	for i, v := range vals {
		d, err := url.PathUnescape(v)
		if err != nil {
			return nil, false
		}
		vals[i] = d
	}
	return vals, true
}

// FuzzTemplateMatch holds Match to the regular expression on templates
// and URIs drawn from a small alphabet, where splits are most ambiguous.
func FuzzTemplateMatch(f *testing.F) {
	f.Add("kb://a/{id}/{f}", "kb://a/1/md")
	f.Add("x://{+p}/raw", "x://a/raw/raw")
	f.Add("x://{a}b{c}", "x://abbbc")
	f.Add("{a}.{b}", "1.2.3")
	f.Fuzz(func(t *testing.T, tmpl, uri string) {
		if len(tmpl) > 64 || len(uri) > 256 {
			return // long inputs find nothing new and slow the search
		}
		tp, ok := parseTestTemplate(tmpl)
		if !ok || !utf8.ValidString(tmpl) || !utf8.ValidString(uri) {
			return
		}
		got, gotOK := tp.Match(uri)
		want, wantOK := referenceMatch(tp, uri)
		if gotOK != wantOK || !cmp.Equal(got, want) {
			t.Fatalf("template %q, uri %q: Match = %q, %v; reference %q, %v", tmpl, uri, got, gotOK, want, wantOK)
		}
	})
}

// parseTestTemplate reads {a} and {+a} expressions; it refuses what the
// generator refuses: unbalanced braces and two variables side by side.
func parseTestTemplate(s string) (*Template, bool) {
	t := &Template{}
	for s != "" {
		open := strings.IndexByte(s, '{')
		if open < 0 {
			t.Parts = append(t.Parts, lit(s))
			break
		}
		if open > 0 {
			t.Parts = append(t.Parts, lit(s[:open]))
		} else if n := len(t.Parts); n > 0 && t.Parts[n-1].Var != "" {
			return nil, false
		}
		end := strings.IndexByte(s, '}')
		if end < open {
			return nil, false
		}
		name := s[open+1 : end]
		p := vr(name)
		if strings.HasPrefix(name, "+") {
			p = plus(name[1:])
		}
		if p.Var == "" || strings.ContainsAny(p.Var, "{}+") {
			return nil, false
		}
		t.Parts = append(t.Parts, p)
		s = s[end+1:]
	}
	if strings.ContainsAny(partsLiterals(t), "{}") {
		return nil, false
	}
	return t, true
}

func partsLiterals(t *Template) string {
	var b strings.Builder
	for _, p := range t.Parts {
		b.WriteString(p.Literal)
	}
	return b.String()
}

// BenchmarkTemplateMatchLong matches a template whose literals occur
// everywhere in a URI of the longest length matched: the case a
// backtracking matcher takes quadratic time or worse on.
func BenchmarkTemplateMatchLong(b *testing.B) {
	tp := &Template{Parts: []TemplatePart{lit("x://"), vr("a"), lit("a"), plus("b"), lit("a"), vr("c"), lit("!")}}
	uri := "x://" + strings.Repeat("a", MaxTemplateURI-5)
	for b.Loop() {
		tp.Match(uri)
	}
}

func BenchmarkTemplateMatch(b *testing.B) {
	tp := &Template{Parts: []TemplatePart{lit("kb://articles/"), vr("id"), lit("/"), vr("format")}}
	for b.Loop() {
		tp.Match("kb://articles/42/markdown")
	}
}

// TestTemplateMatches matches URIs against template texts as the scope
// checks do before a read, and agrees with the parsed template's Match.
func TestTemplateMatches(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		tmpl, uri string
		want      bool
	}{
		{"kb://t/{id}", "kb://t/7", true},
		{"kb://t/{id}", "kb://t/", false},
		{"kb://t/{id}", "kb://t/7/8", false},
		{"kb://t/{id}", "kb://t/7?x", false},
		{"kb://t/{+path}", "kb://t/7/8?x", true},
		{"kb://{a}/{b}.md", "kb://x/y.md", true},
		{"kb://{a}/{b}.md", "kb://x/y.txt", false},
		{"kb://{a}/{+b}", "kb://x/y/z", true},
		{"kb://t/{id", "kb://t/7", false},
		{"kb://t/{}", "kb://t/7", false},
		{"kb://{a}{b}", "kb://xy", false}, // two variables side by side: not a template the generator writes
		{"kb://r", "kb://r", true},
		{"kb://r", "kb://rr", false},
	} {
		if got := TemplateMatches(c.tmpl, c.uri); got != c.want {
			t.Errorf("TemplateMatches(%q, %q) = %v, want %v", c.tmpl, c.uri, got, c.want)
		}
		if tm, ok := ParseTemplate(c.tmpl); ok {
			if _, match := tm.Match(c.uri); match != c.want {
				t.Errorf("ParseTemplate(%q).Match(%q) = %v, TemplateMatches %v", c.tmpl, c.uri, match, c.want)
			}
		}
	}
}

// TestParseTemplate reads the parts the generator would write.
func TestParseTemplate(t *testing.T) {
	t.Parallel()
	got, ok := ParseTemplate("kb://articles/{id}/{+rest}")
	want := []TemplatePart{{Literal: "kb://articles/"}, {Var: "id"}, {Literal: "/"}, {Var: "rest", Plus: true}}
	if !ok || !slices.Equal(got.Parts, want) {
		t.Errorf("ParseTemplate = %+v %v, want %+v", got, ok, want)
	}
}
