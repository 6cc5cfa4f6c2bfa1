// Package schema is the stage between analysis and emission: it computes
// every JSON Schema (2020-12) of a package from the model once, as
// deterministic values serialized compactly with their keywords in one
// fixed order. The emitter and the tool list only read them.
package schema

import (
	"bytes"
	"encoding/json"
	"go/token"
	"slices"
	"strconv"

	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
)

// Schema is one JSON Schema. Field order is keyword order in the output.
type Schema struct {
	Ref                  string            `json:"$ref,omitempty"`
	Type                 string            `json:"type,omitempty"`
	Title                string            `json:"title,omitempty"`
	Description          string            `json:"description,omitempty"`
	Enum                 []json.RawMessage `json:"enum,omitempty"`
	Default              json.RawMessage   `json:"default,omitempty"`
	Format               string            `json:"format,omitempty"`
	ContentEncoding      string            `json:"contentEncoding,omitempty"`
	Pattern              string            `json:"pattern,omitempty"`
	MinLength            *int              `json:"minLength,omitempty"`
	MaxLength            *int              `json:"maxLength,omitempty"`
	Minimum              json.RawMessage   `json:"minimum,omitempty"`
	ExclusiveMinimum     json.RawMessage   `json:"exclusiveMinimum,omitempty"`
	Maximum              json.RawMessage   `json:"maximum,omitempty"`
	ExclusiveMaximum     json.RawMessage   `json:"exclusiveMaximum,omitempty"`
	MultipleOf           json.RawMessage   `json:"multipleOf,omitempty"`
	Items                *Schema           `json:"items,omitempty"`
	PrefixItems          []*Schema         `json:"prefixItems,omitempty"`
	MinItems             *int              `json:"minItems,omitempty"`
	MaxItems             *int              `json:"maxItems,omitempty"`
	UniqueItems          bool              `json:"uniqueItems,omitempty"`
	Properties           *Properties       `json:"properties,omitempty"`
	Required             []string          `json:"required,omitempty"`
	AdditionalProperties json.RawMessage   `json:"additionalProperties,omitempty"`
	PropertyNames        *Schema           `json:"propertyNames,omitempty"`
	Defs                 *Properties       `json:"$defs,omitempty"`
	// Header is the x-mcp-header annotation of a tool property: the name
	// under which an HTTP client mirrors its value (Mcp-Param-NAME).
	Header string `json:"x-mcp-header,omitempty"`
	// Null says that null is a value too: the schema of a pointer, whose
	// decoder takes null for nil. It is written into the type (["string",
	// "null"]) and the enum, or, for a $ref, as anyOf the reference and
	// {"type":"null"}; a schema without a type allows null already.
	Null bool `json:"-"`
	// Absent says that null stands for the property left out (see
	// model.Field.NullIsAbsent). It is written as anyOf the schema and
	// {"type":"null"}, the annotations (title, description, default)
	// outside: every client whose schema subset takes the schema alone
	// takes that form too, where some refuse a list of types.
	Absent bool `json:"-"`
}

// nullSchema is the schema of null alone, the second branch of a nullable
// reference.
var nullSchema = json.RawMessage(`{"type":"null"}`)

// MarshalJSON writes the schema's keywords in field order, with null
// allowed where Null says: type and anyOf come first then.
func (s *Schema) MarshalJSON() ([]byte, error) {
	type plain Schema // the fields, without this method
	out := struct {
		AnyOf []json.RawMessage `json:"anyOf,omitempty"`
		Type  any               `json:"type,omitempty"`
		*plain
	}{plain: (*plain)(s)}
	if s.Type != "" {
		out.Type = s.Type
	}
	if s.Absent {
		value := *s
		value.Absent, value.Title, value.Description, value.Default = false, "", "", nil
		branch, err := marshal(&value)
		if err != nil {
			return nil, err
		}
		out.AnyOf, out.Type = []json.RawMessage{branch, nullSchema}, nil
		out.plain = &plain{Title: s.Title, Description: s.Description, Default: s.Default}
		return marshal(out)
	}
	if s.Null {
		c := *s
		switch {
		case c.Ref != "":
			ref, err := marshal(&Schema{Ref: c.Ref})
			if err != nil {
				return nil, err
			}
			out.AnyOf, c.Ref = []json.RawMessage{ref, nullSchema}, ""
		case c.Type != "":
			out.Type = []string{c.Type, "null"}
			if len(c.Enum) > 0 {
				c.Enum = append(slices.Clip(c.Enum), json.RawMessage("null"))
			}
		}
		out.plain = (*plain)(&c)
	}
	return marshal(out)
}

