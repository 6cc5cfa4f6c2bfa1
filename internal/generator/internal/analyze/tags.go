package analyze

import (
	"encoding/json"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/internal/generator/internal/diag"
	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
)

// applyTag applies the keys of an mcp tag (or of an //mcp:param directive)
// to f, checking that each makes sense for the field's type. Keys that
// constrain values apply to the items of a slice or array field.
func (a *analyzer) applyTag(f *model.Field, t annotations.Tag, isField bool) bool {
	ok := true
	if t.Required.Set && t.Required.Value {
		f.Required = true
	}
	if t.Optional.Set && t.Optional.Value {
		f.Required = false
	}
	if t.Desc.Set {
		f.Doc = t.Desc.Value
	}
	f.Constraints.Title = t.Title.Value
	items := valueType(f.Type)
	value := items
	if items.Kind == model.Slice || items.Kind == model.Array {
		value = valueType(items.Elem)
	}
	ok = a.checkItems(t, items) && ok
	ok = a.checkNumbers(t, value, &f.Constraints) && ok
	ok = a.checkStrings(t, value, &f.Constraints) && ok
	if t.NoEnum.Value {
		ok = a.noEnum(t, value, f) && ok
		value = valueType(f.Type)
		if value.Kind == model.Slice || value.Kind == model.Array {
			value = valueType(value.Elem)
		}
	}
	ok = a.enumAndDefault(t, value, f) && ok
	ok = a.completer(f, t.Complete) && ok
	if t.Header.Set {
		f.Header = t.Header.Value
		f.Constraints.NoNull = true // x-mcp-header takes a property of one type
		a.headerPos(f, t.Header.Pos)
	}
	f.Nolint = a.nolint(t.Nolint)
	return ok
}

// valueType is t without pointers.
func valueType(t *model.Type) *model.Type {
	for t.Kind == model.Pointer {
		t = t.Elem
	}
	return t
}

func kindName(t *model.Type) string {
	switch t.Kind {
	case model.String, model.TextMethod:
		return "a string"
	case model.JSONMethod:
		return "a type with JSON methods of its own"
	case model.Int, model.Uint:
		return "an integer"
	case model.Float:
		return "a number"
	case model.Bool:
		return "a boolean"
	case model.Struct, model.Map:
		return "an object"
	case model.Slice, model.Array:
		return "an array"
	}
	return "this type"
}

func (a *analyzer) misfit(pos token.Pos, key string, t *model.Type, want string) bool {
	a.errorf(pos, "key %q does not apply to %s: it is for %s", key, kindName(t), want)
	return false
}

func (a *analyzer) checkItems(t annotations.Tag, typ *model.Type) bool {
	isArray := typ.Kind == model.Slice || typ.Kind == model.Array
	for _, k := range []struct {
		name string
		set  bool
		pos  token.Pos
	}{{"minItems", t.MinItems.Set, t.MinItems.Pos}, {"maxItems", t.MaxItems.Set, t.MaxItems.Pos}, {"uniqueItems", t.UniqueItems.Set, t.UniqueItems.Pos}} {
		if k.set && !isArray {
			return a.misfit(k.pos, k.name, typ, "arrays")
		}
	}
	return true
}

// typeText names a model type for a message.
func typeText(t *model.Type) string {
	switch {
	case t.Named != nil:
		return t.Named.Name
	case t.Kind == model.Pointer:
		return "*" + typeText(t.Elem)
	case t.Kind == model.Slice:
		return "[]" + typeText(t.Elem)
	case t.Kind == model.Map && t.NamedKey():
		return "map[" + typeText(t.Key) + "]" + typeText(t.Elem)
	case t.Kind == model.Map:
		return "map[string]" + typeText(t.Elem)
	case t.Kind == model.Struct:
		return "a struct"
	case t.Kind == model.Bytes:
		return "[]byte"
	}
	if t.Basic != "" {
		return t.Basic
	}
	return "any"
}

func intPtr(i annotations.Int) *int {
	if !i.Set {
		return nil
	}
	v := i.Value
	return &v
}

func bound(n annotations.Number, exclusive bool) *model.Bound {
	if !n.Set {
		return nil
	}
	return &model.Bound{Text: n.Text, Value: n.Value, Exclusive: exclusive}
}

