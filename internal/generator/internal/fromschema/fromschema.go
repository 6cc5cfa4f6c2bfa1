// Package fromschema is the front end of a client generated from a
// server's listing: the tools, prompts and resource templates it
// publishes, with their JSON Schemas. It turns each schema into the
// generator's model types, which the client package declares, so that
// the emitter writes the same encoders and decoders a server's file has.
//
// The mapping: an object with properties is a struct (json tags, doc
// comments from descriptions; a property left out of required is
// omitempty); an enum of strings or integers is a named type with a
// constant a value; a type that also takes null is a pointer; $defs and
// definitions referred to by $ref are named types; a string of format
// date-time is a time.Time and one of contentEncoding base64 a []byte;
// an object of additionalProperties alone is a map. What Go cannot say
// exactly (oneOf, anyOf, allOf, not, if, a list of types, a tuple, a
// reference outside the document) is a json.RawMessage, its schema in
// the field's doc comment.
package fromschema

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/generator/internal/goident"
	"github.com/mcpgen/mcpgen/internal/generator/internal/jsonv"
	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
)

// Client builds the client of the server whose listing is list (a
// tools/list result, with prompts and resourceTemplates beside tools as
// mcpgen -list prints them), to be the package name at path. The
// client's doc comment names the server by the listing's serverInfo.
// Each warning says what the client leaves out.
func Client(list []byte, name, path string) (*model.Client, []string, error) {
	v, err := jsonv.Parse(list)
	if err != nil {
		return nil, nil, fmt.Errorf("the listing is not JSON: %v", err)
	}
	root, ok := v.(jsonv.Object)
	if !ok || !root.Has("tools") {
		return nil, nil, fmt.Errorf("the listing is not a tools/list result: want an object with \"tools\"")
	}
	source := "the server whose listing is " + names.ClientListing
	if info, ok := root.Object("serverInfo"); ok && info.String("name") != "" {
		source = "the server " + info.String("name")
	}
	c := &conv{client: &model.Client{Name: name, Path: path, Source: source},
		types: goident.New("Client", "NewClient"), methods: goident.New("Session"), defs: map[string]*model.Type{}, declared: map[*model.Type]bool{}}
	c.client.Scope = c.types.Scope()
	for i, t := range root.Array("tools") {
		obj, ok := t.(jsonv.Object)
		if !ok || obj.String("name") == "" {
			return nil, nil, fmt.Errorf("tools[%d]: want an object with a name", i)
		}
		c.tool(obj)
	}
	for i, p := range root.Array("prompts") {
		obj, ok := p.(jsonv.Object)
		if !ok || obj.String("name") == "" {
			return nil, nil, fmt.Errorf("prompts[%d]: want an object with a name", i)
		}
		c.prompt(obj)
	}
	for i, r := range root.Array("resourceTemplates") {
		obj, ok := r.(jsonv.Object)
		if !ok || obj.String("uriTemplate") == "" {
			return nil, nil, fmt.Errorf("resourceTemplates[%d]: want an object with a uriTemplate", i)
		}
		c.template(obj)
	}
	return c.client, c.warnings, nil
}

// conv converts one listing.
type conv struct {
	client   *model.Client
	types    *goident.Names // package-level names: types and constants
	methods  *goident.Names // the Client's methods
	defs     map[string]*model.Type
	declared map[*model.Type]bool
	doc      jsonv.Object // the schema document being converted, which $ref resolves in
	warnings []string
}

func (c *conv) warnf(format string, args ...any) {
	c.warnings = append(c.warnings, fmt.Sprintf(format, args...))
}

func (c *conv) tool(t jsonv.Object) {
	name := t.String("name")
	ct := &model.ClientTool{Method: c.methods.Take(goident.Exported(name)), Name: model.ToolName(name), Doc: describe(t)}
	if in, ok := t.Object("inputSchema"); ok && takesArguments(in) {
		c.doc = in
		ct.Input = c.typ(in, ct.Method+"Input", nil)
	}
	ct.Out = model.OutResult
	if out, ok := t.Object("outputSchema"); ok {
		c.doc = out
		ct.Out = model.OutStructured
		if inner, ok := wrapped(out); ok {
			ct.Wrapped = true
			out = inner
		}
		ct.OutType = c.typ(out, ct.Method+"Output", nil)
	}
	c.client.Tools = append(c.client.Tools, ct)
}

