package build

import (
	"bytes"
	"fmt"
	"go/format"
	"slices"
	"strings"
)

// This file writes tools.go of package catalog: 500 annotated tools over
// the API surfaces of surfaces.go.

// Want is how many tools the catalog has; Tools fails on any other count,
// so that the benchmarks' figures stay comparable.
const Want = 500

// resource is one kind of thing an API serves, with the operations on it.
type resource struct {
	dom       string   // area, the tool names' prefix and the tools' group
	one, many string   // singular and plural, snake_case
	what      string   // what one is, a phrase for descriptions
	in        string   // where they live, a phrase for descriptions
	parent    []string // fields naming where it lives, given to every operation
	id        string   // the field naming one; default "ONE_id:s:ID of the ONE"
	fields    []string // the fields of create, and optional ones of update
	filters   []string // the filters of list
	ops       string   // which of l(ist) c(reate) g(et) u(pdate) d(elete)
	acts      []act
}

// act is an operation beyond the five.
type act struct {
	name   string // tool name without the area
	desc   string
	hints  string   // "ro" readonly idempotent, "idem" idempotent, "destr" destructive
	fields []string // its own fields
	noID   bool     // it takes no ID of the resource
}

// field is one parsed field.
type field struct {
	name, typ, desc string
	required        bool
	enum            []string
}

func parseField(s string) field {
	parts := strings.SplitN(s, ":", 3)
	if len(parts) != 3 {
		panic(fmt.Sprintf("bad field %q", s))
	}
	f := field{name: parts[0], typ: parts[1], desc: parts[2]}
	if strings.HasPrefix(f.name, "!") {
		f.name, f.required = f.name[1:], true
	}
	if v, ok := strings.CutPrefix(f.typ, "e="); ok {
		f.typ, f.enum = "e", strings.Split(v, "|")
	}
	return f
}

// tool is one tool to write.
type tool struct {
	goName, title, desc, hints, group string
	r                                 *resource
	fields                            []field
}

// Tools returns the source of tools.go. A mistake in the table of
// surfaces.go is an error naming it.
func Tools() (src []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("surfaces.go: %v", r)
		}
	}()
	var tools []tool
	for _, r := range surfaces {
		tools = append(tools, r.tools()...)
	}
	seen := map[string]bool{}
	for _, t := range tools {
		if seen[t.goName] {
			return nil, fmt.Errorf("surfaces.go: two tools are named %s", t.goName)
		}
		seen[t.goName] = true
	}
	if len(tools) != Want {
		return nil, fmt.Errorf("surfaces.go: %d tools, want %d", len(tools), Want)
	}
	return format.Source(source(tools))
}

// tools returns the tools of r: its operations, then its actions.
func (r *resource) tools() []tool {
	var out []tool
	add := func(name, desc, hints string, fs []field) {
		out = append(out, tool{goName: camel(r.dom + "_" + name), title: humanize(name), desc: desc, hints: hints, group: r.dom, r: r, fields: dedupe(fs)})
	}
	parents, required := r.parentFields()
	id := r.idField()
	v := variant(r.one)
	for _, op := range r.ops {
		switch op {
		case 'l':
			fs := append(slices.Clone(parents), r.parsed(r.filters, false)...)
			fs = append(fs, field{name: "page_size", typ: "page", desc: "Items per page, at most 100"},
				field{name: "page_token", typ: "s", desc: "Token of the page to fetch, from next_page_token"})
			add("list_"+r.many, r.listDesc(v), "ro", fs)
		case 'c':
			add("create_"+r.one, r.createDesc(v), "", append(slices.Clone(parents), r.parsed(r.fields, true)...))
		case 'g':
			add("get_"+r.one, r.getDesc(v), "ro", append(slices.Clone(required), id))
		case 'u':
			add("update_"+r.one, r.updateDesc(v), "idem", append(append(slices.Clone(required), id), r.parsed(r.fields, false)...))
		case 'd':
			add("delete_"+r.one, r.deleteDesc(v), "destr", append(slices.Clone(required), id))
		default:
			panic(fmt.Sprintf("%s %s: bad op %q", r.dom, r.one, op))
		}
	}
	for _, a := range r.acts {
		var fs []field
		if !a.noID {
			fs = append(slices.Clone(required), id)
		}
		add(a.name, a.desc, a.hints, append(fs, r.parsed(a.fields, true)...))
	}
	return out
}