func (a *analyzer) checkNumbers(t annotations.Tag, typ *model.Type, c *model.Constraints) bool {
	numeric := typ.Kind == model.Int || typ.Kind == model.Uint || typ.Kind == model.Float
	for _, n := range []struct {
		name string
		v    annotations.Number
	}{{"min", t.Min}, {"max", t.Max}, {"exclusiveMin", t.ExclusiveMin}, {"exclusiveMax", t.ExclusiveMax}, {"multipleOf", t.MultipleOf}} {
		if n.v.Set && !numeric {
			return a.misfit(n.v.Pos, n.name, typ, "numbers")
		}
	}
	if t.Min.Set && t.ExclusiveMin.Set || t.Max.Set && t.ExclusiveMax.Set {
		a.errorf(t.Pos, "set min or exclusiveMin, not both (likewise max and exclusiveMax)")
		return false
	}
	c.Min, c.Max = bound(t.Min, false), bound(t.Max, false)
	if t.ExclusiveMin.Set {
		c.Min = bound(t.ExclusiveMin, true)
	}
	if t.ExclusiveMax.Set {
		c.Max = bound(t.ExclusiveMax, true)
	}
	c.MultipleOf = bound(t.MultipleOf, false)
	return true
}

func (a *analyzer) checkStrings(t annotations.Tag, typ *model.Type, c *model.Constraints) bool {
	for _, k := range []struct {
		name string
		set  bool
		pos  token.Pos
	}{{"minLength", t.MinLength.Set, t.MinLength.Pos}, {"maxLength", t.MaxLength.Set, t.MaxLength.Pos}, {"pattern", t.Pattern.Set, t.Pattern.Pos}, {"format", t.Format.Set, t.Format.Pos}} {
		stringy := typ.Kind == model.String || typ.Kind == model.TextMethod || typ.Kind == model.JSONMethod && k.name == "format"
		if k.set && !stringy {
			return a.misfit(k.pos, k.name, typ, "strings")
		}
	}
	if t.Format.Set {
		a.checkFormat(t.Format)
	}
	c.MinLength, c.MaxLength = intPtr(t.MinLength), intPtr(t.MaxLength)
	c.Pattern, c.Format = t.Pattern.Value, t.Format.Value
	c.MinItems, c.MaxItems = intPtr(t.MinItems), intPtr(t.MaxItems)
	c.UniqueItems = t.UniqueItems.Value
	return true
}

// checkFormat warns of a format JSON Schema does not define, suggesting
// the nearest one as an unknown key does: it is published, but no client
// or decoder checks it, which a misspelling like e-mail never meant.
func (a *analyzer) checkFormat(f annotations.String) {
	known := annotations.Formats()
	if slices.Contains(known, f.Value) {
		return
	}
	a.warnf(f.Pos, "format %q is not one JSON Schema defines, so neither the decoder nor a client checks it%s (known: %s)",
		f.Value, annotations.DidYouMean(f.Value, known), strings.Join(known, ", "))
}

// noEnum applies the noenum key: f's type loses the enum of its
// constants, for this field only. On a map it is the keys' enum.
func (a *analyzer) noEnum(t annotations.Tag, value *model.Type, f *model.Field) bool {
	enum := value.Enum
	if value.Kind == model.Map {
		enum = value.KeyEnum()
	}
	switch {
	case t.Enum.Set:
		a.errorf(t.NoEnum.Pos, "keys \"noenum\" and \"enum\" contradict each other: enum= alone replaces the constants of the type")
		return false
	case len(enum) == 0:
		a.errorf(t.NoEnum.Pos, "key \"noenum\" does not apply to %s, which has no enum of constants", typeText(value))
		return false
	}
	f.Type = withoutEnum(f.Type)
	return true
}

// withoutEnum copies t, and the pointers, slices and arrays on the way to
// the value, with no enum on the value (on a map, on its keys). The cached
// type itself is shared by every field of that type and is left as it is.
func withoutEnum(t *model.Type) *model.Type {
	c := *t
	switch t.Kind {
	case model.Pointer, model.Slice, model.Array:
		c.Elem = withoutEnum(t.Elem)
	case model.Map:
		if t.Key != nil {
			c.Key = withoutEnum(t.Key)
		}
	default:
		c.Enum = nil
	}
	return &c
}