// Property is one named subschema, of properties or $defs.
type Property struct {
	Name   string
	Schema *Schema
}

// Properties keeps properties in struct field order.
type Properties []Property

// MarshalJSON writes the properties as an object in their order.
func (ps Properties) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(p.Name)
		b.Write(name)
		b.WriteByte(':')
		js, err := marshal(p.Schema)
		if err != nil {
			return nil, err
		}
		b.Write(js)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal serializes compactly without HTML escaping, so schemas read as
// written in the generated file.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Tool holds the schemas of one tool.
type Tool struct {
	Input  []byte // the input schema: computed, or the input= file's
	Output []byte // the output schema: computed, or the output= file's; nil when none
	// Wrap says the result is a list or a map: a JSON value other than an
	// object, with a schema. It is sent as a structured value, and its
	// schema is published wrapped before 2026-07-28 (see
	// mcprt.Tool.WrapOutput).
	Wrap bool
}

// Set holds the schemas of one package's tools and forms.
type Set struct {
	tools map[*model.Tool]Tool
	forms map[*model.Form][]byte
}

// Tool returns the schemas of t, one of the package's tools.
func (s *Set) Tool(t *model.Tool) Tool { return s.tools[t] }

// Form returns the requested schema of f, one of the package's forms.
func (s *Set) Form(f *model.Form) []byte { return s.forms[f] }

// Package computes the schemas of every tool and form of m. progress, when
// set, is called with the position of each before its schemas are
// computed, so that a caller can say where an internal error happened.
func Package(m *model.Package, progress func(token.Position)) *Set {
	s := &Set{tools: map[*model.Tool]Tool{}, forms: map[*model.Form][]byte{}}
	for _, t := range m.Tools {
		if progress != nil {
			progress(t.Pos)
		}
		s.tools[t] = tool(t)
	}
	for _, f := range m.Forms {
		if progress != nil {
			progress(f.Pos)
		}
		s.forms[f] = form(f.Type)
	}
	return s
}

// tool computes the schemas of t that no file gives.
func tool(t *model.Tool) Tool {
	out := Tool{Input: t.InputFile, Output: t.OutputFile, Wrap: wrapsOutput(t)}
	if out.Input == nil {
		out.Input = document(t.Input, false)
	}
	if out.Output == nil {
		out.Output = output(t)
	}
	return out
}

// output returns the output schema of a tool with structured output, or
// nil: an object schema for a struct result, and for a list or map result
// the schema of that value.
func output(t *model.Tool) []byte {
	if t.Out == model.OutStructured || wrapsOutput(t) {
		return document(t.OutType, true)
	}
	return nil
}

// wrapsOutput reports whether t's result is a JSON value other than an
// object that has a schema: a list or a map.
func wrapsOutput(t *model.Tool) bool {
	if t.Out != model.OutJSON || t.OutType == nil {
		return false
	}
	switch t.OutType.Kind {
	case model.Slice, model.Array, model.Map:
		return true
	}
	return false
}

// form returns the requested schema of an elicitation form. Elicitation
// schemas are a restricted subset: a flat object of primitive properties,
// without additionalProperties, and a property's type is one type.
func form(t *model.Type) []byte {
	b := &builder{root: t, noNull: true}
	s := b.object(t)
	s.AdditionalProperties = nil
	s.Description = ""
	js, err := marshal(s)
	if err != nil {
		panic("schema: " + err.Error()) // every value here marshals; failing is a bug
	}
	return js
}

// document serializes the schema of a root object type: of what a tool
// sends when output is set, else of what it takes.
func document(root *model.Type, output bool) []byte {
	b := &builder{root: root, recursive: recursiveTypes(root), output: output}
	var s *Schema
	if root.Kind == model.Struct {
		s = b.object(root)
	} else {
		s = b.typeSchema(root)
	}
	s.Description = "" // the tool's description says it
	if len(b.defs) > 0 {
		s.Defs = &b.defs
	}
	js, err := marshal(s)
	if err != nil {
		panic("schema: " + err.Error()) // every value here marshals; failing is a bug
	}
	return js
}

