package skillfile_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/skillfile"
	"github.com/mcpgen/mcpgen/internal/skillfile/yamlnode"
	"go.yaml.in/yaml/v3"
)

// frontmatters are frontmatters as skills write them; the reader must
// read each as the YAML library does.
var frontmatters = []string{
	"name: pdf\ndescription: Fill PDF forms",
	"name: pdf\ndescription: 'It''s quoted'\nlicense: \"Apache-2.0\"",
	"name: a\ndescription: >\n  Folded text\n  over lines.\n\n  A new paragraph.\n",
	"name: a\ndescription: |\n  Literal text\n    indented more\n  back\n",
	"name: a\ndescription: |-\n  no final newline\n",
	"name: a\ndescription: |+\n  keep\n\n\nnext: x",
	"name: a\ndescription: >-\n  a\n    b\n  c\n\n  d\n",
	"name: a\ndescription: >2\n   two\n  one\n",
	"name: a\ndescription: A long plain value\n  that goes on\n\n  over a blank line\nx: 1",
	"name: a # the name\n# a comment\ndescription: d\n",
	"name: a\nmetadata:\n  version: \"2.1.0\"\n  author: someone\n",
	"name: a\nmetadata: {version: '1.0', author: \"x y\"}\n",
	"name: a\ntags: [pdf, forms, 'a b', 1, 2.5, true, null]\n",
	"name: a\ntags:\n- one\n- two\n",
	"name: a\ntags:\n  - one\n  -   two\n",
	"name: a\nlist:\n- k: v\n  j: w\n- k: x\n",
	"name: a\nlist:\n  - - a\n    - b\n  - c\n",
	"name: a\nn: 12\nf: 1.5\ne: 1e3\nz: -0\nh: 0x1F\no: 0o17\nb: TRUE\nnl: ~\nempty:\n",
	"name: a\ndq: \"tab\\there \\u00e9 \\x41 \\\"q\\\" \\\\\"\n",
	"name: a\nurl: https://example.com/a:b\ncolon: a:b\n",
	"\"quoted key\": 1\n'single': 2\n",
	"name: a\nnested:\n  deeper:\n    deepest: [1, {a: b}]\n",
	"name: a\nallowed-tools: Bash(git:*) Read\n",
	"  name: indented\n  description: map\n",
	"name: a\ndescription: >\n\n  leading blank\n",
	"name: a\nd: |\n  a\n\n  b\n\n\n",
	"name: a\nd: >+\n  a\n\nz: 1",
	"name: a\nd: |\n\n",
	"name: a\nd:\n  # comment only\nnext: b",
	"name: a\nd: >\n  one\n   spaced\n  two\n",
	"name: 'a'\nd: \"\"\ne: ''\n",
	"name: a\nd: x # c\ne: [ ]\nf: { }\n",
	"name: a\r\ndescription: crlf\r\n",
	"k: v\n\n\n",
	"k:\n  - a\n  - b: c\n    d: e\n",
}

func split(t testing.TB, text string) *skillfile.Frontmatter {
	fm, p := skillfile.Split([]byte("---\n" + text + "\n---\nbody\n"))
	if p != nil {
		t.Fatalf("split %q: %v", text, p)
	}
	return fm
}

