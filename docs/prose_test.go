package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// maxWords is the longest sentence a page may hold: past it, a sentence
// becomes two, or a list.
const maxWords = 40

var (
	mdLink  = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	listTag = regexp.MustCompile(`^\s*(?:[-*+]|\d+\.)\s+`)
	// sentenceEnd is a full stop, question or exclamation mark ending a
	// sentence: followed by a space and not after a common abbreviation.
	sentenceEnd = regexp.MustCompile(`[.?!]["')]?\s+`)
	abbrev      = regexp.MustCompile(`(?:\be\.g|\bi\.e|\betc|\bvs|\bcf)$`)
	// indentedFence is a fenced block, in a list item or not.
	indentedFence = regexp.MustCompile("(?ms)^[ \t]*```.*?^[ \t]*```")
)

// TestSentenceLength fails on a sentence of the README or of a page over
// maxWords words. Code, tables and headings are not prose and are left
// out; a list item is a sentence of its own.
func TestSentenceLength(t *testing.T) {
	pages, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range append(pages, "../README.md") {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range sentences(string(b)) {
			if n := len(strings.Fields(s)); n > maxWords {
				t.Errorf("%s: a sentence of %d words (at most %d): %q", p, n, maxWords, s)
			}
		}
	}
}

// sentences splits the prose of a Markdown page into sentences.
func sentences(md string) []string {
	md = indentedFence.ReplaceAllString(md, "\n")
	var paras []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			paras = append(paras, strings.Join(cur, " "))
			cur = nil
		}
	}
	for _, line := range strings.Split(md, "\n") {
		trim := strings.TrimSpace(line)
		switch {
		case trim == "", strings.HasPrefix(trim, "|"), strings.HasPrefix(trim, "#"), strings.HasPrefix(line, "    ") && len(cur) == 0:
			flush()
		case listTag.MatchString(line):
			flush()
			cur = append(cur, listTag.ReplaceAllString(line, ""))
		default:
			cur = append(cur, trim)
		}
	}
	flush()
	var out []string
	for _, p := range paras {
		p = code.ReplaceAllString(p, "code")
		p = mdLink.ReplaceAllString(p, "$1")
		start := 0
		for _, m := range sentenceEnd.FindAllStringIndex(p, -1) {
			if abbrev.MatchString(p[start:m[0]]) {
				continue
			}
			out = append(out, p[start:m[1]])
			start = m[1]
		}
		if start < len(p) {
			out = append(out, p[start:])
		}
	}
	return out
}

func TestSentences(t *testing.T) {
	got := sentences("One two. Three, e.g. four!\n\n- an item\n  goes on. Next one\n\n```\nnot. prose.\n```\n| a. b |\n# Head. ing\n1. step\n\n   ```go\n   code. here.\n   ```\n")
	want := []string{"One two. ", "Three, e.g. four!", "an item goes on. ", "Next one", "step"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("sentences = %q, want %q", got, want)
	}
}
