package model

import (
	"go/token"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/internal/jsonx"
)

// Kind is the JSON shape of a Go type.
type Kind int

// The kinds of the type table.
const (
	String     Kind = iota // string kinds
	Int                    // signed integers; Bits says which
	Uint                   // unsigned integers; Bits says which
	Float                  // float32, float64
	Bool                   // bool kinds
	Time                   // time.Time: an RFC 3339 date-time string
	Duration               // time.Duration: a Go duration string
	Bytes                  // []byte: a base64 string
	Raw                    // json.RawMessage: any JSON value, kept verbatim
	Any                    // any: any JSON value, decoded as encoding/json does
	Struct                 // an object with fixed properties
	Slice                  // []T
	Array                  // [N]T
	Map                    // map[K]T, K of a string kind
	Pointer                // *T: as T or null, optional
	JSONMethod             // a type with its own MarshalJSON or UnmarshalJSON: decoded by them
	TextMethod             // a type with UnmarshalText (and no JSON methods): a string decoded by it
)

// GoName is a Go type name: an import path (empty for a predeclared type or
// a type of the generated package itself) and a name.
type GoName struct {
	Path string
	Pkg  string // the package's name, for the import
	Name string
	Args []*Type // type arguments of an instantiated generic type
}

// Type is a Go type as the schema and the decoders see it.
type Type struct {
	Kind  Kind
	Bits  int     // Int, Uint, Float: 8 to 64; 0 for int and uint
	Named *GoName // the defined type, when the type has a name
	Basic string  // the predeclared type name for basic kinds (int8, string, ...)
	Elem  *Type   // Slice, Array, Map values, Pointer
	Key   *Type   // Map keys: string, or a named string type, whose Enum the keys are checked against
	Len   int     // Array
	Doc   string  // doc comment of a named type
	Enum  []EnumValue
	// Fields of a Struct, flattened as encoding/json flattens embedded
	// structs, in wire order.
	Fields []*Field
	// Local marks a struct type the generator declares itself (the
	// arguments of a positional tool).
	Local bool
	// Open says that the decoder skips properties that are not the
	// struct's rather than refuse them: an input= schema file allows them.
	Open bool
	// Layouts are the declared fields of a named struct type and of the
	// structs embedded in it, as the generated file was made from them,
	// so that a field added, removed or changed breaks the build. A
	// struct whose fields cannot all be written in the generated file
	// (unexported fields of another package) has none.
	Layouts []Layout
}

// Layout is a named struct type with its fields in declaration order:
// the generated file converts a value of the type to a struct type of
// these fields, which compiles only while they are what they were.
type Layout struct {
	Ident  string   // a Go identifier fragment naming the type, as Type.Ident
	Type   TypeExpr // the type itself, as written in a composite literal
	Fields []LayoutField
}

// LayoutField is one declared field: its name, empty when embedded, and
// its type. Tags are left out: struct conversion ignores them.
type LayoutField struct {
	Name string
	Type TypeExpr
}

// TypeExpr is a Go type expression as pieces of source text, each either
// plain text ("[]", "map[", "struct{") or a name qualified by the import
// path of the package declaring it.
type TypeExpr []TypePiece

// TypePiece is a piece of a TypeExpr: Text alone, or the name Text of the
// package at Path, whose package name is Pkg.
type TypePiece struct {
	Text string
	Path string
	Pkg  string
}

// EnumValue is one allowed value: a constant of a named type, or a value
// written in enum=.
type EnumValue struct {
	JSON string // the JSON literal: "emea" or 3
	Go   string // the Go literal: "emea" or 3
	Doc  string
}

// EnumOf is the enum a value of type t is checked against: its tag's
// (c, which may be nil), else the constants of its type.
func EnumOf(t *Type, c *Constraints) []EnumValue {
	if c != nil && len(c.Enum) > 0 {
		return c.Enum
	}
	return t.Enum
}

// KeyEnum is the enum the keys of the map t are checked against: the
// constants of its key type, or none.
func (t *Type) KeyEnum() []EnumValue {
	if t.Key == nil {
		return nil
	}
	return t.Key.Enum
}

// NamedKey reports whether the keys of the map t are of a named type, to
// be converted to and from strings.
func (t *Type) NamedKey() bool { return t.Key != nil && t.Key.Named != nil }

// JSONQuote quotes s as a JSON string, whole, as encoding/json writes it.
func JSONQuote(s string) string { return string(jsonx.AppendString(nil, s)) }

// WithValueDocs appends to a description the enum values with their doc
// comments, one line a value: JSON Schema has no keyword for them that
// clients read, and a model reads the description.
func WithValueDocs(desc string, vals []EnumValue) string {
	var b strings.Builder
	b.WriteString(desc)
	if desc != "" {
		b.WriteString("\n\n")
	}
	b.WriteString("Values:")
	for _, v := range vals {
		b.WriteString("\n- " + v.JSON)
		if v.Doc != "" {
			b.WriteString(": " + strings.ReplaceAll(v.Doc, "\n", " "))
		}
	}
	return b.String()
}

