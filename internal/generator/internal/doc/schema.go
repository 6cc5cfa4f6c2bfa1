package doc

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/internal/generator/internal/jsonv"
)

// schemaTable writes the properties of an input or output schema as one
// table, nested properties as dotted rows (changes[].price for the items
// of a list, meta.*.x for the values of a map), then a table for each
// definition in $defs, which recursive types refer to.
func (w *writer) schemaTable(title, column string, s jsonv.Object, input bool) {
	var rows []row
	if props, ok := s.Object("properties"); ok {
		rows = properties(rows, "", props, s.Strings("required"))
	} else if s.Has("type") || s.Has("$ref") || s.Has("anyOf") {
		rows = append(rows, row{name: "(the result)", schema: s, required: true})
		rows = children(rows, "", s)
	}
	if len(rows) == 0 && input {
		w.paragraph("No arguments.")
		return
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "%s:\n\n", title)
	w.table(column, rows)
	defs, _ := s.Object("$defs")
	for _, d := range defs {
		def, _ := d.Value.(jsonv.Object)
		props, _ := def.Object("properties")
		fmt.Fprintf(w, "%s, used by reference:\n\n", code(d.Key))
		w.table("field", properties(nil, "", props, def.Strings("required")))
	}
}

// row is one property of a table.
type row struct {
	name     string
	schema   jsonv.Object
	required bool
}

// properties appends a row for each property, each followed by the rows
// of its nested properties.
func properties(rows []row, prefix string, props jsonv.Object, required []string) []row {
	for _, p := range props {
		s, _ := p.Value.(jsonv.Object)
		s = jsonv.Nullable(s) // a property that takes null for absent: its schema or null
		name := prefix + p.Key
		rows = append(rows, row{name: name, schema: s, required: slices.Contains(required, p.Key)})
		rows = children(rows, name, s)
	}
	return rows
}

// children appends the rows nested in s: the properties of an object, of
// the items of a list, or of the values of a map. A $ref is not followed:
// its definition has a table of its own.
func children(rows []row, name string, s jsonv.Object) []row {
	if props, ok := s.Object("properties"); ok {
		return properties(rows, name+".", props, s.Strings("required"))
	}
	if items, ok := s.Object("items"); ok {
		return children(rows, name+"[]", items)
	}
	if vals, ok := s.Object("additionalProperties"); ok {
		return children(rows, name+".*", vals)
	}
	return rows
}

// table writes rows under a header naming the first column.
func (w *writer) table(column string, rows []row) {
	fmt.Fprintf(w, "| %s | type | required | constraints | description |\n|---|---|---|---|---|\n", column)
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", cell(code(strings.TrimPrefix(r.name, "."))), cell(typeText(r.schema)),
			yesNo(r.required, true), cell(strings.Join(constraints(r.schema), "; ")), cell(r.schema.String("description")))
	}
	w.WriteString("\n")
}

// typeText names the type of the values s accepts: "string (date-time)",
// "array of integer", "map of string", "Node" for a reference.
func typeText(s jsonv.Object) string {
	if ref := s.String("$ref"); ref != "" {
		if ref == "#" {
			return "the whole object, recursively"
		}
		return ref[strings.LastIndex(ref, "/")+1:]
	}
	var names []string
	if t, ok := s.Get("type"); ok {
		names = typeNames(t)
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		for _, b := range s.Array(key) {
			branch, _ := b.(jsonv.Object)
			names = append(names, typeText(branch))
		}
	}
	if len(names) == 0 {
		return "any"
	}
	for i, n := range names {
		names[i] = refine(n, s)
	}
	return strings.Join(names, " or ")
}

// typeNames reads a type keyword: one name or a list of them.
func typeNames(t any) []string {
	if name, ok := t.(string); ok {
		return []string{name}
	}
	var names []string
	for _, n := range t.([]any) {
		if name, ok := n.(string); ok {
			names = append(names, name)
		}
	}
	return names
}