// describe is the description of a tool, prompt or template, its title
// first when it has one that says something else.
func describe(o jsonv.Object) string {
	desc := strings.TrimSpace(o.String("description"))
	if title := o.String("title"); title != "" && title != desc {
		if desc == "" {
			return title + "."
		}
		return title + ": " + desc
	}
	return desc
}

// takesArguments reports whether an input schema has anything to send:
// properties, or values of additionalProperties.
func takesArguments(s jsonv.Object) bool {
	if props, ok := s.Object("properties"); ok && len(props) > 0 {
		return true
	}
	if ap, ok := s.Object("additionalProperties"); ok && len(ap) > 0 {
		return true
	}
	return s.Has("$ref") || s.Has("oneOf") || s.Has("anyOf") || s.Has("allOf")
}

// wrapped returns the schema inside an output schema that wraps a value
// that is not an object as {"result": ...}, as mcpgen's servers publish
// it before 2026-07-28 and send the value unwrapped on it.
func wrapped(s jsonv.Object) (jsonv.Object, bool) {
	props, _ := s.Object("properties")
	req := s.Strings("required")
	if len(props) != 1 || props[0].Key != "result" || len(req) != 1 || req[0] != "result" {
		return nil, false
	}
	for _, m := range s {
		switch m.Key {
		case "type", "properties", "required", "$schema", "$defs", "additionalProperties":
		default:
			return nil, false
		}
	}
	inner, ok := props[0].Value.(jsonv.Object)
	if !ok || slices.Contains(inner.Types(), "object") || inner.Has("properties") {
		return nil, false
	}
	if defs, ok := s.Object("$defs"); ok && !inner.Has("$defs") {
		inner = append(append(jsonv.Object(nil), inner...), jsonv.Member{Key: "$defs", Value: defs})
	}
	return inner, true
}

func (c *conv) prompt(p jsonv.Object) {
	name := p.String("name")
	cp := &model.ClientPrompt{Method: c.method(name, "Prompt"), Name: name, Doc: describe(p)}
	args := p.Array("arguments")
	if len(args) > 0 {
		t := &model.Type{Kind: model.Struct, Named: &model.GoName{Path: c.client.Path, Name: c.types.Take(cp.Method + "Args")}}
		fields := goident.New()
		for _, a := range args {
			obj, ok := a.(jsonv.Object)
			if !ok || obj.String("name") == "" {
				continue
			}
			f := &model.Field{WireName: obj.String("name"), Type: stringType(), Doc: describe(obj)}
			f.Required = obj.Has("required") && isTrue(obj, "required")
			f.OmitEmpty = !f.Required
			f.Path = []model.Step{{Name: fields.Take(goident.Exported(f.WireName))}}
			t.Fields = append(t.Fields, f)
		}
		c.declare(t, cp.Method+"Args holds the arguments of "+cp.Method+".", nil)
		cp.Input = t
	}
	c.client.Prompts = append(c.client.Prompts, cp)
}

func isTrue(o jsonv.Object, key string) bool {
	v, _ := o.Get(key)
	b, _ := v.(bool)
	return b
}

// method takes a method name for a server's name, with suffix after it
// when a tool's method has it already.
func (c *conv) method(name, suffix string) string {
	m := goident.Exported(name)
	if c.methods.Taken(m) {
		m += suffix
	}
	return c.methods.Take(m)
}

func (c *conv) template(r jsonv.Object) {
	uri := r.String("uriTemplate")
	parts, err := parseTemplate(uri)
	if err != nil {
		c.warnf("resource template %s: %v: the client has no method for it", uri, err)
		return
	}
	name := r.String("name")
	if name == "" {
		name = uri
	}
	cr := &model.ClientResource{Method: c.method(name, "Resource"), URI: uri, Doc: describe(r), Parts: parts, Out: model.ResourceContentsList}
	seen := map[string]bool{}
	for _, p := range parts {
		if p.Var != "" && !seen[p.Var] {
			seen[p.Var] = true
			cr.Vars = append(cr.Vars, &model.Field{WireName: p.Var, Type: stringType(), Required: true})
		}
	}
	c.client.Resources = append(c.client.Resources, cr)
}

