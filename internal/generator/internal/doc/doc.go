// Package doc writes Markdown reference documentation of what an MCP
// server serves: every tool with its arguments, their types and
// constraints, its result and its hints; every prompt with its arguments;
// every resource and resource template; every skill with its files. It
// reads the JSON that mcpgen -list prints, so the documentation describes
// exactly what clients are sent.
//
// Headings start at level 2 (## Tools), so that the text can go under a
// heading of a README or a page of a documentation site.
package doc

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/internal/generator/internal/jsonv"
)

// Markdown returns the documentation of list, the output of mcpgen -list.
func Markdown(list []byte) ([]byte, error) {
	v, err := jsonv.Parse(list)
	if err != nil {
		return nil, fmt.Errorf("reading the list: %w", err)
	}
	root, ok := v.(jsonv.Object)
	if !ok {
		return nil, fmt.Errorf("reading the list: not a JSON object")
	}
	var w writer
	w.section("Tools", root.Array("tools"), w.tool)
	w.section("Prompts", root.Array("prompts"), w.prompt)
	w.section("Resources", root.Array("resources"), w.resource)
	w.section("Resource templates", root.Array("resourceTemplates"), w.resource)
	w.section("Skills", root.Array("skills"), w.skill)
	w.section("Groups", root.Array("groups"), w.group)
	if w.Len() == 0 {
		w.WriteString("This server serves no tools, prompts, resources or skills.\n")
	}
	return bytes.TrimSuffix(w.Bytes(), []byte("\n")), nil
}

// writer accumulates the document; a blank line ends each block.
type writer struct{ bytes.Buffer }

// section writes a level-2 heading and one entry an item, when there are
// items.
func (w *writer) section(title string, items []any, entry func(jsonv.Object)) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(w, "## %s\n\n", title)
	for _, it := range items {
		if obj, ok := it.(jsonv.Object); ok {
			entry(obj)
		}
	}
}

// heading writes an entry's level-3 heading: its name or URI in code, and
// its title when it has one.
func (w *writer) heading(id, title string) {
	if title != "" {
		fmt.Fprintf(w, "### %s: %s\n\n", code(id), inline(title))
		return
	}
	fmt.Fprintf(w, "### %s\n\n", code(id))
}

// paragraph writes text as a paragraph, when there is any.
func (w *writer) paragraph(text string) {
	if text = strings.TrimSpace(text); text != "" {
		w.WriteString(text + "\n\n")
	}
}

// tool documents one tool: description, hints, task support, arguments
// and result.
func (w *writer) tool(t jsonv.Object) {
	w.heading(t.String("name"), t.String("title"))
	w.paragraph(t.String("description"))
	ann, _ := t.Object("annotations")
	w.paragraph(hints(ann))
	w.paragraph(taskSupport(t))
	w.scopes(t)
	w.groups(t)
	in, _ := t.Object("inputSchema")
	w.schemaTable("Arguments", "argument", in, true)
	if out, ok := t.Object("outputSchema"); ok {
		w.schemaTable("Structured result", "field", out, false)
	}
}

// hintWords are the behaviour hints with the value the specification
// gives each when a tool does not publish it, and how each is said.
var hintWords = []struct {
	key, yes, no string
	absent       bool
}{
	{"readOnlyHint", "read-only", "not read-only", false},
	{"destructiveHint", "destructive", "not destructive", true},
	{"idempotentHint", "idempotent", "not idempotent", false},
	{"openWorldHint", "open world", "closed world", true},
}

// hints says, in words, the behaviour hints a client reads in ann: each
// as published, or the specification's default marked "(default)".
// destructiveHint and idempotentHint mean nothing for a read-only tool,
// so they are said for one only when published.
func hints(ann jsonv.Object) string {
	readOnly, _ := ann.Get("readOnlyHint")
	var said []string
	for _, h := range hintWords {
		v, ok := ann.Get(h.key)
		b, _ := v.(bool)
		switch {
		case ok && b:
			said = append(said, h.yes)
		case ok:
			said = append(said, h.no)
		case readOnly == true && (h.key == "destructiveHint" || h.key == "idempotentHint"):
		case h.absent:
			said = append(said, h.yes+" (default)")
		default:
			said = append(said, h.no+" (default)")
		}
	}
	return "Hints: " + strings.Join(said, ", ") + "."
}

// taskSupport says whether a client may or must run the tool as a task,
// from execution.taskSupport; forbidden, the default, when absent.
func taskSupport(t jsonv.Object) string {
	exec, _ := t.Object("execution")
	if s := exec.String("taskSupport"); s != "" {
		return "Task support: " + s + "."
	}
	return "Task support: forbidden (default)."
}

