// Package docs holds the module's documentation pages and a test of their links.
package docs

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

var (
	fence   = regexp.MustCompile("(?ms)^```.*?^```")
	code    = regexp.MustCompile("`[^`\n]*`")
	heading = regexp.MustCompile(`(?m)^#{1,6} (.+)$`)
	link    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	scheme  = regexp.MustCompile(`^[a-z]+:`)
)

// TestLinks checks that every relative link of the README and the pages
// names a file that exists and, with a #fragment, a heading of that page.
func TestLinks(t *testing.T) {
	pages, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, "../README.md")
	texts := map[string]string{}
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		texts[key(p)] = fence.ReplaceAllString(string(b), "")
	}
	for _, p := range pages {
		for _, m := range link.FindAllStringSubmatch(code.ReplaceAllString(texts[key(p)], ""), -1) {
			if err := check(texts, p, m[1]); err != nil {
				t.Errorf("%s: link %s: %v", p, m[1], err)
			}
		}
	}
}

// check reports whether target, a link on page from, resolves.
func check(texts map[string]string, from, target string) error {
	if scheme.MatchString(target) {
		return nil // another site's page: not this test's to fetch
	}
	file, frag, _ := strings.Cut(target, "#")
	to := from
	if file != "" {
		to = path.Join(path.Dir(from), file)
		if _, err := os.Stat(to); err != nil {
			return fmt.Errorf("no file %s", to)
		}
	}
	if frag == "" || !strings.HasSuffix(to, ".md") {
		return nil
	}
	text, ok := texts[key(to)]
	if !ok {
		return fmt.Errorf("%s is not a page this test reads", to)
	}
	if !anchors(text)[frag] {
		return fmt.Errorf("%s has no heading #%s", to, frag)
	}
	return nil
}

// key names a page by its path from the module's root, however reached.
func key(p string) string { return path.Join("docs", p) }

// anchors returns the fragments the headings of text make, as GitHub
// makes them: a repeated heading gets -1, -2 and so on.
func anchors(text string) map[string]bool {
	seen := map[string]int{}
	a := map[string]bool{}
	for _, m := range heading.FindAllStringSubmatch(text, -1) {
		s := slug(m[1])
		if n := seen[s]; n > 0 {
			a[fmt.Sprintf("%s-%d", s, n)] = true
		} else {
			a[s] = true
		}
		seen[s]++
	}
	return a
}

// slug is GitHub's anchor of a heading: lower case, spaces as hyphens,
// and every other character but letters, digits, - and _ dropped.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
