package emit

import (
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
)

// decodeFunc returns the name of the decode function of a named struct
// type, queuing the function to be written.
func (e *emitter) decodeFunc(t *model.Type) string {
	return e.funcName(names.Decode, t, e.decoders, &e.order)
}

// funcName returns the name of the function nameOf names for type t, taken
// from known or made unique among the emitter's function names; a new type
// is queued in order for its function to be written.
func (e *emitter) funcName(nameOf func(string) string, t *model.Type, known map[*model.Type]string, order *[]*model.Type) string {
	if name, ok := known[t]; ok {
		return name
	}
	name := nameOf(t.Ident())
	for i := 2; e.funcNames[name]; i++ {
		name = nameOf(t.Ident() + strconv.Itoa(i))
	}
	e.funcNames[name] = true
	known[t] = name
	*order = append(*order, t)
	return name
}

// decoder writes the decode function of a named struct type.
func (e *emitter) decoder(t *model.Type) {
	e.f.Func().Id(e.decoders[t]).Params(
		jen.Id(e.l.dec).Op("*").Add(rtDecoder.qual()),
		jen.Id(e.l.val).Op("*").Add(goType(t)),
	).Block(e.objectBody(t, jen.Id(e.l.val), 0)...)
	e.f.Line()
}

// fieldsVar returns the package variable listing the property names of t,
// for suggestions on unknown names.
func (e *emitter) fieldsVar(t *model.Type) string {
	if name, ok := e.fieldVar[t]; ok {
		return name
	}
	name := names.Fields(len(e.fieldVar))
	e.fieldVar[t] = name
	e.f.Var().Id(name).Op("=").Index().String().ValuesFunc(func(g *jen.Group) {
		for _, f := range t.Fields {
			g.Lit(f.WireName)
		}
	})
	e.f.Line()
	return name
}

// objectBody decodes an object into the struct obj (a struct value or a
// pointer to one; selectors work on both): every property once, required
// ones present, unknown ones reported, defaults applied to absent ones.
// Anything but an object is reported by d.Object and skipped.
func (e *emitter) objectBody(t *model.Type, obj jen.Code, depth int) []jen.Code {
	seen := local(e.l.seen, depth)
	var body []jen.Code
	if len(t.Fields) > 0 {
		body = append(body, jen.Var().Id(seen).Index(jen.Lit(len(t.Fields))).Bool())
	}
	cases := make([]jen.Code, 0, len(t.Fields)+1)
	for i, f := range t.Fields {
		cases = append(cases, jen.Case(jen.Lit(f.WireName)).Block(
			append([]jen.Code{
				jen.If(jen.Id(e.l.dec).Dot("Repeated").Call(jen.Op("&").Id(seen).Index(jen.Lit(i)))).Block(jen.Continue()),
			}, e.fieldDecode(f, obj, depth)...)...,
		))
	}
	fields := e.fieldsVar(t)
	if t.Open || e.skipUnknown {
		cases = append(cases, jen.Default().Block(jen.Id(e.l.dec).Dot("Skip").Call()))
	} else {
		cases = append(cases, jen.Default().Block(jen.Id(e.l.dec).Dot("UnknownField").Call(jen.Id(fields))))
	}
	body = append(body, jen.For(jen.Id(e.l.dec).Dot("NextField").Call()).Block(
		jen.Switch(jen.String().Call(jen.Id(e.l.dec).Dot("Key").Call())).Block(cases...),
	))
	if required := requiredIndexes(t); len(required) > 0 {
		body = append(body, jen.Id(e.l.dec).Dot("Require").Call(append([]jen.Code{jen.Id(seen).Index(jen.Op(":")), jen.Id(fields)}, required...)...))
	}
	for i, f := range t.Fields {
		if !f.Required && f.Constraints.Default != nil {
			body = append(body, jen.If(jen.Op("!").Id(seen).Index(jen.Lit(i))).Block(defaultValue(f, obj)...))
		}
	}
	return []jen.Code{jen.If(jen.Id(e.l.dec).Dot("Object").Call()).Block(body...)}
}

// requiredIndexes are the indexes of t's required fields, as literals.
func requiredIndexes(t *model.Type) []jen.Code {
	var out []jen.Code
	for i, f := range t.Fields {
		if f.Required {
			out = append(out, jen.Lit(i))
		}
	}
	return out
}

// defaultValue assigns f's default, allocating a pointer field first.
func defaultValue(f *model.Field, obj jen.Code) []jen.Code {
	target := fieldTarget(f, obj)
	if f.Type.Kind != model.Pointer {
		return []jen.Code{target.Op("=").Id(f.Constraints.Default.Go)}
	}
	return []jen.Code{
		fieldTarget(f, obj).Op("=").Add(rtAlloc.qual()).Call(fieldTarget(f, obj)),
		jen.Op("*").Add(target).Op("=").Id(f.Constraints.Default.Go),
	}
}

// fieldTarget is the selector expression of f inside obj.
func fieldTarget(f *model.Field, obj jen.Code) *jen.Statement {
	s := jen.Add(obj)
	for _, step := range f.Path {
		s = s.Dot(step.Name)
	}
	return s
}