// parseTemplate splits an RFC 6570 template into literals and the
// expressions {var} and {+var}; the other operators and lists of
// variables are errors.
func parseTemplate(uri string) ([]model.TemplatePart, error) {
	var parts []model.TemplatePart
	rest := uri
	for rest != "" {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			parts = append(parts, model.TemplatePart{Literal: rest})
			break
		}
		if i > 0 {
			parts = append(parts, model.TemplatePart{Literal: rest[:i]})
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return nil, fmt.Errorf("an expression without its }")
		}
		expr := rest[i+1 : i+j]
		rest = rest[i+j+1:]
		plus := strings.HasPrefix(expr, "+")
		expr = strings.TrimPrefix(expr, "+")
		if expr == "" || strings.ContainsAny(expr, "#./;?&,*:=,!@|") {
			return nil, fmt.Errorf("the expression {%s} is not {var} or {+var}, the forms the client expands", rest[:0]+expr)
		}
		parts = append(parts, model.TemplatePart{Var: expr, Plus: plus})
	}
	return parts, nil
}

func stringType() *model.Type { return &model.Type{Kind: model.String, Basic: "string"} }

// typ is the Go type of the schema s, hint the name a type it declares
// takes, doc where to say what the Go type cannot (a field's doc
// comment), or nil.
func (c *conv) typ(s any, hint string, doc *string) *model.Type { return c.typInto(s, hint, doc, nil) }

// typInto is typ, with into a named type that a struct or an enum made
// from s becomes instead of a type of its own; nil for none.
func (c *conv) typInto(s any, hint string, doc *string, into *model.Type) *model.Type {
	obj, ok := s.(jsonv.Object)
	if !ok { // true, false, or not a schema: any value
		return rawType()
	}
	obj = jsonv.Nullable(obj)
	if ref := obj.String("$ref"); ref != "" {
		return c.ref(ref, doc)
	}
	if t, ok := c.nullable(obj, hint, doc, into); ok {
		return t
	}
	for _, k := range []string{"oneOf", "anyOf", "allOf", "not", "if", "prefixItems", "patternProperties"} {
		if obj.Has(k) {
			if k == "allOf" && len(obj.Array(k)) == 1 {
				return c.typInto(obj.Array(k)[0], hint, doc, into)
			}
			return c.fallback(obj, doc, k)
		}
	}
	if obj.Has("enum") || obj.Has("const") {
		return c.enum(obj, hint, doc, into)
	}
	types := obj.Types()
	switch {
	case len(types) == 0 && obj.Has("properties"):
		types = []string{"object"}
	case len(types) == 0 && obj.Has("items"):
		types = []string{"array"}
	case len(types) == 0:
		return rawType()
	case len(types) > 1:
		return c.fallback(obj, doc, "a list of types")
	}
	switch types[0] {
	case "string":
		switch {
		case obj.String("format") == "date-time":
			return &model.Type{Kind: model.Time, Named: &model.GoName{Path: "time", Pkg: "time", Name: "Time"}}
		case obj.String("contentEncoding") == "base64" || obj.String("format") == "byte":
			return &model.Type{Kind: model.Bytes}
		}
		return stringType()
	case "integer":
		return &model.Type{Kind: model.Int, Bits: 64, Basic: "int64"}
	case "number":
		return &model.Type{Kind: model.Float, Bits: 64, Basic: "float64"}
	case "boolean":
		return &model.Type{Kind: model.Bool, Basic: "bool"}
	case "array":
		return &model.Type{Kind: model.Slice, Elem: c.typ(itemsOf(obj), hint+"Item", doc)}
	case "object":
		return c.object(obj, hint, doc, into)
	}
	return c.fallback(obj, doc, "type "+types[0])
}

func itemsOf(obj jsonv.Object) any {
	if v, ok := obj.Get("items"); ok {
		return v
	}
	return true
}

func rawType() *model.Type {
	return &model.Type{Kind: model.Raw, Named: &model.GoName{Path: "encoding/json", Pkg: "json", Name: "RawMessage"}}
}