// ArgumentDescription is the description of f as a prompt argument. A
// prompt argument has no schema, so the values of its enum are said after
// its doc comment: with their doc comments as in a schema's description
// when the type's constants have some, else as "One of: ...".
func (f *Field) ArgumentDescription() string {
	t := f.Type
	for t.Kind == Pointer {
		t = t.Elem
	}
	enum := f.Constraints.Enum
	if len(enum) == 0 {
		enum = t.Enum
		if slices.ContainsFunc(enum, func(v EnumValue) bool { return v.Doc != "" }) {
			return WithValueDocs(f.Doc, enum)
		}
	}
	if len(enum) == 0 {
		return f.Doc
	}
	vals := make([]string, len(enum))
	for i, v := range enum {
		vals[i] = v.JSON
	}
	desc := f.Doc
	if desc != "" {
		desc += "\n\n"
	}
	return desc + "One of: " + strings.Join(vals, ", ") + "."
}

// Step is one selector on the way from a struct to a promoted field.
type Step struct {
	Name    string
	Pointer bool  // the embedded field is a pointer
	Type    *Type // the embedded struct type (for allocating a pointer)
}

// Field is one property of an object.
type Field struct {
	Pos         token.Position
	Path        []Step // selectors from the struct; the last one is the field itself
	WireName    string
	Type        *Type
	Required    bool
	Doc         string
	Constraints Constraints // the checks and schema keywords of its mcp tag
	// OmitEmpty and OmitZero are the json tag options: the encoder leaves
	// the property out when the value is empty or zero.
	OmitEmpty, OmitZero bool
	// Complete names the package function that completes the value of a
	// prompt argument or template variable (complete=), or is "".
	// CompleteMethod says it names a method of the prompt's or resource's
	// receiver instead, called on the value the catalog is bound to.
	Complete       string
	CompleteMethod bool
	// Header is the name HTTP clients mirror a tool property's value
	// under (header=, published as x-mcp-header), or "".
	Header string
	// Nolint are the -lint rules silenced on the field (nolint=), each
	// PROFILE:KEYWORD.
	Nolint []string
}

// NullIsAbsent reports whether null stands for the property left out: a
// property that may be left out takes null, as strict clients send it
// for what they omit, and its input schema allows null. A value that
// takes null already (a pointer, any, raw JSON, a type with JSON methods)
// keeps its own meaning of null, and NoNull keeps a property to one type.
func (f *Field) NullIsAbsent() bool {
	switch f.Type.Kind {
	case Pointer, Any, Raw, JSONMethod:
		return false
	}
	return !f.Required && !f.Constraints.NoNull
}

// Constraints are the checks and schema keywords of an mcp tag.
type Constraints struct {
	Title, Format, Pattern string
	Default                *EnumValue // the default as JSON and Go literals
	Enum                   []EnumValue
	Min, Max               *Bound
	MultipleOf             *Bound
	MinLength, MaxLength   *int
	MinItems, MaxItems     *int
	UniqueItems            bool
	// NoNull refuses null for a pointer, whose decoder otherwise takes it
	// for nil and whose schema allows it, and for a property that may be
	// left out (see Field.NullIsAbsent): a property mirrored in a header
	// (header=) is published as one type, as x-mcp-header requires, and an
	// input= file's property allows null only where its schema says so.
	NoNull bool
	// NoNullItems refuses null for the pointers that are the items of a
	// list or the values of a map: an input= schema file allows none.
	NoNullItems bool
}

// Bound is a numeric bound as written and as a number.
type Bound struct {
	Text      string
	Value     float64
	Exclusive bool
}

// ComparesAsGo reports whether two values of t are equal as Go values
// exactly when their JSON values are, so that uniqueItems can compare
// items of t in Go: strings, integers, floating-point numbers (two numbers
// that round to one float are one value to the handler) and booleans.
// Items of other types compare by their JSON.
func (t *Type) ComparesAsGo() bool {
	switch t.Kind {
	case String, Int, Uint, Float, Bool:
		return true
	}
	return false
}

// Ident is a Go identifier fragment naming t, distinct for each
// instantiation of a generic type: Page_Item, Pair_string_bool,
// Page_slice_int.
func (t *Type) Ident() string {
	if t.Named != nil {
		s := t.Named.Name
		for _, a := range t.Named.Args {
			s += "_" + a.Ident()
		}
		return s
	}
	switch t.Kind {
	case Pointer:
		return "ptr_" + t.Elem.Ident()
	case Slice:
		return "slice_" + t.Elem.Ident()
	case Array:
		return "array" + itoa(t.Len) + "_" + t.Elem.Ident()
	case Map:
		if t.NamedKey() {
			return "map_" + t.Key.Ident() + "_" + t.Elem.Ident()
		}
		return "map_" + t.Elem.Ident()
	case Bytes:
		return "bytes"
	case Any:
		return "any"
	case Struct:
		return "struct"
	}
	return t.Basic
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