// prompt documents one prompt and its arguments, which are all strings.
func (w *writer) prompt(p jsonv.Object) {
	w.heading(p.String("name"), p.String("title"))
	w.paragraph(p.String("description"))
	w.scopes(p)
	w.groups(p)
	args := p.Array("arguments")
	if len(args) == 0 {
		w.paragraph("No arguments.")
		return
	}
	w.WriteString("Arguments, each a string:\n\n| argument | required | description |\n|---|---|---|\n")
	for _, a := range args {
		arg, _ := a.(jsonv.Object)
		desc := arg.String("description")
		if t := arg.String("title"); t != "" {
			desc = strings.TrimSpace(t + ". " + desc)
		}
		fmt.Fprintf(w, "| %s | %s | %s |\n", cell(code(arg.String("name"))), yesNo(arg.Get("required")), cell(desc))
	}
	w.WriteString("\n")
}

// resource documents one resource or resource template.
func (w *writer) resource(r jsonv.Object) {
	uri := r.String("uri")
	if uri == "" {
		uri = r.String("uriTemplate")
	}
	w.heading(uri, r.String("title"))
	w.paragraph(r.String("description"))
	facts := []string{"Name " + code(r.String("name"))}
	if m := r.String("mimeType"); m != "" {
		facts = append(facts, "MIME type "+code(m))
	}
	if s, ok := r.Get("size"); ok {
		facts = append(facts, jsonv.Text(s)+" bytes")
	}
	if ann, ok := r.Object("annotations"); ok {
		if aud := ann.Strings("audience"); len(aud) > 0 {
			facts = append(facts, "for the "+strings.Join(aud, " and the "))
		}
		if p, ok := ann.Get("priority"); ok {
			facts = append(facts, "priority "+jsonv.Text(p))
		}
	}
	w.paragraph(strings.Join(facts, ", ") + ".")
	w.scopes(r)
	w.groups(r)
}

// skill documents one Agent Skill: its name and description, and its
// files with their sizes.
func (w *writer) skill(s jsonv.Object) {
	uri := s.String("uri")
	fm, _ := s.Object("frontmatter")
	w.heading(fm.String("name"), "")
	w.paragraph(fm.String("description"))
	root := strings.TrimSuffix(uri, "SKILL.md")
	var files []string
	for _, r := range s.Array("resources") {
		if f, ok := r.(jsonv.Object); ok {
			size, _ := f.Get("size")
			files = append(files, code(strings.TrimPrefix(f.String("uri"), root))+" ("+jsonv.Text(size)+" bytes)")
		}
	}
	w.paragraph("URI " + code(uri) + ". Files: " + strings.Join(files, ", ") + ".")
	w.scopes(s)
}

// scopes says which OAuth scopes an entry needs, from the _meta member
// "mcpgen/scopes" that mcpgen -list adds; nothing when it needs none.
func (w *writer) scopes(entry jsonv.Object) {
	meta, _ := entry.Object("_meta")
	list := meta.Strings("mcpgen/scopes")
	if len(list) == 0 {
		return
	}
	for i, s := range list {
		list[i] = code(s)
	}
	w.paragraph("Scopes needed on an authorized server: " + strings.Join(list, ", ") + ".")
}

// groups says which groups (SEP-2084) an entry belongs to, from its
// _meta, when any.
func (w *writer) groups(entry jsonv.Object) {
	meta, _ := entry.Object("_meta")
	list := meta.Strings("io.modelcontextprotocol/groups")
	if len(list) == 0 {
		return
	}
	for i, g := range list {
		list[i] = code(g)
	}
	w.paragraph("Groups: " + strings.Join(list, ", ") + ".")
}

// group documents one group: its description and the groups it belongs
// to.
func (w *writer) group(g jsonv.Object) {
	w.heading(g.String("name"), g.String("title"))
	w.paragraph(g.String("description"))
	w.groups(g)
}

func yesNo(v any, ok bool) string {
	if ok && v == true {
		return "yes"
	}
	return "no"
}

// code writes s as a code span that may hold backticks. In a table, pass
// the whole cell through cell, which escapes pipes even in code spans, as
// GitHub's tables want.
func code(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// cell makes text fit one cell of a table: pipes escaped, lines joined
// with <br>.
func cell(s string) string {
	s = strings.ReplaceAll(strings.TrimSpace(s), "|", `\|`)
	return strings.ReplaceAll(s, "\n", "<br>")
}

// inline makes text fit a heading: one line.
func inline(s string) string { return strings.Join(strings.Fields(s), " ") }