// refine adds to a type name what s says of its values: a string's
// format, a list's items, a map's values.
func refine(name string, s jsonv.Object) string {
	switch name {
	case "string":
		if f := s.String("format"); f != "" {
			return "string (" + f + ")"
		}
	case "array":
		if items, ok := s.Object("items"); ok {
			return "array of " + typeText(items)
		}
	case "object":
		if vals, ok := s.Object("additionalProperties"); ok && !s.Has("properties") {
			return "map of " + typeText(vals)
		}
	}
	return name
}

// constraints says in words what s requires of a value beyond its type,
// and what the items of a list must be.
func constraints(s jsonv.Object) []string {
	var out []string
	if enum := s.Array("enum"); len(enum) > 0 {
		vals := make([]string, len(enum))
		for i, v := range enum {
			vals[i] = code(jsonv.Text(v))
		}
		out = append(out, "one of "+strings.Join(vals, ", "))
	}
	if c, ok := s.Get("const"); ok {
		out = append(out, "always "+code(jsonv.Text(c)))
	}
	if names, ok := s.Object("propertyNames"); ok {
		if enum := names.Array("enum"); len(enum) > 0 {
			keys := make([]string, len(enum))
			for i, v := range enum {
				keys[i] = code(jsonv.Text(v))
			}
			out = append(out, "keys one of "+strings.Join(keys, ", "))
		}
	}
	out = append(out, bounds(s)...)
	if m, ok := s.Get("multipleOf"); ok {
		out = append(out, "a multiple of "+jsonv.Text(m))
	}
	out = append(out, counted(s, "minLength", "maxLength", "character")...)
	if s.String("contentEncoding") != "" {
		out = append(out, s.String("contentEncoding")+"-encoded")
	} else if p := s.String("pattern"); p != "" {
		out = append(out, "matches "+code(p))
	}
	out = append(out, counted(s, "minItems", "maxItems", "item")...)
	if v, _ := s.Get("uniqueItems"); v == true {
		out = append(out, "items all different")
	}
	if items, ok := s.Object("items"); ok && !items.Has("properties") {
		if ic := constraints(items); len(ic) > 0 {
			out = append(out, "each item: "+strings.Join(ic, ", "))
		}
	}
	if d, ok := s.Get("default"); ok {
		out = append(out, "default "+code(jsonv.Text(d)))
	}
	if h := s.String("x-mcp-header"); h != "" {
		out = append(out, "mirrored in the HTTP header "+code("Mcp-Param-"+h))
	}
	return out
}

// bounds says the numeric range of s: "from 1 to 20", "at least 0",
// "greater than 0, at most 5".
func bounds(s jsonv.Object) []string {
	lo, hasLo := s.Get("minimum")
	hi, hasHi := s.Get("maximum")
	if hasLo && hasHi {
		return []string{"from " + jsonv.Text(lo) + " to " + jsonv.Text(hi)}
	}
	var out []string
	for _, b := range []struct{ key, words string }{
		{"minimum", "at least "}, {"exclusiveMinimum", "greater than "},
		{"maximum", "at most "}, {"exclusiveMaximum", "less than "},
	} {
		if v, ok := s.Get(b.key); ok {
			out = append(out, b.words+jsonv.Text(v))
		}
	}
	return out
}

// counted says a range of lengths or item counts: "1 to 100 characters",
// "at most 8 items", "exactly 3 items".
func counted(s jsonv.Object, minKey, maxKey, unit string) []string {
	lo, hasLo := s.Get(minKey)
	hi, hasHi := s.Get(maxKey)
	plural := func(v any) string {
		if jsonv.Text(v) == "1" {
			return unit
		}
		return unit + "s"
	}
	switch {
	case hasLo && hasHi && jsonv.Text(lo) == jsonv.Text(hi):
		return []string{"exactly " + jsonv.Text(lo) + " " + plural(lo)}
	case hasLo && hasHi:
		return []string{jsonv.Text(lo) + " to " + jsonv.Text(hi) + " " + unit + "s"}
	case hasLo:
		return []string{"at least " + jsonv.Text(lo) + " " + plural(lo)}
	case hasHi:
		return []string{"at most " + jsonv.Text(hi) + " " + plural(hi)}
	}
	return nil
}