// parentFields returns the parent fields, and those of them required.
func (r *resource) parentFields() (all, required []field) {
	for _, s := range r.parent {
		f := parseField(s)
		all = append(all, f)
		if f.required {
			required = append(required, f)
		}
	}
	return all, required
}

func (r *resource) idField() field {
	if r.id == "" {
		return field{name: r.one + "_id", typ: "s", desc: "ID of the " + words(r.one), required: true}
	}
	f := parseField(r.id)
	f.required = true
	return f
}

// parsed parses fs; keep false makes every field optional.
func (r *resource) parsed(fs []string, keep bool) []field {
	out := make([]field, 0, len(fs))
	for _, s := range fs {
		f := parseField(s)
		f.required = f.required && keep
		out = append(out, f)
	}
	return out
}

// dedupe drops a field whose name an earlier one has.
func dedupe(fs []field) []field {
	var out []field
	for _, f := range fs {
		if !slices.ContainsFunc(out, func(g field) bool { return g.name == f.name }) {
			out = append(out, f)
		}
	}
	return out
}

// variant picks one of three phrasings for a resource, so that the
// descriptions of the five operations differ between resources as they
// do between real APIs.
func variant(s string) int {
	h := 0
	for _, c := range s {
		h = h*31 + int(c)
	}
	return h % 3
}

func (r *resource) listDesc(v int) string {
	filters := ""
	if len(r.filters) > 0 {
		var names []string
		for _, s := range r.filters {
			names = append(names, words(parseField(s).name))
		}
		filters = " Filter by " + join(names) + "."
	}
	switch v {
	case 0:
		return fmt.Sprintf("Lists the %s %s; each is %s.%s Results come a page at a time; pass next_page_token back for the next page.", words(r.many), r.in, r.what, filters)
	case 1:
		return fmt.Sprintf("Returns a page of %s %s, newest first.%s", words(r.many), r.in, filters)
	}
	return fmt.Sprintf("Finds %s %s (%s).%s Use it to look one up when you do not know its ID.", words(r.many), r.in, r.what, filters)
}

func (r *resource) getDesc(v int) string {
	switch v {
	case 0:
		return fmt.Sprintf("Gets one %s by ID, with all its fields.", words(r.one))
	case 1:
		return fmt.Sprintf("Returns the details of %s: %s.", an(words(r.one)), r.what)
	}
	return fmt.Sprintf("Fetches a single %s (%s) by its ID.", words(r.one), r.what)
}

func (r *resource) createDesc(v int) string {
	switch v {
	case 0:
		return fmt.Sprintf("Creates %s %s. Returns the new %s with its ID.", an(words(r.one)), r.in, words(r.one))
	case 1:
		return fmt.Sprintf("Creates %s, %s.", r.what, r.in)
	}
	return fmt.Sprintf("Adds a new %s (%s) %s.", an(words(r.one)), r.what, r.in)
}

func (r *resource) updateDesc(v int) string {
	switch v {
	case 0:
		return fmt.Sprintf("Updates %s. Only the fields given change; the others keep their values.", an(words(r.one)))
	case 1:
		return fmt.Sprintf("Changes the settings of an existing %s, such as its %s.", words(r.one), r.fieldWords())
	}
	return fmt.Sprintf("Edits %s in place: give the ID and the fields to change.", an(words(r.one)))
}