// nullable is the pointer type of a schema that takes null beside one
// other type: "type": [T, "null"], or anyOf/oneOf of a schema and
// {"type": "null"}.
func (c *conv) nullable(obj jsonv.Object, hint string, doc *string, into *model.Type) (*model.Type, bool) {
	types := obj.Types()
	if len(types) == 2 && slices.Contains(types, "null") {
		other := types[0]
		if other == "null" {
			other = types[1]
		}
		cp := append(jsonv.Object(nil), obj...)
		cp.Set("type", other)
		if enum := cp.Array("enum"); enum != nil {
			cp.Set("enum", slices.DeleteFunc(slices.Clone(enum), func(v any) bool { return v == nil }))
		}
		return pointerTo(c.typInto(cp, hint, doc, into)), true
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		branches := obj.Array(k)
		if len(branches) != 2 {
			continue
		}
		for i, b := range branches {
			if b, ok := b.(jsonv.Object); ok && len(b) == 1 && b.String("type") == "null" {
				return pointerTo(c.typInto(branches[1-i], hint, doc, into)), true
			}
		}
	}
	return nil, false
}

// pointerTo is *t, or t itself where t takes null already.
func pointerTo(t *model.Type) *model.Type {
	switch t.Kind {
	case model.Pointer, model.Raw, model.Any:
		return t
	}
	return &model.Type{Kind: model.Pointer, Elem: t}
}

// fallback is json.RawMessage, for a schema Go cannot say exactly: the
// field's doc comment shows the schema.
func (c *conv) fallback(obj jsonv.Object, doc *string, why string) *model.Type {
	if doc != nil {
		note := "Any JSON value the schema below allows (" + why + ", which a Go type cannot say):\n\n\t" + string(jsonv.Marshal(obj))
		if *doc != "" {
			*doc += "\n\n"
		}
		*doc += note
	}
	return rawType()
}

// ref is the named type of a $ref into the document's $defs or
// definitions. Two documents' definitions of one name with the same
// schema are one type.
func (c *conv) ref(ref string, doc *string) *model.Type {
	var name string
	var defs jsonv.Object
	switch {
	case strings.HasPrefix(ref, "#/$defs/"):
		name, defs = ref[len("#/$defs/"):], objectAt(c.doc, "$defs")
	case strings.HasPrefix(ref, "#/definitions/"):
		name, defs = ref[len("#/definitions/"):], objectAt(c.doc, "definitions")
	}
	def, ok := defs.Get(unescapePointer(name))
	if name == "" || strings.Contains(name, "/") || !ok {
		return c.fallback(jsonv.Object{{Key: "$ref", Value: ref}}, doc, "a reference the client cannot resolve")
	}
	key := name + " " + string(jsonv.Marshal(def))
	if t, ok := c.defs[key]; ok {
		return t
	}
	obj, isObj := def.(jsonv.Object)
	if !isObj {
		return rawType()
	}
	// A definition is a named type, known before its schema is read, so
	// that a recursive one refers to itself.
	t := &model.Type{Named: &model.GoName{Path: c.client.Path, Name: c.types.Take(goident.Exported(name))}}
	c.defs[key] = t
	res := c.typInto(obj, t.Named.Name, doc, t)
	switch {
	case (res == t || res.Kind == model.Pointer && res.Elem == t) && c.declared[t]:
		return res // an object or an enum, declared as t
	case res == t || res.Kind == model.Pointer && res.Elem == t:
		// A definition that is only a reference to itself says nothing.
		*t = *rawType()
		c.defs[key] = t
		return t
	case (res.Kind == model.Slice || res.Kind == model.Map) && reaches(res, t):
		// A list or map of itself has no struct to break the recursion
		// in generated code: its items are raw JSON.
		*t = *rawType()
		c.defs[key] = res
		return res
	case res.Kind == model.Slice || res.Kind == model.Map:
		named := *res
		named.Named = t.Named
		*t = named
		c.declare(t, describeSchema(obj, t.Named.Name), nil)
		return t
	}
	// A scalar, a time, raw JSON or a pointer needs no name of its own.
	c.defs[key] = res
	return res
}

