package annotations

import (
	"strconv"
	"testing"
)

// TestQuotingAgrees holds directives and tags to one quoting rule: a
// value written single-quoted, double-quoted or bare reads as the same
// value in //mcp:param and in an mcp tag.
func TestQuotingAgrees(t *testing.T) {
	t.Parallel()
	tests := []struct {
		written string // the value as written after pattern=
		want    string
	}{
		{`'^97[89]-[0-9]{10}$'`, `^97[89]-[0-9]{10}$`},
		{`"^97[89]-[0-9]{10}$"`, `^97[89]-[0-9]{10}$`},
		{`^97[89]-[0-9]+$`, `^97[89]-[0-9]+$`},
		{`'a b'`, `a b`},
		{`"a b"`, `a b`},
		{`'a\d'`, `a\d`},           // single quotes take no escapes
		{`"a\\d"`, `a\d`},          // double quotes take Go's
		{`"it's"`, `it's`},         // a single quote inside double quotes
		{`'say "hi"'`, `say "hi"`}, // and the reverse
		{`''`, ``},
	}
	for _, tt := range tests {
		dir := "//mcp:param isbn pattern=" + tt.written
		got, errs := ParseDirective(base, dir)
		if len(errs) > 0 {
			t.Errorf("ParseDirective(%q): errors %v", dir, offsets(errs))
		} else if p := got.(*Param).Tag.Pattern; p.Value != tt.want || !p.Set {
			t.Errorf("ParseDirective(%q): pattern %q, want %q", dir, p.Value, tt.want)
		}
		// An mcp tag inside a Go string literal: the literal escapes
		// what it must, and the tag value is the same text.
		lit := strconv.Quote(`mcp:` + strconv.Quote("pattern="+tt.written))
		tag, _, errs := ParseTag(base, lit)
		if len(errs) > 0 {
			t.Errorf("ParseTag(%s): errors %v", lit, offsets(errs))
		} else if tag.Pattern.Value != tt.want || !tag.Pattern.Set {
			t.Errorf("ParseTag(%s): pattern %q, want %q", lit, tag.Pattern.Value, tt.want)
		}
	}
}

// TestQuotingBad holds directives and tags to the same errors for a quote
// left open, a double-quoted value that is no Go string, and text after
// the closing quote, each at the key.
func TestQuotingBad(t *testing.T) {
	t.Parallel()
	tests := []struct {
		written string // the value as written after pattern=
		want    string
	}{
		{`'^97`, `unterminated quoted value for key "pattern"`},
		{`"^97`, `unterminated quoted value for key "pattern"`},
		{"`^97", `unterminated quoted value for key "pattern"`},
		{`"a\d"`, `bad quoted value for key "pattern": want a Go string literal, or single quotes, which take no escapes`},
		{`'a'b`, `unexpected text after quoted value for key "pattern"`},
		{`"a"b`, `unexpected text after quoted value for key "pattern"`},
	}
	for _, tt := range tests {
		dir := "//mcp:param isbn pattern=" + tt.written
		_, errs := ParseDirective(base, dir)
		want := []wantErr{{17, tt.want}}
		if got := offsets(errs); len(got) != 1 || got[0] != want[0] {
			t.Errorf("ParseDirective(%q): errors %v, want %v", dir, got, want)
		}
		lit := strconv.Quote(`mcp:` + strconv.Quote("pattern="+tt.written))
		_, _, errs = ParseTag(base, lit)
		if len(errs) != 1 || errs[0].Msg != tt.want {
			t.Errorf("ParseTag(%s): errors %v, want one: %s", lit, offsets(errs), tt.want)
		}
	}
}
