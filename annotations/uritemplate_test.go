package annotations

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// lit, v and vplus build the parts of expected templates: literal text,
// {name} and {+name}.
func lit(s string) URIPart      { return URIPart{Literal: s} }
func v(name string) URIPart     { return URIPart{Var: name} }
func vplus(name string) URIPart { return URIPart{Var: name, Reserved: true} }

func TestParseURITemplateGood(t *testing.T) {
	tests := []struct {
		in       string
		parts    []URIPart
		vars     []string
		template bool
	}{
		{"file:///notes.txt", []URIPart{lit("file:///notes.txt")}, nil, false},
		{"kb://articles/{id}/{format}", []URIPart{lit("kb://articles/"), v("id"), lit("/"), v("format")}, []string{"id", "format"}, true},
		{"kb://files/{+path}", []URIPart{lit("kb://files/"), vplus("path")}, []string{"path"}, true},
		{"kb:{+path}", []URIPart{lit("kb:"), vplus("path")}, []string{"path"}, true},
		{"db://{table}.{Row_9}?x=%2F#top", []URIPart{lit("db://"), v("table"), lit("."), v("Row_9"), lit("?x=%2F#top")}, []string{"table", "Row_9"}, true},
		{"urn:isbn:0451450523", []URIPart{lit("urn:isbn:0451450523")}, nil, false},
		{"a+b.c-d:x", []URIPart{lit("a+b.c-d:x")}, nil, false},
		{"kb://café/{1}", []URIPart{lit("kb://café/"), v("1")}, []string{"1"}, true},
		{"data:text/plain;base64,SGk=", []URIPart{lit("data:text/plain;base64,SGk=")}, nil, false},
	}
	for _, tt := range tests {
		got, err := parseURITemplate(tt.in)
		if err != nil {
			t.Errorf("parseURITemplate(%q): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.parts, got.Parts); diff != "" {
			t.Errorf("parseURITemplate(%q) parts mismatch (-want +got):\n%s", tt.in, diff)
		}
		if s := got.String(); s != tt.in {
			t.Errorf("parseURITemplate(%q).String() = %q, want it back", tt.in, s)
		}
		if diff := cmp.Diff(tt.vars, got.Vars()); diff != "" {
			t.Errorf("parseURITemplate(%q).Vars() mismatch (-want +got):\n%s", tt.in, diff)
		}
		if got.IsTemplate() != tt.template {
			t.Errorf("parseURITemplate(%q).IsTemplate() = %v", tt.in, !tt.template)
		}
	}
}

func TestParseURITemplateBad(t *testing.T) {
	const absolute = "want an absolute URI, starting with a scheme, such as file:///notes.txt or kb://articles/{id}"
	tests := []struct{ in, want string }{
		{"", absolute},
		{"notes.txt", absolute},
		{"/notes/{id}", absolute},
		{"{scheme}://x", absolute},
		{"a/b:c", absolute},
		{":x", absolute},
		{"1kb://x", `scheme "1kb" must be a letter followed by letters, digits, '+', '-' or '.'`},
		{"k_b://x", `scheme "k_b" must be a letter followed by letters, digits, '+', '-' or '.'`},
		{"kb://a b", `character ' ' is not allowed in a URI; percent-encode it`},
		{"kb://a|b", `character '|' is not allowed in a URI; percent-encode it`},
		{"kb://a\x7f", `character '\x7f' is not allowed in a URI; percent-encode it`},
		{"kb://a\u0085", `character '\u0085' is not allowed in a URI; percent-encode it`},
		{"kb://\xff", `it is not valid UTF-8`},
		{"kb://a%zz", `"%zz" is not a percent-encoded byte: want % and two hex digits`},
		{"kb://a%2", `"%2" is not a percent-encoded byte: want % and two hex digits`},
		{"kb://{?q}", `expression "{?q}" uses the ? operator; only {var} and {+var} are supported`},
		{"kb://{#x}", `expression "{#x}" uses the # operator; only {var} and {+var} are supported`},
		{"kb://a{/x}", `expression "{/x}" uses the / operator; only {var} and {+var} are supported`},
		{"kb://a{.x}", `expression "{.x}" uses the . operator; only {var} and {+var} are supported`},
		{"kb://a{;x}", `expression "{;x}" uses the ; operator; only {var} and {+var} are supported`},
		{"kb://a?{&x}", `expression "{&x}" uses the & operator; only {var} and {+var} are supported`},
		{"kb://{=x}", `expression "{=x}" uses the = operator; only {var} and {+var} are supported`},
		{"kb://{id", `expression "{id" is not closed by "}"`},
		{"kb://{a/{b}", `expression "{a/" is not closed by "}"`},
		{"kb://a}/b", `"}" after "kb://a" has no matching "{"`},
		{"kb://{a}/b}", `"}" after "/b" has no matching "{"`},
		{"kb://{}", `expression "{}" has no variable name`},
		{"kb://{+}", `expression "{+}" has no variable name`},
		{"kb://{a,b}", `expression "{a,b}" has more than one variable; write one expression per variable`},
		{"kb://{+a,b}", `expression "{+a,b}" has more than one variable; write one expression per variable`},
		{"kb://{a-b}", `expression "{a-b}": variable name "a-b" may hold only A-Z, a-z, 0-9 and '_'`},
		{"kb://{a:3}", `expression "{a:3}": variable name "a:3" may hold only A-Z, a-z, 0-9 and '_'`},
		{"kb://{a*}", `expression "{a*}": variable name "a*" may hold only A-Z, a-z, 0-9 and '_'`},
		{"kb://{ a}", `expression "{ a}": variable name " a" may hold only A-Z, a-z, 0-9 and '_'`},
		{"kb://{++a}", `expression "{++a}": variable name "+a" may hold only A-Z, a-z, 0-9 and '_'`},
		{"kb://{id}/{id}", `expression "{id}" repeats the variable "id"`},
		{"kb://{a}/{+a}", `expression "{+a}" repeats the variable "a"`},
		{"kb://{a}{b}", `expressions "{a}" and "{b}" have no literal text between them, so a URI cannot be split into their values`},
		{"kb://{a}{+b}", `expressions "{a}" and "{+b}" have no literal text between them, so a URI cannot be split into their values`},
		// The first problem is the one reported.
		{"x {?q}", `character ' ' is not allowed in a URI; percent-encode it`},
		{"nope/{?q}", `expression "{?q}" uses the ? operator; only {var} and {+var} are supported`},
	}
	for _, tt := range tests {
		got, err := parseURITemplate(tt.in)
		if err == nil {
			t.Errorf("parseURITemplate(%q) = %v, want error %q", tt.in, got.Parts, tt.want)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("parseURITemplate(%q) error\n got %s\nwant %s", tt.in, err, tt.want)
		}
		if got.Parts != nil {
			t.Errorf("parseURITemplate(%q) returned parts %v with its error", tt.in, got.Parts)
		}
	}
}

// FuzzParseURITemplate checks that whatever parses prints back as written
// and keeps the promises of URITemplate's doc.
func FuzzParseURITemplate(f *testing.F) {
	for _, s := range []string{
		"kb://articles/{id}/{format}", "kb://files/{+path}", "kb://{a}{b}",
		"kb://{?q}", "kb://{id", "kb://a}", "kb://{a}/{a}", "a%2x", "file:///x y",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tmpl, err := parseURITemplate(s)
		if err != nil {
			return
		}
		if got := tmpl.String(); got != s {
			t.Fatalf("%q parsed and printed as %q", s, got)
		}
		checkParts(t, s, tmpl.Parts)
	})
}

// checkParts fails t unless parts alternate between non-empty literal
// text and variables with distinct, valid names.
func checkParts(t *testing.T, s string, parts []URIPart) {
	t.Helper()
	seen := map[string]bool{}
	for i, p := range parts {
		switch {
		case (p.Literal == "") == (p.Var == ""):
			t.Fatalf("%q: part %d is %+v, want exactly one of Literal and Var", s, i, p)
		case i > 0 && (p.Var == "") == (parts[i-1].Var == ""):
			t.Fatalf("%q: parts %d and %d are both literal or both variables", s, i-1, i)
		case p.Var != "" && (seen[p.Var] || !uriVarName.MatchString(p.Var)):
			t.Fatalf("%q: variable %q repeated or badly named", s, p.Var)
		}
		seen[p.Var] = p.Var != ""
	}
}