func (r *resource) deleteDesc(v int) string {
	switch v {
	case 0:
		return fmt.Sprintf("Deletes %s for good. This cannot be undone.", an(words(r.one)))
	case 1:
		return fmt.Sprintf("Removes %s %s.", an(words(r.one)), r.in)
	}
	return fmt.Sprintf("Deletes %s by ID; anything that depends on it may stop working.", an(words(r.one)))
}

// fieldWords names the first two fields of r.
func (r *resource) fieldWords() string {
	var names []string
	for _, s := range r.fields[:min(2, len(r.fields))] {
		names = append(names, words(parseField(s).name))
	}
	return join(names)
}

// an puts "a" or "an" before w.
func an(w string) string {
	if strings.ContainsRune("aeiou", rune(w[0])) {
		return "an " + w
	}
	return "a " + w
}

func join(ws []string) string {
	switch len(ws) {
	case 0:
		return ""
	case 1:
		return ws[0]
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " or " + ws[len(ws)-1]
}

func words(snake string) string { return strings.ReplaceAll(snake, "_", " ") }

func humanize(snake string) string {
	w := words(snake)
	return strings.ToUpper(w[:1]) + w[1:]
}

func camel(snake string) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(snake, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

// source writes the package: the enum types, then each tool's input type
// and function.
func source(tools []tool) []byte {
	var b bytes.Buffer
	b.WriteString("// Code generated by gen. DO NOT EDIT.\n\npackage catalog\n\nimport \"context\"\n\n")
	enums := map[string][]string{}
	var enumOrder []string
	enumType := func(t tool, f field) string {
		name := camel(t.group + "_" + t.r.one + "_" + f.name)
		for i := 2; ; i++ {
			vs, ok := enums[name]
			if !ok {
				enums[name] = f.enum
				enumOrder = append(enumOrder, name)
				return name
			}
			if slices.Equal(vs, f.enum) {
				return name
			}
			name = camel(t.group+"_"+t.r.one+"_"+f.name) + fmt.Sprint(i)
		}
	}
	var body bytes.Buffer
	for _, t := range tools {
		fmt.Fprintf(&body, "// %sInput is the input of %s.\ntype %sInput struct {\n", t.goName, t.goName, t.goName)
		for _, f := range t.fields {
			typ := map[string]string{"s": "string", "i": "int", "f": "float64", "b": "bool", "ss": "[]string", "page": "int"}[f.typ]
			if f.typ == "e" {
				typ = enumType(t, f)
			}
			if typ == "" {
				panic(fmt.Sprintf("%s: field %s: bad type %q", t.goName, f.name, f.typ))
			}
			tag := f.name
			if !f.required {
				tag += ",omitempty"
			}
			mcp := ""
			if f.typ == "page" {
				mcp = ` mcp:"min=1,max=100"`
			}
			fmt.Fprintf(&body, "\t%s %s `json:%q%s` // %s\n", camel(f.name), typ, tag, mcp, f.desc)
		}
		body.WriteString("}\n\n")
		keys := []string{fmt.Sprintf("title=%q", t.title), "group=" + t.group}
		switch t.hints {
		case "ro":
			keys = append(keys, "readonly", "idempotent")
		case "idem":
			keys = append(keys, "idempotent")
		case "destr":
			keys = append(keys, "destructive")
		}
		fmt.Fprintf(&body, "// %s %s\n//\n//mcp:tool %s\nfunc %s(ctx context.Context, in %sInput) (string, error) {\n\treturn %q, nil\n}\n\n",
			t.goName, lowerFirst(t.desc), strings.Join(keys, " "), t.goName, t.goName, "ok")
	}
	for _, name := range enumOrder {
		fmt.Fprintf(&b, "// %s is one of the values its constants list.\ntype %s string\n\n// The values of %s.\nconst (\n", name, name, name)
		for _, v := range enums[name] {
			fmt.Fprintf(&b, "\t%s%s %s = %q\n", name, camel(strings.ToLower(v)), name, v)
		}
		b.WriteString(")\n\n")
	}
	b.Write(body.Bytes())
	return b.Bytes()
}

func lowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }
