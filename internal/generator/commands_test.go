package generator

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoc runs -doc: Markdown on stdout, nothing written.
func TestDoc(t *testing.T) {
	t.Parallel()
	dir := miniModule(t, map[string]string{"a.go": toolSource})
	code, stdout, stderr := runMain(t, dir, "-doc")
	want := "## Tools\n\n### `double`\n\nDoubles a number.\n\nHints: read-only, open world (default).\n\n" +
		"Task support: forbidden (default).\n\nArguments:\n\n" +
		"| argument | type | required | constraints | description |\n|---|---|---|---|---|\n" +
		"| `n` | integer | yes |  | A number |\n"
	if code != ExitOK || stderr != "" || stdout != want {
		t.Errorf("-doc: exit %d, stderr %q, stdout:\n%s\nwant:\n%s", code, stderr, stdout, want)
	}
	if _, err := os.Stat(filepath.Join(dir, DefaultOutput)); err == nil {
		t.Error("-doc wrote a file")
	}
}

// TestTaskSupport checks that -list, -doc and -diff show how a tool runs
// as a task, though the latest revision publishes no per-tool task
// support: a tool that must now run as a task breaks its clients.
func TestTaskSupport(t *testing.T) {
	t.Parallel()
	optional := strings.Replace(toolSource, "//mcp:tool readonly", "//mcp:tool readonly task=optional", 1)
	dir := miniModule(t, map[string]string{"a.go": optional})
	_, list, _ := runMain(t, dir, "-list")
	if !strings.Contains(list, `"execution": {`+"\n"+`        "taskSupport": "optional"`) {
		t.Errorf("-list does not show the task support:\n%s", list)
	}
	writeFile(t, filepath.Join(dir, "old.json"), list)
	if _, md, _ := runMain(t, dir, "-doc"); !strings.Contains(md, "\n\nTask support: optional.\n\n") {
		t.Errorf("-doc does not say the task support:\n%s", md)
	}
	writeFile(t, filepath.Join(dir, "a.go"), strings.Replace(optional, "task=optional", "task=required", 1))
	wantRun(t, dir, []string{"-diff", "old.json"}, ExitFail,
		"breaking: tool double: must now run as a task (taskSupport required, was optional)\n", "")
	if _, md, _ := runMain(t, dir, "-doc"); !strings.Contains(md, "\n\nTask support: required.\n\n") {
		t.Errorf("-doc does not say the task support:\n%s", md)
	}
	writeFile(t, filepath.Join(dir, "a.go"), toolSource)
	wantRun(t, dir, []string{"-diff", "old.json"}, ExitFail,
		"breaking: tool double: can no longer run as a task (taskSupport forbidden, was optional)\n", "")
}

// TestDocHints checks that -doc says every hint a client reads, the
// specification's defaults marked, and leaves out what means nothing for
// a read-only tool.
func TestDocHints(t *testing.T) {
	t.Parallel()
	for directive, want := range map[string]string{
		"//mcp:tool": "Hints: not read-only (default), destructive (default), not idempotent (default), open world (default).",
		"//mcp:tool destructive=false idempotent":  "Hints: not read-only (default), not destructive, idempotent, open world (default).",
		"//mcp:tool readonly openworld=false":      "Hints: read-only, closed world.",
		"//mcp:tool readonly idempotent openworld": "Hints: read-only, idempotent, open world.",
	} {
		dir := miniModule(t, map[string]string{"a.go": strings.Replace(toolSource, "//mcp:tool readonly", directive, 1)})
		if _, md, stderr := runMain(t, dir, "-doc"); !strings.Contains(md, "\n\n"+want+"\n\n") {
			t.Errorf("%s: -doc lacks %q:\n%s%s", directive, want, md, stderr)
		}
	}
}

// TestOneMode checks that the flags asking for an output other than
// generated files exclude each other.
func TestOneMode(t *testing.T) {
	t.Parallel()
	code, _, stderr := runMain(t, t.TempDir(), "-list", "-doc")
	if code != ExitUsage || !strings.Contains(stderr, "-list and -doc: give one of them") {
		t.Errorf("-list -doc: exit %d, stderr %q", code, stderr)
	}
}