// reaches reports whether t is inside from, through items, values and
// pointers: not through a struct, whose functions break a recursion.
func reaches(from, t *model.Type) bool {
	for x := from; x != nil; x = x.Elem {
		if x == t {
			return true
		}
		if x.Kind == model.Struct {
			return false
		}
	}
	return false
}

func objectAt(o jsonv.Object, key string) jsonv.Object {
	v, _ := o.Object(key)
	return v
}

// unescapePointer undoes a JSON Pointer's escapes (~1 for /, ~0 for ~).
func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// describeSchema is the doc comment of a type made from a schema: its
// title and description after the type's name.
func describeSchema(obj jsonv.Object, name string) string {
	desc := describe(obj)
	if desc == "" {
		return ""
	}
	return name + ": " + desc
}

// enumConsts are the constants of an enum type t.
func enumConsts(c *conv, t *model.Type) []model.Const {
	var out []model.Const
	for _, v := range t.Enum {
		text := v.Go
		if s, err := strconv.Unquote(v.Go); err == nil {
			text = s
		}
		word := goident.Exported(text)
		if text != "" && (text[0] >= '0' && text[0] <= '9') {
			word = strings.TrimPrefix(word, "X") // Level1, not LevelX1
		} else if strings.HasPrefix(text, "-") {
			word = "Minus" + strings.TrimPrefix(word, "X")
		}
		out = append(out, model.Const{Name: c.types.Take(t.Named.Name + word), Value: v})
	}
	return out
}

// declare adds t to the types the client declares.
func (c *conv) declare(t *model.Type, doc string, consts []model.Const) {
	c.declared[t] = true
	c.client.Decls = append(c.client.Decls, &model.Decl{Type: t, Doc: doc, Consts: consts})
}

// enum is the named type of an enum (or const) of strings or integers,
// with a constant a value; any other enum is a json.RawMessage.
func (c *conv) enum(obj jsonv.Object, hint string, doc *string, into *model.Type) *model.Type {
	vals := obj.Array("enum")
	if v, ok := obj.Get("const"); ok {
		vals = []any{v}
	}
	t := &model.Type{}
	if into != nil {
		t = into
	}
	for _, v := range vals {
		switch v := v.(type) {
		case string:
			if t.Kind != model.String && len(t.Enum) > 0 {
				return c.fallback(obj, doc, "an enum of values of several types")
			}
			t.Kind, t.Basic = model.String, "string"
			t.Enum = append(t.Enum, model.EnumValue{JSON: model.JSONQuote(v), Go: strconv.Quote(v)})
		case json.Number:
			if _, err := strconv.ParseInt(string(v), 10, 64); err != nil || t.Kind != model.Int && len(t.Enum) > 0 {
				return c.fallback(obj, doc, "an enum of values other than strings and integers")
			}
			t.Kind, t.Basic, t.Bits = model.Int, "int64", 64
			t.Enum = append(t.Enum, model.EnumValue{JSON: string(v), Go: string(v)})
		default:
			return c.fallback(obj, doc, "an enum of values other than strings and integers")
		}
	}
	if len(t.Enum) == 0 {
		return c.fallback(obj, doc, "an empty enum")
	}
	if into == nil {
		t.Named = &model.GoName{Path: c.client.Path, Name: c.types.Take(hint)}
	}
	c.declare(t, describeSchema(obj, t.Named.Name), enumConsts(c, t))
	return t
}