// builder builds one document; recursive named types go to $defs.
type builder struct {
	root      *model.Type
	recursive map[*model.Type]bool
	defs      Properties
	defined   map[*model.Type]string
	noNull    bool // pointers are published as their values alone (forms)
	// output says the document is of what a tool sends. A nil slice, map
	// or []byte is written [], {} or "" there, as encoding/json/v2 writes
	// them: only a pointer may be null.
	output bool
}

// typeSchema returns the schema of a value of type t. A pointer's is its
// value's, null allowed.
func (b *builder) typeSchema(t *model.Type) *Schema {
	switch t.Kind {
	case model.Pointer:
		s := b.typeSchema(t.Elem)
		s.Null = !b.noNull
		return s
	case model.Struct:
		if t == b.root && b.recursive[t] {
			return &Schema{Ref: "#"}
		}
		if b.recursive[t] {
			return &Schema{Ref: "#/$defs/" + b.define(t)}
		}
		return b.object(t)
	case model.Slice:
		return &Schema{Type: "array", Items: b.typeSchema(t.Elem)}
	case model.Array:
		n := t.Len
		return &Schema{Type: "array", Items: b.typeSchema(t.Elem), MinItems: &n, MaxItems: &n}
	case model.Map:
		items, _ := marshal(b.typeSchema(t.Elem))
		s := &Schema{Type: "object", AdditionalProperties: items}
		if enum := t.KeyEnum(); len(enum) > 0 {
			s.PropertyNames = &Schema{Enum: literals(enum)} // the keys: the constants of their type
		}
		return s
	}
	return scalar(t)
}

// define enters a recursive type in $defs once and returns its name.
func (b *builder) define(t *model.Type) string {
	if b.defined == nil {
		b.defined = map[*model.Type]string{}
	}
	if name, ok := b.defined[t]; ok {
		return name
	}
	name := t.Ident()
	for i := 2; b.nameTaken(name); i++ {
		name = t.Ident() + strconv.Itoa(i)
	}
	b.defined[t] = name
	b.defs = append(b.defs, Property{Name: name}) // reserve the slot first: the type refers to itself
	idx := len(b.defs) - 1
	b.defs[idx].Schema = b.object(t)
	return name
}

func (b *builder) nameTaken(name string) bool {
	for _, n := range b.defined {
		if n == name {
			return true
		}
	}
	return false
}

// object is the schema of a struct: its properties in field order, the
// required ones listed, and no others allowed.
func (b *builder) object(t *model.Type) *Schema {
	s := &Schema{Type: "object", Description: t.Doc, Properties: &Properties{}, AdditionalProperties: json.RawMessage("false")}
	for _, f := range t.Fields {
		*s.Properties = append(*s.Properties, Property{Name: f.WireName, Schema: b.field(f)})
		if f.Required {
			s.Required = append(s.Required, f.WireName)
		}
	}
	return s
}

// field is the schema of one property, with its tag's keywords.
func (b *builder) field(f *model.Field) *Schema {
	s := b.typeSchema(f.Type)
	if f.Doc != "" {
		s.Description = f.Doc
	}
	s.Description = withValueDocs(s.Description, f)
	s.Title = f.Constraints.Title
	s.Header = f.Header
	if f.Constraints.NoNull {
		s.Null = false // a property mirrored in a header is one type (x-mcp-header)
	}
	s.Absent = !b.output && !b.noNull && f.NullIsAbsent()
	value := s
	if s.Type == "array" && s.Items != nil && s.ContentEncoding == "" {
		value = s.Items
		applyItems(s, f.Constraints)
	}
	applyValue(value, f.Constraints)
	if value.Type == "" && value.Ref == "" && f.Constraints.Format != "" {
		value.Type = "string" // a type with JSON methods, declared a string by format=
	}
	return s
}

func applyItems(s *Schema, c model.Constraints) {
	if c.MinItems != nil {
		s.MinItems = c.MinItems
	}
	if c.MaxItems != nil {
		s.MaxItems = c.MaxItems
	}
	s.UniqueItems = c.UniqueItems
}

// applyValue adds the value keywords of a tag to the schema of a value (of
// the items, for an array).
func applyValue(s *Schema, c model.Constraints) {
	if len(c.Enum) > 0 {
		s.Enum = literals(c.Enum)
	}
	if c.Default != nil {
		s.Default = json.RawMessage(c.Default.JSON)
	}
	if c.Format != "" {
		s.Format = c.Format
	}
	if c.Pattern != "" {
		s.Pattern = c.Pattern
	}
	if c.MinLength != nil {
		s.MinLength = c.MinLength
	}
	if c.MaxLength != nil {
		s.MaxLength = c.MaxLength
	}
	applyBound(&s.Minimum, &s.ExclusiveMinimum, c.Min, -1)
	applyBound(&s.Maximum, &s.ExclusiveMaximum, c.Max, 1)
	if c.MultipleOf != nil {
		s.MultipleOf = json.RawMessage(c.MultipleOf.Text)
	}
}