// TestDiff saves a -list, changes the package, and checks what -diff
// says of each change and its exit status.
func TestDiff(t *testing.T) {
	t.Parallel()
	dir := miniModule(t, map[string]string{"a.go": toolSource})
	_, list, _ := runMain(t, dir, "-list")
	writeFile(t, filepath.Join(dir, "old.json"), list)
	wantRun(t, dir, []string{"-diff", "old.json"}, ExitOK, "", "")

	compatible := strings.Replace(toolSource, "// A number\n}", "// A number\n\tM *int `json:\"m\"` // Another number\n}", 1)
	writeFile(t, filepath.Join(dir, "a.go"), compatible)
	wantRun(t, dir, []string{"-diff", filepath.Join(dir, "old.json")}, ExitOK, "compatible: tool double: argument m: added\n", "")

	breaking := strings.Replace(toolSource, "int `json:\"n\"`", "int `json:\"n\" mcp:\"max=9\"`", 1)
	breaking = strings.Replace(breaking, "//mcp:tool readonly", "//mcp:tool", 1)
	writeFile(t, filepath.Join(dir, "a.go"), breaking)
	wantRun(t, dir, []string{"-diff", "old.json"}, ExitFail, "breaking: tool double: argument n: upper bound <= 9 added\n"+
		"breaking: tool double: no longer read-only\nbreaking: tool double: now destructive\n", "")

	code, stdout, stderr := runMain(t, dir, "-diff", "missing.json")
	if code != ExitFail || stdout != "" || !strings.HasPrefix(stderr, "mcpgen: -diff: ") {
		t.Errorf("-diff missing.json: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	writeFile(t, filepath.Join(dir, "bad.json"), "[]")
	if code, _, stderr := runMain(t, dir, "-diff", "bad.json"); code != ExitFail || !strings.Contains(stderr, "not the output of mcpgen -list") {
		t.Errorf("-diff bad.json: exit %d, stderr %q", code, stderr)
	}
}

// lintSource has a tool whose input holds a nested list of objects, a
// recursive type and a map, and a tool whose name no provider takes.
const lintSource = `package x

import "context"

// Node is a tree.
type Node struct {
	Name     string  ` + "`json:\"name\"`" + `               // Name of the node
	Children []*Node ` + "`json:\"children,omitempty\"`" + ` // Nodes below
}

// Change is one change.
type Change struct {
	Price float64 ` + "`json:\"price\" mcp:\"min=0\"`" + ` // New price
}

// In is the input.
type In struct {
	Changes []Change          ` + "`json:\"changes\"`" + `       // Changes to make
	Tree    Node              ` + "`json:\"tree\"`" + `          // A tree
	Meta    map[string]string ` + "`json:\"meta\"`" + `          // Labels
	Limit   int               ` + "`json:\"limit\" mcp:\"default=5\"`" + ` // How many
}

// Apply applies changes.
//
//mcp:tool destructive=false
func Apply(ctx context.Context, in In) error { return nil }

// Ping answers.
//
//mcp:tool readonly name=kb.ping
func Ping() string { return "pong" }
`

// TestLint runs -lint on one profile at a time and checks that each
// finding is a warning at the Go field it is about, that the report says
// which profiles accept each tool, and the exit status.
func TestLint(t *testing.T) {
	t.Parallel()
	dir := miniModule(t, map[string]string{"a.go": lintSource})
	wantRun(t, dir, []string{"-lint=anthropic"}, ExitOK,
		"tool     anthropic\napply    accepts\nkb.ping  rejects (1)\n",
		"a.go:31:1: warning: tool kb.ping: anthropic: tool name \"kb.ping\": tool names are 1 to 64 of a-z A-Z 0-9 _ -; rename it with name= (nolint=anthropic:name)\n")
	wantRun(t, dir, []string{"-lint=anthropic", "-strict"}, ExitFail,
		"tool     anthropic\napply    accepts\nkb.ping  rejects (1)\n",
		"a.go:31:1: tool kb.ping: anthropic: tool name \"kb.ping\": tool names are 1 to 64 of a-z A-Z 0-9 _ -; rename it with name= (nolint=anthropic:name)\n")
	code, stdout, stderr := runMain(t, dir, "-lint=anthropic-strict")
	for _, want := range []string{
		"a.go:8:2: warning: tool apply, argument $defs.Node.children(anyOf 0)[](anyOf 0): anthropic-strict: recursive schema",
		"a.go:19:2: warning: tool apply, argument tree: anthropic-strict: recursive schema",
		"a.go:13:2: warning: tool apply, argument changes[].price: anthropic-strict: minimum is not supported",
		"a.go:20:2: warning: tool apply, argument meta: anthropic-strict: a map",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("-lint=anthropic-strict lacks %q:\n%s", want, stderr)
		}
	}
	if code != ExitOK || !strings.HasPrefix(stdout, "tool     anthropic-strict\napply    rejects (") {
		t.Errorf("-lint=anthropic-strict: exit %d, stdout %q", code, stdout)
	}
	for arg, want := range map[string]string{
		"-lint=opneai":          `mcpgen: -lint=opneai: unknown profile "opneai" (valid: openai-strict, gemini, anthropic, anthropic-strict)` + "\n",
		"-lint=openai":          `mcpgen: -lint=openai: unknown profile "openai"; did you mean "openai-strict"? (valid: openai-strict, gemini, anthropic, anthropic-strict)` + "\n",
		"-lint=gemini,antropic": `mcpgen: -lint=gemini,antropic: unknown profile "antropic"; did you mean "anthropic"? (valid: openai-strict, gemini, anthropic, anthropic-strict)` + "\n",
		"-lint=gemini-strict":   `mcpgen: -lint=gemini-strict: unknown profile "gemini-strict"; did you mean "gemini"? (valid: openai-strict, gemini, anthropic, anthropic-strict)` + "\n",
	} {
		if code, _, stderr := runMain(t, dir, arg); code != ExitUsage || stderr != want {
			t.Errorf("%s: exit %d, stderr %q; want exit %d, stderr %q", arg, code, stderr, ExitUsage, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, DefaultOutput)); err == nil {
		t.Error("-lint wrote a file")
	}
}

// TestLintGrouped checks that a finding at a field several tools share
// is one warning naming them, and that the report still counts it for
// each tool.
func TestLintGrouped(t *testing.T) {
	t.Parallel()
	// Tags are written with ' for the backquote.
	var src strings.Builder
	src.WriteString("package a\n\nimport \"context\"\n\n// Page selects results.\ntype Page struct {\n" +
		"\tLimit int 'json:\"limit\" mcp:\"max=50\"' // Most results\n}\n")
	for _, name := range []string{"A", "B", "C", "D"} {
		fmt.Fprintf(&src, "\n// In%[1]s is the input.\ntype In%[1]s struct {\n\tPage Page 'json:\"page\"' // Which results\n}\n"+
			"\n// %[1]s finds.\n//\n//mcp:tool readonly\nfunc %[1]s(ctx context.Context, in In%[1]s) error { return nil }\n", name)
	}
	src.WriteString("\n// InE names it otherwise.\ntype InE struct {\n\tPaging Page 'json:\"paging\"' // Which results\n}\n" +
		"\n// E finds.\n//\n//mcp:tool readonly\nfunc E(ctx context.Context, in InE) error { return nil }\n")
	all := strings.ReplaceAll(src.String(), "'", "`")
	dir := miniModule(t, map[string]string{"a.go": all})
	finding := ": anthropic-strict: maximum is not supported in strict mode; the constraint is still checked by the server, " +
		"so say it in the description (nolint=anthropic-strict:maximum)\n"
	wantRun(t, dir, []string{"-lint=anthropic-strict"}, ExitOK,
		"tool  anthropic-strict\na     rejects (1)\nb     rejects (1)\nc     rejects (1)\nd     rejects (1)\ne     rejects (1)\n",
		"a.go:7:2: warning: 4 tools (a, b, c and 1 more), argument page.limit; tool e, argument paging.limit"+finding)
	two := all
	for _, f := range []string{"C", "D", "E"} {
		two = strings.Replace(two, "//mcp:tool readonly\nfunc "+f+"(", "func "+f+"(", 1)
	}
	writeFile(t, filepath.Join(dir, "a.go"), two)
	wantRun(t, dir, []string{"-lint=anthropic-strict"}, ExitOK, "tool  anthropic-strict\na     rejects (1)\nb     rejects (1)\n",
		"a.go:7:2: warning: tools a and b, argument page.limit"+finding)
}

// TestLintNolint checks that nolint= in a field's tag silences the rules
// it names at that field, and in the directive those at the tool, and
// nothing else; and that a rule of no profile is an error at the key.
func TestLintNolint(t *testing.T) {
	t.Parallel()
	src := `package a

import "context"

// In is the input.
type In struct {
	Limit int    ` + "`json:\"limit\" mcp:\"min=1,max=9,nolint=anthropic-strict:maximum\"`" + ` // Most results
	Query string ` + "`json:\"query\" mcp:\"maxLength=9\"`" + `                              // Words
}

// Find finds.
//
//mcp:tool readonly name=kb.find nolint=anthropic-strict:name
func Find(ctx context.Context, in In) error { return nil }
`
	dir := miniModule(t, map[string]string{"a.go": src})
	wantRun(t, dir, []string{"-lint=anthropic-strict"}, ExitOK, "tool     anthropic-strict\nkb.find  rejects (2)\n",
		"a.go:7:2: warning: tool kb.find, argument limit: anthropic-strict: minimum is not supported in strict mode; "+
			"the constraint is still checked by the server, so say it in the description (nolint=anthropic-strict:minimum)\n"+
			"a.go:8:2: warning: tool kb.find, argument query: anthropic-strict: maxLength is not supported in strict mode; "+
			"the constraint is still checked by the server, so say it in the description (nolint=anthropic-strict:maxLength)\n")
	// The directive's nolint= is the tool's alone: anthropic's name rule
	// still speaks.
	_, _, stderr := runMain(t, dir, "-lint=anthropic")
	if !strings.Contains(stderr, "a.go:13:1: warning: tool kb.find: anthropic: tool name") {
		t.Errorf("-lint=anthropic lacks the name finding:\n%s", stderr)
	}
	bad := strings.Replace(src, "nolint=anthropic-strict:maximum", "nolint=antropic-strict:maximum|minimum", 1)
	writeFile(t, filepath.Join(dir, "a.go"), bad)
	wantRun(t, dir, []string{"-lint"}, ExitFail, "",
		"a.go:7:46: nolint rule \"antropic-strict:maximum\": unknown profile \"antropic-strict\"; did you mean \"anthropic-strict\"? (valid: openai-strict, gemini, anthropic, anthropic-strict, hints)\n"+
			"a.go:7:46: nolint rule \"minimum\": want PROFILE:KEYWORD, as a -lint warning ends, such as anthropic-strict:minimum\n")
}

// TestLintDestructive checks the warning at a tool that is not read-only
// and does not say whether it is destructive, which clients then take it
// for, and that saying it either way, or nolint=, silences it.
func TestLintDestructive(t *testing.T) {
	t.Parallel()
	warning := "a.go:12:1: warning: tool double: not read-only and says nothing of destructive, so every client takes it for destructive, " +
		"the specification's default: write destructive=false if it only adds, or destructive if it may delete or overwrite (nolint=hints:destructive)\n"
	for directive, want := range map[string]string{
		"//mcp:tool":                           warning,
		"//mcp:tool readonly=false idempotent": warning,
		"//mcp:tool readonly":                  "",
		"//mcp:tool destructive":               "",
		"//mcp:tool destructive=false":         "",
		"//mcp:tool nolint=hints:destructive":  "",
		"//mcp:tool nolint=anthropic:name":     warning,
	} {
		dir := miniModule(t, map[string]string{"a.go": strings.Replace(toolSource, "//mcp:tool readonly", directive, 1)})
		wantRun(t, dir, []string{"-lint=anthropic"}, ExitOK, "tool    anthropic\ndouble  accepts\n", want)
	}
	dir := miniModule(t, map[string]string{"a.go": strings.Replace(toolSource, "//mcp:tool readonly", "//mcp:tool", 1)})
	wantRun(t, dir, []string{"-lint=anthropic", "-strict"}, ExitFail, "tool    anthropic\ndouble  accepts\n", strings.Replace(warning, "warning: ", "", 1))
	writeFile(t, filepath.Join(dir, "a.go"), strings.Replace(toolSource, "//mcp:tool readonly", "//mcp:tool nolint=hints:readonly", 1))
	wantRun(t, dir, []string{"-lint"}, ExitFail, "", "a.go:12:12: nolint rule \"hints:readonly\": the hints rule is hints:destructive\n")
}

// TestPortableFlag generates with -portable: the published schema moves
// the default into the description; -check needs -portable too; and -lint
// no longer finds the default.
func TestPortableFlag(t *testing.T) {
	t.Parallel()
	dir := miniModule(t, map[string]string{"a.go": lintSource})
	_, list, _ := runMain(t, dir, "-list", "-portable")
	if !strings.Contains(list, `"description": "How many (default: 5)"`) || strings.Contains(list, `"default"`) {
		t.Errorf("-portable -list:\n%s", list)
	}
	wantRun(t, dir, []string{"-portable"}, ExitOK, "", "")
	wantRun(t, dir, []string{"-portable", "-check"}, ExitOK, "", "")
	wantRun(t, dir, []string{"-check"}, ExitFail, "", "mcp_gen.go: out of date: rerun go generate\n")
	_, _, stderr := runMain(t, dir, "-portable", "-lint=openai-strict")
	if strings.Contains(stderr, "default") {
		t.Errorf("-portable -lint still finds the default:\n%s", stderr)
	}
}

// TestLintGeminiClosed checks that Gemini's refusal of the closed objects
// mcpgen writes everywhere is one warning for the run, at the first tool,
// counted in no tool's line and left a warning under -strict, while a
// map, which the author can change, is still a finding at its field.
func TestLintGeminiClosed(t *testing.T) {
	t.Parallel()
	dir := miniModule(t, map[string]string{"a.go": `package a

import "context"

// Item is one item.
type Item struct {
	Name string ` + "`json:\"name\"`" + ` // The name
}

// In has a nested object.
type In struct {
	Item Item ` + "`json:\"item\"`" + ` // The item
}

// First takes an item.
//
//mcp:tool destructive=false
func First(ctx context.Context, in In) error { return nil }

// Second takes an item too.
//
//mcp:tool destructive=false
func Second(ctx context.Context, in In) error { return nil }

// Labels takes a map.
//
//mcp:tool destructive=false
//mcp:param labels description="Labels"
func Labels(ctx context.Context, labels map[string]string) error { return nil }
`})
	note := "a.go:17:1: warning: gemini: the input schemas of 3 tools close their objects with additionalProperties: false, " +
		"which Gemini's parameters field refuses; mcpgen writes it on every object, since openai-strict and anthropic-strict need it, " +
		"so a Gemini client must send the schema as parametersJsonSchema or drop the keyword (said once, in no tool's count, and no error under -strict)\n"
	report := "tool    gemini\nfirst   accepts\nsecond  accepts\nlabels  rejects (1)\n"
	mapFinding := "a.go:29:34: warning: tool labels, argument labels: gemini: additionalProperties is not a field of Gemini's Schema, which refuses unknown fields" +
		"; a map cannot be expressed, use a list of key-value objects (nolint=gemini:additionalProperties)\n"
	wantRun(t, dir, []string{"-lint=gemini"}, ExitOK, report, note+mapFinding)
	wantRun(t, dir, []string{"-lint=gemini", "-strict"}, ExitFail, report, note+strings.Replace(mapFinding, "warning: ", "", 1))
}