// fieldDecode decodes one property, allocating embedded struct pointers on
// its path first. null stands for the property left out where
// f.NullIsAbsent says so: its default is applied, if it has one.
func (e *emitter) fieldDecode(f *model.Field, obj jen.Code, depth int) []jen.Code {
	decode := e.fieldValue(f, obj, depth)
	if !f.NullIsAbsent() {
		return decode
	}
	if f.Constraints.Default == nil {
		return []jen.Code{jen.If(jen.Op("!").Id(e.l.dec).Dot("Null").Call()).Block(decode...)}
	}
	return []jen.Code{jen.If(jen.Id(e.l.dec).Dot("Null").Call()).Block(defaultValue(f, obj)...).Else().Block(decode...)}
}

// fieldValue decodes the value of one property.
func (e *emitter) fieldValue(f *model.Field, obj jen.Code, depth int) []jen.Code {
	var out []jen.Code
	sel := jen.Add(obj)
	for _, step := range f.Path[:len(f.Path)-1] {
		sel = sel.Dot(step.Name)
		if step.Pointer {
			out = append(out, jen.If(jen.Add(sel).Op("==").Nil()).Block(jen.Add(sel).Op("=").Add(rtAlloc.qual()).Call(sel)))
		}
	}
	return append(out, e.value(f.Type, fieldTarget(f, obj), &f.Constraints, depth+1)...)
}

// value decodes a value of type t into the addressable expression target,
// with the checks of c (nil for none).
func (e *emitter) value(t *model.Type, target *jen.Statement, c *model.Constraints, depth int) []jen.Code {
	d := jen.Id(e.l.dec)
	switch t.Kind {
	case model.Pointer:
		newValue := jen.Add(rtAlloc.qual()).Call(target)
		if t.Elem.Kind == model.Time {
			newValue = d.Clone().Dot("NewTime").Call() // from the decoder's block
		}
		alloc := append([]jen.Code{
			jen.Add(target).Op("=").Add(newValue),
		}, e.value(t.Elem, jen.Parens(jen.Op("*").Add(target)), c, depth+1)...)
		if c != nil && c.NoNull {
			return alloc // null is refused by the value's reader
		}
		return []jen.Code{jen.If(d.Clone().Dot("Null").Call()).Block(
			jen.Add(target).Op("=").Nil(),
		).Else().Block(alloc...)}
	case model.Struct:
		if t.Named == nil {
			return e.objectBody(t, target, depth)
		}
		return []jen.Code{jen.Id(e.decodeFunc(t)).Call(jen.Id(e.l.dec), jen.Op("&").Add(target))}
	case model.Slice:
		return e.slice(t, target, c, depth)
	case model.Array:
		return e.array(t, target, c, depth)
	case model.Map:
		return e.mapValue(t, target, c, depth)
	case model.JSONMethod:
		if c != nil && c.Format != "" {
			return []jen.Code{d.Clone().Dot("UnmarshalString").Call(jen.Op("&").Add(target), jen.Lit(c.Format))}
		}
		return []jen.Code{d.Clone().Dot("Unmarshal").Call(jen.Op("&").Add(target))}
	}
	return e.scalar(t, target, c, depth)
}

func (e *emitter) slice(t *model.Type, target *jen.Statement, c *model.Constraints, depth int) []jen.Code {
	last := jen.Add(target).Index(jen.Len(target).Op("-").Lit(1))
	at, body := e.arrayStart(t, c, depth)
	body = append(body,
		jen.For(jen.Id(e.l.dec).Dot("NextElem").Call()).Block(append([]jen.Code{
			jen.Add(target).Op("=").Add(rtGrow.qual()).Call(jen.Id(e.l.dec), target),
		}, e.value(t.Elem, last, itemChecks(c), depth+1)...)...),
		jen.Add(target).Op("=").Add(e.itemsChecked(rtNonNil.qual().Call(target), t, c, at)),
	)
	return []jen.Code{jen.If(jen.Id(e.l.dec).Dot("Array").Call()).Block(body...)}
}

func (e *emitter) array(t *model.Type, target *jen.Statement, c *model.Constraints, depth int) []jen.Code {
	n := local(e.l.count, depth)
	at, body := e.arrayStart(t, c, depth)
	// An item past the last is decoded over an earlier one (n % Len), to
	// be checked as the schema checks every item: the count is wrong
	// then, so the value is not used.
	item := []jen.Code{jen.Id(e.l.dec).Dot("Skip").Call()}
	if t.Len > 0 {
		item = e.value(t.Elem, jen.Add(target).Index(jen.Id(n).Op("%").Lit(t.Len)), itemChecks(c), depth+1)
	}
	body = append(body,
		jen.Id(n).Op(":=").Lit(0),
		jen.For(jen.Id(e.l.dec).Dot("NextElem").Call()).Block(append(item, jen.Id(n).Op("++"))...),
		jen.If(jen.Id(n).Op("!=").Lit(t.Len)).Block(
			jen.Id(e.l.dec).Dot("Errorf").Call(jen.Lit("expected "+strconv.Itoa(t.Len)+" items, got %d"), jen.Id(n)),
		),
		e.uniqueCheck(jen.Add(target).Index(jen.Op(":")), t, c, at),
	)
	return []jen.Code{jen.If(jen.Id(e.l.dec).Dot("Array").Call()).Block(body...)}
}