// object is the struct of an object schema with properties, the map of
// one with additionalProperties alone, or map[string]json.RawMessage.
func (c *conv) object(obj jsonv.Object, hint string, doc *string, into *model.Type) *model.Type {
	props, _ := obj.Object("properties")
	ap, hasAP := obj.Get("additionalProperties")
	closed := hasAP && ap == false
	if len(props) == 0 && !closed {
		return &model.Type{Kind: model.Map, Elem: c.typ(orTrue(ap, hasAP), hint+"Value", doc)}
	}
	t := into
	if t == nil {
		t = &model.Type{Named: &model.GoName{Path: c.client.Path, Name: c.types.Take(hint)}}
	}
	t.Kind, t.Open = model.Struct, !closed
	c.declare(t, describeSchema(obj, t.Named.Name), nil)
	required := obj.Strings("required")
	fields := goident.New()
	for _, p := range props {
		f := &model.Field{WireName: p.Key, Required: slices.Contains(required, p.Key)}
		goName := fields.Take(goident.Exported(p.Key))
		f.Path = []model.Step{{Name: goName}}
		ps, _ := p.Value.(jsonv.Object)
		f.Doc = fieldDoc(ps)
		f.Type = c.typ(p.Value, t.Named.Name+goName, &f.Doc)
		f.Constraints = c.constraints(ps, f.Type)
		if !f.Required {
			switch f.Type.Kind {
			case model.Struct, model.Time, model.Array:
				f.OmitZero = true
			default:
				f.OmitEmpty = true
			}
		}
		t.Fields = append(t.Fields, f)
	}
	if hasAP && !closed {
		if apObj, ok := ap.(jsonv.Object); ok && len(apObj) > 0 {
			c.warnf("%s: the values of additionalProperties beside properties are not kept: the struct skips them", t.Named.Name)
		}
	}
	return t
}

func orTrue(v any, has bool) any {
	if !has || v == true {
		return true
	}
	return v
}

// fieldDoc is a property's doc comment: its title and description, and
// its default, which the decoder does not apply.
func fieldDoc(ps jsonv.Object) string {
	doc := describe(ps)
	if d, ok := ps.Get("default"); ok {
		if doc != "" {
			doc += "\n\n"
		}
		doc += "Default: " + string(jsonv.Marshal(d)) + "."
	}
	return doc
}

// constraints are the checks of a property's schema, and of its items'
// for an array, as one set: the model applies a field's checks to the
// items of a list.
func (c *conv) constraints(ps jsonv.Object, t *model.Type) model.Constraints {
	var k model.Constraints
	s := jsonv.Nullable(ps)
	for t.Kind == model.Pointer {
		t = t.Elem
	}
	if t.Kind == model.Slice {
		k.MinItems, k.MaxItems = intAt(s, "minItems"), intAt(s, "maxItems")
		k.UniqueItems = isTrue(s, "uniqueItems")
		items, _ := s.Object("items")
		s = jsonv.Nullable(items)
		if t.Elem.Kind == model.Slice || t.Elem.Kind == model.Map || t.Elem.Kind == model.Pointer {
			return k // the items' own checks have no place in the model
		}
	}
	switch t.Kind {
	case model.String:
		k.MinLength, k.MaxLength = intAt(s, "minLength"), intAt(s, "maxLength")
		if p := s.String("pattern"); p != "" {
			if _, err := regexp.Compile(p); err == nil {
				k.Pattern = p
			}
		}
		k.Format = s.String("format")
	case model.Int, model.Float:
		k.Min = bound(s, "minimum", "exclusiveMinimum")
		k.Max = bound(s, "maximum", "exclusiveMaximum")
		if m, ok := s.Get("multipleOf"); ok {
			if n, ok := m.(json.Number); ok {
				if f, err := n.Float64(); err == nil && f > 0 {
					k.MultipleOf = &model.Bound{Text: string(n), Value: f}
				}
			}
		}
	}
	return k
}

func intAt(s jsonv.Object, key string) *int {
	v, _ := s.Get(key)
	n, ok := v.(json.Number)
	if !ok {
		return nil
	}
	i, err := strconv.Atoi(string(n))
	if err != nil || i < 0 {
		return nil
	}
	return &i
}

// bound reads an inclusive bound and its exclusive form, a number in
// 2020-12 or a boolean beside the bound in draft 4.
func bound(s jsonv.Object, incl, excl string) *model.Bound {
	num := func(key string) *model.Bound {
		v, _ := s.Get(key)
		n, ok := v.(json.Number)
		if !ok {
			return nil
		}
		f, err := n.Float64()
		if err != nil {
			return nil
		}
		return &model.Bound{Text: string(n), Value: f}
	}
	if b := num(excl); b != nil {
		b.Exclusive = true
		return b
	}
	b := num(incl)
	if b != nil && isTrue(s, excl) {
		b.Exclusive = true
	}
	return b
}
