package annotations

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the generated tables of ../docs/reference.md")

// TestEveryDirectiveParses checks that each directive of the table has a
// case in ParseDirective.
func TestEveryDirectiveParses(t *testing.T) {
	for _, d := range directives {
		if v, _ := ParseDirective(base, "//mcp:"+d.Name+" x"); v == nil {
			t.Errorf("//mcp:%s is in the table but ParseDirective does not parse it", d.Name)
		}
	}
}

// TestEveryKeyIsStored checks that each key of the tables has a case in
// the setter of its directive or of the tag, which would otherwise reject
// it as unknown.
func TestEveryKeyIsStored(t *testing.T) {
	for _, d := range directives {
		prefix := "//mcp:" + d.Name + " "
		if d.Name == "param" {
			prefix += "x "
		}
		for _, k := range d.keyNames() {
			_, errs := ParseDirective(base, prefix+k+"=1")
			wantKnown(t, prefix+k, k, errs)
		}
	}
	for _, k := range keyNames(tagKeys) {
		_, _, errs := ParseTag(base, "`mcp:\""+k+"=1\"`")
		wantKnown(t, "mcp tag", k, errs)
	}
}

func wantKnown(t *testing.T, where, key string, errs []Error) {
	t.Helper()
	for _, e := range errs {
		if strings.HasPrefix(e.Msg, "unknown key") {
			t.Errorf("%s: key %q is in the table but its setter has no case for it: %s", where, key, e.Msg)
		}
	}
}

// TestREADME holds the reference's tables of directives and keys to the
// tables of keys.go, which the parsers use: each generated block, between
// its begin and end lines, must read exactly as rendered here.
func TestREADME(t *testing.T) {
	const path = "../docs/reference.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	for _, b := range []struct{ name, text string }{
		{"directives", markdownDirectives()},
		{"tag keys", markdownKeys("`mcp` tag key", tagKeys)},
	} {
		begin := "<!-- begin " + b.name + ": generated from annotations/keys.go by go test ./annotations -run TestREADME -update -->\n"
		end := "<!-- end " + b.name + " -->\n"
		i, j := strings.Index(readme, begin), strings.Index(readme, end)
		if i < 0 || j < i {
			t.Errorf("docs/reference.md lacks the lines that enclose the %s table; put them where it goes:\n%s%s", b.name, begin, end)
			continue
		}
		i += len(begin)
		if *update {
			readme = readme[:i] + b.text + readme[j:]
			continue
		}
		if diff := cmp.Diff(b.text, readme[i:j]); diff != "" {
			t.Errorf("docs/reference.md's %s table differs from annotations/keys.go (-want +got); run go test ./annotations -run TestREADME -update:\n%s", b.name, diff)
		}
	}
	if *update && readme != string(data) {
		if err := os.WriteFile(path, []byte(readme), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// markdownDirectives renders the directives, then the keys of each.
func markdownDirectives() string {
	var b strings.Builder
	b.WriteString("| directive | where, and what it does |\n|---|---|\n")
	for _, d := range directives {
		fmt.Fprintf(&b, "| %s | %s |\n", code(d.Usage()), cell(d.Doc))
	}
	for _, d := range directives {
		if len(d.Keys) == 0 && !d.TagKeys {
			continue
		}
		fmt.Fprintf(&b, "\n| `//mcp:%s` key | meaning |\n|---|---|\n", d.Name)
		if d.TagKeys {
			b.WriteString("| the `mcp` tag keys | as in struct tags (below) |\n")
		}
		writeKeyRows(&b, d.Keys)
	}
	return b.String()
}

// markdownKeys renders keys as a table under the heading title.
func markdownKeys(title string, keys []Key) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| %s | meaning |\n|---|---|\n", title)
	writeKeyRows(&b, keys)
	return b.String()
}

func writeKeyRows(b *strings.Builder, keys []Key) {
	for _, k := range keys {
		fmt.Fprintf(b, "| %s | %s |\n", code(k.Usage()), cell(k.Doc))
	}
}

// code writes s as a code span in a table cell, where GitHub's tables
// want a pipe escaped even there.
func code(s string) string { return "`" + cell(s) + "`" }

func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