// same checks that the reader reads text as the YAML library does: both
// accept it, and the JSON they render is the same, and is what the
// library decodes as plain Go values.
func same(t *testing.T, text string, mustAccept bool) {
	t.Helper()
	fm := split(t, text)
	mine, p := skillfile.Read(fm)
	if p != nil {
		if mustAccept {
			t.Errorf("Read(%q): %v", text, p)
		}
		return
	}
	lib, lp := yamlnode.Read(fm)
	if lp != nil {
		t.Fatalf("Read(%q) accepts what the YAML library refuses: %v", text, lp)
	}
	a, b := mine.AppendJSON(nil), lib.AppendJSON(nil)
	if !bytes.Equal(a, b) {
		t.Fatalf("Read(%q) = %s, the YAML library reads %s", text, a, b)
	}
	var plain any
	if err := yaml.Unmarshal(fm.Text, &plain); err != nil {
		t.Fatalf("yaml.Unmarshal(%q): %v", text, err)
	}
	want, err := json.Marshal(plain)
	if err != nil {
		t.Fatalf("%q: the library decodes a value JSON cannot hold (%v) which Read accepts as %s", text, err, a)
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(want, &y) != nil || !reflect.DeepEqual(x, y) {
		t.Fatalf("Read(%q) = %s, yaml.Unmarshal decodes %s", text, a, want)
	}
}

func TestReadAgreesWithYAML(t *testing.T) {
	t.Parallel()
	for _, text := range frontmatters {
		same(t, text, true)
	}
}

// TestReadRefuses checks that what the reader does not read is refused at
// the right place with a message, never misread.
func TestReadRefuses(t *testing.T) {
	t.Parallel()
	cases := []struct{ text, want string }{
		{"name: &x a\nb: *x", "2:7: an anchor or alias"},
		{"name: !!str 1", "2:7: a tag"},
		{"<<: {a: b}", "2:1: a merge key"},
		{"? complex\n: x", "2:1: a complex key"},
		{"name: a\nname: b", "3:1: the key \"name\" is written twice"},
		{"v: 012", "2:4: the value \"012\" has a leading zero"},
		{"v: 1_000", "2:4: the value \"1_000\" has a digit separator"},
		{"v: 2024-01-01", "2:4: the value \"2024-01-01\" is a date or time"},
		{"v: .inf", "2:4: the value \".inf\" is not a JSON number"},
		{"v: 0b101", "2:4: the value \"0b101\" is a number some YAML readers read and others do not"},
		{"v: 9007199254740993", "2:4: the value \"9007199254740993\" is too large"},
		{"v: \"open\n  close\"", "2:4: a quoted value over several lines"},
		{"v: [a,\n  b]", "2:7: a flow collection"},
		{"v: a: b", "2:5: a ':' followed by a space"},
		{"\tv: a", "2:1: a tab in indentation"},
		{"v: a\n  w: b", "3:4: a ':' followed by a space"},
		{"v:\n  a: 1\n   b: 2", "4:5: a ':' followed by a space"},
		{"v:\n  a: 1\n    - b", "4:5: a value over several lines"},
		{"v:\n  a:\n    b: 1\n   c: 2", "5:4: unexpected indentation"},
		{"1: x", "2:1: the key \"1\" is not text"},
		{"v: \"\\q\"", "2:6: an unknown escape"},
		{"", "2:1: the frontmatter is empty"},
		{"v: |\n   \n  x", "3:1: a line of spaces before"},
		{"%YAML 1.2", "2:1: a YAML directive"},
		{"d: >\n  ends the frontmatter", "2:4: a block scalar that ends the frontmatter"},
		{"d: |+\n  keeps its breaks\n", "2:4: a block scalar that ends the frontmatter"},
	}
	for _, c := range cases {
		_, p := skillfile.Read(split(t, c.text))
		if p == nil {
			t.Errorf("Read(%q) accepted it; want %q", c.text, c.want)
			continue
		}
		if got := p.Error(); !strings.Contains(got, c.want) {
			t.Errorf("Read(%q) = %q; want %q", c.text, got, c.want)
		}
	}
}

// FuzzRead holds the reader to the YAML library on every input it accepts.
func FuzzRead(f *testing.F) {
	for _, text := range frontmatters {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if strings.Contains(text, "\n---") || strings.HasPrefix(text, "---") {
			return // not one frontmatter
		}
		src := []byte("---\n" + text + "\n---\n")
		fm, p := skillfile.Split(src)
		if p != nil {
			return
		}
		same(t, string(fm.Text), false)
	})
}
