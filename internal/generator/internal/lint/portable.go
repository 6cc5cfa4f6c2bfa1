package lint

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/generator/internal/jsonv"
)

// Portable returns schema in the portable form: what some profile rejects
// is rewritten wherever the schema still accepts exactly the same values
// and the model is still told the same things. It
//
//   - inlines each $ref to a definition that is not recursive, and drops
//     the definitions no longer referred to (Gemini has no $ref);
//   - writes const as an enum of one value (Gemini has no const);
//   - writes an exclusive bound on an integer as the inclusive one
//     (exclusiveMinimum 0 as minimum 1; Gemini has no exclusive bounds);
//   - moves the annotations some profile refuses into the description,
//     where the model still reads them: default (OpenAI strict), a format
//     outside the formats every profile supports (date-time, time, date,
//     duration, email, hostname, ipv4, ipv6, uuid), and contentEncoding
//     (Gemini). JSON Schema 2020-12 validates none of the three, and the
//     server still applies the default and checks the format and the
//     encoding.
//
// What cannot be rewritten without changing the accepted values stays and
// is still reported by Check: optional properties (OpenAI strict), closed
// objects (Gemini), bounds and lengths (Anthropic strict), recursion.
func Portable(schema []byte) ([]byte, error) {
	v, err := jsonv.Parse(schema)
	if err != nil {
		return nil, err
	}
	root, ok := v.(jsonv.Object)
	if !ok {
		return schema, nil
	}
	root = inline(root)
	root = rewrite(root).(jsonv.Object)
	return jsonv.Marshal(root), nil
}

// inline replaces each reference to a definition that is not recursive by
// the definition, and drops the definitions no reference is left to.
func inline(root jsonv.Object) jsonv.Object {
	out := replaceRefs(root, root).(jsonv.Object)
	defs, ok := out.Object("$defs")
	if !ok {
		return out
	}
	var kept jsonv.Object
	for _, d := range defs {
		if referenced(out, "#/$defs/"+d.Key) {
			kept = append(kept, d)
		}
	}
	if len(kept) == 0 {
		out.Delete("$defs")
	} else {
		out.Set("$defs", kept)
	}
	return out
}

// replaceRefs returns v with each inlinable reference replaced.
func replaceRefs(root jsonv.Object, v any) any {
	switch v := v.(type) {
	case jsonv.Object:
		if ref := v.String("$ref"); strings.HasPrefix(ref, "#/") && !recursive(root, ref, nil) {
			if target := resolve(root, ref); target != nil {
				merged := append(jsonv.Object(nil), target...)
				for _, m := range v {
					if m.Key != "$ref" {
						merged.Set(m.Key, m.Value) // the referring schema's own description wins
					}
				}
				return replaceRefs(root, merged)
			}
		}
		out := make(jsonv.Object, len(v))
		for i, m := range v {
			out[i] = jsonv.Member{Key: m.Key, Value: replaceRefs(root, m.Value)}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = replaceRefs(root, x)
		}
		return out
	}
	return v
}

// referenced reports whether any $ref in v is ref.
func referenced(v any, ref string) bool {
	switch v := v.(type) {
	case jsonv.Object:
		if v.String("$ref") == ref {
			return true
		}
		return slices.ContainsFunc(v, func(m jsonv.Member) bool { return referenced(m.Value, ref) })
	case []any:
		return slices.ContainsFunc(v, func(x any) bool { return referenced(x, ref) })
	}
	return false
}

// rewrite applies the rewrites of one schema to every schema in v. It
// walks every object, so a property named "default" is rewritten only
// when it is a schema keyword: properties and $defs hold names, not
// keywords, and are walked member by member.
func rewrite(v any) any {
	switch v := v.(type) {
	case jsonv.Object:
		out := make(jsonv.Object, len(v))
		for i, m := range v {
			val := m.Value
			if m.Key == "properties" || m.Key == "$defs" {
				val = rewriteMembers(m.Value)
			} else if m.Key != "enum" && m.Key != "const" && m.Key != "default" && m.Key != "examples" {
				val = rewrite(m.Value)
			}
			out[i] = jsonv.Member{Key: m.Key, Value: val}
		}
		return portableSchema(out)
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = rewrite(x)
		}
		return out
	}
	return v
}

// rewriteMembers rewrites the schemas of a properties or $defs object.
func rewriteMembers(v any) any {
	obj, ok := v.(jsonv.Object)
	if !ok {
		return v
	}
	out := make(jsonv.Object, len(obj))
	for i, m := range obj {
		out[i] = jsonv.Member{Key: m.Key, Value: rewrite(m.Value)}
	}
	return out
}

// portableSchema rewrites the keywords of one schema.
func portableSchema(s jsonv.Object) jsonv.Object {
	if c, ok := s.Get("const"); ok && !s.Has("enum") {
		s.Set("enum", []any{c})
		s.Delete("const")
	}
	if slices.Equal(s.Types(), []string{"integer"}) {
		inclusive(&s, "exclusiveMinimum", "minimum", 1)
		inclusive(&s, "exclusiveMaximum", "maximum", -1)
	}
	var notes []string
	if d, ok := s.Get("default"); ok {
		notes = append(notes, "default: "+string(jsonv.Marshal(d)))
		s.Delete("default")
	}
	if f := s.String("format"); f != "" && !slices.Contains(openAIFormats, f) {
		notes = append(notes, "format: "+f)
		s.Delete("format")
	}
	if e := s.String("contentEncoding"); e != "" {
		notes = append(notes, e+"-encoded")
		s.Delete("contentEncoding")
	}
	if len(notes) > 0 {
		describe(&s, "("+strings.Join(notes, "; ")+")")
	}
	return s
}

// inclusive replaces an exclusive integer bound by the inclusive one a
// step inside it, keeping the tighter of it and an inclusive bound already
// there; step is 1 for a lower bound, -1 for an upper one.
func inclusive(s *jsonv.Object, exclKey, inclKey string, step float64) {
	v, ok := s.Get(exclKey)
	if !ok {
		return
	}
	f, err := strconv.ParseFloat(jsonv.Text(v), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return
	}
	bound := f + step
	if old, ok := s.Get(inclKey); ok {
		if o, err := strconv.ParseFloat(jsonv.Text(old), 64); err == nil && (o-bound)*step > 0 {
			bound = o
		}
	}
	s.Delete(exclKey)
	s.Set(inclKey, json.Number(strconv.FormatFloat(bound, 'f', -1, 64)))
}

// describe appends a note to the schema's description, where the model
// reads it.
func describe(s *jsonv.Object, note string) {
	if d := s.String("description"); d != "" {
		s.Set("description", d+" "+note)
		return
	}
	s.Set("description", note)
}