// enumAndDefault converts enum= and default= to literals of the value type.
func (a *analyzer) enumAndDefault(t annotations.Tag, typ *model.Type, f *model.Field) bool {
	ok := true
	if t.Enum.Set {
		for _, s := range t.Enum.Values {
			v, err := literal(s, typ)
			if err != "" {
				a.errorf(t.Enum.Pos, "enum value %q %s", s, err)
				ok = false
				continue
			}
			f.Constraints.Enum = append(f.Constraints.Enum, v)
		}
	}
	if !t.Default.Set {
		return ok
	}
	if typ.Kind == model.TextMethod {
		a.errorf(t.Default.Pos, "key \"default\" does not apply to %s: it reads itself with UnmarshalText, so no Go value can be written for it", typ.Named.Name)
		return false
	}
	v, err := literal(t.Default.Value, typ)
	if err != "" {
		a.errorf(t.Default.Pos, "default %q %s", t.Default.Value, err)
		return false
	}
	if enum := model.EnumOf(valueType(f.Type), &f.Constraints); len(enum) > 0 && !slices.ContainsFunc(enum, func(e model.EnumValue) bool { return e.JSON == v.JSON }) {
		a.errorf(t.Default.Pos, "default %q is not one of the enum values", t.Default.Value)
		return false
	}
	if msg := outside(t.Default.Value, f.Constraints); msg != "" {
		a.errorf(t.Default.Pos, "default %q %s", t.Default.Value, msg)
		return false
	}
	f.Constraints.Default = &v
	if !(t.Required.Set && t.Required.Value) {
		f.Required = false
	}
	return ok
}

// literal converts a value written in a tag to JSON and Go literals of the
// scalar type typ; the second result says what is wrong, or is empty.
func literal(s string, typ *model.Type) (model.EnumValue, string) {
	switch typ.Kind {
	case model.String, model.TextMethod: // the text a TextMethod type is read from
		return model.EnumValue{JSON: model.JSONQuote(s), Go: strconv.Quote(s)}, ""
	case model.Int:
		if _, err := strconv.ParseInt(s, 10, bitsOr64(typ.Bits)); err != nil {
			return model.EnumValue{}, "is not a valid " + typeWord(typ)
		}
	case model.Uint:
		if _, err := strconv.ParseUint(s, 10, bitsOr64(typ.Bits)); err != nil {
			return model.EnumValue{}, "is not a valid " + typeWord(typ)
		}
	case model.Float:
		if !json.Valid([]byte(s)) {
			return model.EnumValue{}, "is not a number"
		}
		if _, err := strconv.ParseFloat(s, bitsOr64(typ.Bits)); err != nil {
			return model.EnumValue{}, "is not a number"
		}
	case model.Bool:
		if s != "true" && s != "false" {
			return model.EnumValue{}, "is not true or false"
		}
	default:
		return model.EnumValue{}, "cannot be written for " + kindName(typ)
	}
	return model.EnumValue{JSON: s, Go: s}, ""
}

func bitsOr64(b int) int {
	if b == 0 {
		return 64
	}
	return b
}

func typeWord(t *model.Type) string {
	if t.Basic != "" {
		return t.Basic
	}
	return "integer"
}

// warnUntyped warns about a property whose values have JSON methods of
// their own and no format= to say what they are: its schema allows any JSON
// value, which tells a client nothing.
func (a *analyzer) warnUntyped(f *model.Field, path string) {
	v := valueType(f.Type)
	for v.Kind == model.Slice || v.Kind == model.Array || v.Kind == model.Map {
		v = valueType(v.Elem)
	}
	if v.Kind == model.JSONMethod && f.Constraints.Format == "" {
		a.diags = append(a.diags, diag.Warningf(f.Pos,
			"%s: type %s has JSON methods of its own, so its schema allows any JSON value; declare a string with format= in the mcp tag", path, v.Named.Name))
	}
}

// outside says how a default (already a valid literal of its type) breaks
// the field's bounds, lengths or pattern; empty when it keeps them.
func outside(s string, c model.Constraints) string {
	if x, err := strconv.ParseFloat(s, 64); err == nil && (c.Min != nil || c.Max != nil) {
		if b := c.Min; b != nil && (x < b.Value || b.Exclusive && x == b.Value) {
			return "is below the " + exclusiveWord(b) + "minimum " + b.Text
		}
		if b := c.Max; b != nil && (x > b.Value || b.Exclusive && x == b.Value) {
			return "is above the " + exclusiveWord(b) + "maximum " + b.Text
		}
	}
	n := utf8.RuneCountInString(s)
	if c.MinLength != nil && n < *c.MinLength || c.MaxLength != nil && n > *c.MaxLength {
		return "has a length outside minLength/maxLength"
	}
	if c.Pattern != "" && !regexp.MustCompile(c.Pattern).MatchString(s) {
		return "does not match the pattern " + c.Pattern
	}
	return ""
}

func exclusiveWord(b *model.Bound) string {
	if b.Exclusive {
		return "exclusive "
	}
	return ""
}