// arrayStart returns, for an array whose items must be unique (see
// uniqueCheck), the local holding the array's offset in the arguments and
// the statement setting it, taken as the array is opened; else nil and no
// statement.
func (e *emitter) arrayStart(t *model.Type, c *model.Constraints, depth int) (jen.Code, []jen.Code) {
	if c == nil || !c.UniqueItems {
		return nil, nil
	}
	at := local(e.l.at, depth)
	return jen.Id(at), []jen.Code{jen.Id(at).Op(":=").Id(e.l.dec).Dot("ValueStart").Call()}
}
func (e *emitter) mapValue(t *model.Type, target *jen.Statement, c *model.Constraints, depth int) []jen.Code {
	k, v := local(e.l.key, depth), local(e.l.elem, depth)
	var body []jen.Code
	if enum := t.KeyEnum(); len(enum) > 0 {
		// A key of a type with constants is one of them; any other is
		// reported at its path and its value skipped.
		body = append(body, jen.If(jen.Op("!").Id(e.l.dec).Dot("KeyIn").Call(jen.Id(e.enumVar(enum)))).Block(jen.Continue()))
	}
	var keyType jen.Code = jen.String()
	if t.NamedKey() {
		keyType = goType(t.Key)
	}
	body = append(body, jen.Id(k).Op(":=").Add(keyType).Call(jen.Id(e.l.dec).Dot("Key").Call()))
	values := itemChecks(c) // the checks of the values: an input= file's, tags give none
	if decodesByAssignment(t.Elem) {
		// The map entry itself is the target: m[k] = ... needs no copy.
		body = append(body, e.value(t.Elem, jen.Add(target).Index(jen.Id(k)), values, depth+1)...)
	} else {
		// Structs, arrays and text-decoded values are decoded through their
		// address, which a map entry has not: into a zero value, then stored.
		body = append(body, jen.Id(v).Op(":=").Add(rtMapZero.qual()).Call(target))
		body = append(body, e.value(t.Elem, jen.Id(v), values, depth+1)...)
		body = append(body, jen.Add(target).Index(jen.Id(k)).Op("=").Id(v))
	}
	return []jen.Code{jen.If(jen.Id(e.l.dec).Dot("Object").Call()).Block(
		jen.If(jen.Add(target).Op("==").Nil()).Block(jen.Add(target).Op("=").Add(rtNewMap.qual()).Call(target)),
		jen.For(jen.Id(e.l.dec).Dot("NextField").Call()).Block(body...),
	)}
}

// decodesByAssignment reports whether a value of t is decoded by assigning
// to its target alone (with at most reads of it), so that a map entry can be
// the target.
func decodesByAssignment(t *model.Type) bool {
	switch t.Kind {
	case model.Struct, model.Array, model.TextMethod:
		return false
	}
	return true
}

// itemChecks returns the checks that apply to the items of an array field
// or the values of a map field: all but the item counts, which apply to
// the array, and null refused as NoNullItems says.
func itemChecks(c *model.Constraints) *model.Constraints {
	if c == nil {
		return nil
	}
	items := *c
	items.MinItems, items.MaxItems, items.UniqueItems = nil, nil, false
	items.NoNull, items.NoNullItems = c.NoNullItems, false
	return &items
}

// itemsChecked wraps items, a slice of type t, in the checks of its item
// count and uniqueness.
func (e *emitter) itemsChecked(items jen.Code, t *model.Type, c *model.Constraints, at jen.Code) jen.Code {
	if c == nil {
		return items
	}
	if c.MinItems != nil || c.MaxItems != nil {
		items = rtCheckItems.qual().Call(jen.Id(e.l.dec), items, jen.Lit(intOr(c.MinItems, 0)), jen.Lit(intOr(c.MaxItems, -1)))
	}
	if c.UniqueItems {
		items = e.unique(items, t, at)
	}
	return items
}

// uniqueCheck reports repeated items of an array of type t when the tag
// says uniqueItems.
func (e *emitter) uniqueCheck(items jen.Code, t *model.Type, c *model.Constraints, at jen.Code) jen.Code {
	if c == nil || !c.UniqueItems {
		return jen.Null()
	}
	return e.unique(items, t, at)
}

// unique wraps items in the uniqueItems check: a comparison of the Go
// values for items that compare as Go (strings, numbers, booleans), with
// nothing read again unless a problem was found (see mcpimpl.CheckUnique);
// else of the JSON the client sent for each item, read again from the
// array's offset at (see mcpimpl.CheckUniqueJSON).
func (e *emitter) unique(items jen.Code, t *model.Type, at jen.Code) jen.Code {
	if t.Elem.ComparesAsGo() {
		return rtCheckUnique.qual().Call(jen.Id(e.l.dec), items, at)
	}
	return rtCheckUniqueJS.qual().Call(jen.Id(e.l.dec), items, at)
}

// intOr is *p, or def when p is nil.
func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}