// applyBound writes a bound from a tag (dir -1 for a lower bound, 1 for an
// upper one). The range of the Go type, already in incl, stays when the
// tag's bound is looser; an exclusive bound that is tighter replaces it.
func applyBound(incl, excl *json.RawMessage, b *model.Bound, dir float64) {
	if b == nil {
		return
	}
	if *incl != nil {
		typ, _ := strconv.ParseFloat(string(*incl), 64) // the range of an integer type: a number
		if (b.Value-typ)*dir > 0 {
			return
		}
		if b.Exclusive {
			*incl = nil
		}
	}
	if b.Exclusive {
		*excl = json.RawMessage(b.Text)
		return
	}
	*incl = json.RawMessage(b.Text)
}

func literals(vs []model.EnumValue) []json.RawMessage {
	out := make([]json.RawMessage, len(vs))
	for i, v := range vs {
		out[i] = json.RawMessage(v.JSON)
	}
	return out
}

// base64Pattern matches standard, padded base64. contentEncoding alone is
// an annotation that validators need not check; the pattern states what the
// decoder enforces.
const base64Pattern = `^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$`

// durationPattern matches what time.ParseDuration accepts.
const durationPattern = `^[-+]?(0|(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$`

// scalar is the schema of a type without properties or items.
func scalar(t *model.Type) *Schema {
	s := &Schema{}
	switch t.Kind {
	case model.String:
		s.Type = "string"
	case model.Bool:
		s.Type = "boolean"
	case model.Float:
		s.Type = "number"
	case model.Int, model.Uint:
		s.Type = "integer"
		s.Minimum, s.Maximum = intRange(t)
	case model.Time:
		s.Type, s.Format = "string", "date-time"
	case model.Duration:
		s.Type, s.Pattern = "string", durationPattern
	case model.Bytes:
		s.Type, s.ContentEncoding, s.Pattern = "string", "base64", base64Pattern
	case model.TextMethod:
		s.Type = "string"
	}
	if len(t.Enum) > 0 {
		s.Enum = literals(t.Enum)
	}
	return s
}

// intRange is the range of an integer type narrower than int64 (and the
// lower bound of every unsigned type).
func intRange(t *model.Type) (lo, hi json.RawMessage) {
	if t.Kind == model.Uint {
		lo = json.RawMessage("0")
		if t.Bits < 64 {
			hi = json.RawMessage(strconv.FormatUint(1<<t.Bits-1, 10))
		}
		return lo, hi
	}
	if t.Bits < 64 {
		lo = json.RawMessage(strconv.FormatInt(-1<<(t.Bits-1), 10))
		hi = json.RawMessage(strconv.FormatInt(1<<(t.Bits-1)-1, 10))
	}
	return lo, hi
}

// recursiveTypes finds the named struct types reachable from root that
// contain themselves.
func recursiveTypes(root *model.Type) map[*model.Type]bool {
	rec := map[*model.Type]bool{}
	onStack := map[*model.Type]bool{}
	done := map[*model.Type]bool{}
	var walk func(t *model.Type)
	walk = func(t *model.Type) {
		if t == nil {
			return
		}
		if t.Kind == model.Struct {
			if onStack[t] {
				rec[t] = true
				return
			}
			if done[t] {
				return
			}
			onStack[t] = true
			for _, f := range t.Fields {
				walk(f.Type)
			}
			onStack[t], done[t] = false, true
			return
		}
		walk(t.Elem)
	}
	walk(root)
	return rec
}

// withValueDocs appends to a description the doc comments of the enum's
// constants, one line a value, when any has one: JSON Schema has no keyword
// for them that clients read, and a model reads the description.
func withValueDocs(desc string, f *model.Field) string {
	t := f.Type
	for t.Kind == model.Pointer || t.Kind == model.Slice || t.Kind == model.Array {
		t = t.Elem
	}
	if len(f.Constraints.Enum) > 0 || !slices.ContainsFunc(t.Enum, func(v model.EnumValue) bool { return v.Doc != "" }) {
		return desc
	}
	return model.WithValueDocs(desc, t.Enum)
}
