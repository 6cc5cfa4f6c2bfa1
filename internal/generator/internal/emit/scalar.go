package emit

import (
	"strings"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
)

// scalar decodes a value without properties or items into target, wrapped
// in the checks of its tag. A value with an enum other than a string's is
// checked by a switch, and so goes through a numbered local (x0, x1, ...).
func (e *emitter) scalar(t *model.Type, target *jen.Statement, c *model.Constraints, depth int) []jen.Code {
	read := e.readCall(t)
	enum := model.EnumOf(t, c)
	if (t.Kind == model.String || t.Kind == model.TextMethod) && len(enum) > 0 {
		// A string enum is read by Decoder.Enum, which checks it and hands
		// back the allowed string itself, without allocating; a type that
		// reads itself from text gets that string.
		read = jen.Id(e.l.dec).Dot("Enum").Call(jen.Id(e.enumVar(enum)))
		if t.Kind == model.String && needsConversion(t) {
			read = jen.Add(goType(t)).Call(read)
		}
		enum = nil
	}
	var out []jen.Code
	if len(enum) > 0 {
		x := jen.Id(local(e.l.enumVal, depth))
		out = append(out, jen.Add(x).Op(":=").Add(read), e.enumCheck(t, x, enum))
		read = x
	}
	value := e.checked(t, read, c)
	if t.Kind == model.TextMethod {
		return append(out, jen.Id(e.l.dec).Dot("UnmarshalText").Call(jen.Op("&").Add(target), value))
	}
	return append(out, jen.Add(target).Op("=").Add(value))
}

// readCall is the Decoder call reading a value of t, converted to t.
func (e *emitter) readCall(t *model.Type) jen.Code {
	d := jen.Id(e.l.dec)
	var call *jen.Statement
	switch t.Kind {
	case model.String:
		call = d.Dot("String").Call()
	case model.TextMethod:
		return d.Dot("String").Call()
	case model.Int:
		call = d.Dot("Int").Call(jen.Lit(t.Bits))
	case model.Uint:
		call = d.Dot("Uint").Call(jen.Lit(t.Bits))
	case model.Float:
		call = d.Dot("Float").Call(jen.Lit(t.Bits))
	case model.Bool:
		call = d.Dot("Bool").Call()
	case model.Time:
		return d.Dot("Time").Call()
	case model.Duration:
		return d.Dot("Duration").Call()
	case model.Bytes:
		return d.Dot("Bytes").Call()
	case model.Raw:
		return d.Dot("Raw").Call()
	default:
		return d.Dot("Any").Call()
	}
	if needsConversion(t) {
		return jen.Add(goType(t)).Call(call)
	}
	return call
}

// needsConversion reports whether the Decoder's result type differs from t.
func needsConversion(t *model.Type) bool {
	if t.Named != nil {
		return true
	}
	switch t.Kind {
	case model.String:
		return t.Basic != "string"
	case model.Int:
		return t.Basic != "int64"
	case model.Uint:
		return t.Basic != "uint64"
	case model.Float:
		return t.Basic != "float64"
	case model.Bool:
		return t.Basic != "bool"
	}
	return false
}

// checked wraps the value x in the checks of the tag's bounds, lengths,
// format and pattern, in that order.
func (e *emitter) checked(t *model.Type, x jen.Code, c *model.Constraints) jen.Code {
	if c == nil {
		return x
	}
	check := func(fn rtIdent, args ...jen.Code) {
		x = fn.qual().Call(append([]jen.Code{jen.Id(e.l.dec), x}, args...)...)
	}
	if c.Min != nil || c.Max != nil || c.MultipleOf != nil {
		check(rtCheckBounds, jen.Op("&").Id(e.boundsVar(c)))
	}
	if t.Kind != model.String && t.Kind != model.TextMethod {
		return x
	}
	if c.MinLength != nil || c.MaxLength != nil {
		check(rtCheckLength, jen.Lit(intOr(c.MinLength, 0)), jen.Lit(intOr(c.MaxLength, -1)))
	}
	if c.Format != "" && e.cfg.EnforcesFormat != nil && e.cfg.EnforcesFormat(c.Format) {
		check(rtCheckFormatOf, jen.Lit(c.Format))
	}
	if c.Pattern != "" {
		check(rtCheckPattern, jen.Id(e.patternVar(c.Pattern)))
	}
	return x
}

func withoutEnum(c *model.Constraints) *model.Constraints {
	if c == nil {
		return nil
	}
	out := *c
	out.Enum = nil
	return &out
}

// enumVar returns the package variable listing the allowed strings of a
// string enum, one variable for each distinct list.
func (e *emitter) enumVar(enum []model.EnumValue) string {
	key := quoteList(enum)
	if name, ok := e.enums[key]; ok {
		return name
	}
	name := names.Enum(len(e.enums))
	e.enums[key] = name
	e.f.Var().Id(name).Op("=").Index().String().ValuesFunc(func(g *jen.Group) {
		for _, v := range enum {
			g.Id(v.Go)
		}
	})
	e.f.Line()
	return name
}

// enumCheck is a switch over the allowed values.
func (e *emitter) enumCheck(t *model.Type, x jen.Code, enum []model.EnumValue) jen.Code {
	vals := make([]jen.Code, len(enum))
	for i, v := range enum {
		vals[i] = jen.Id(v.Go)
	}
	return jen.Switch(x).Block(
		jen.Case(vals...),
		jen.Default().Block(jen.Id(e.l.dec).Dot("BadEnum").Call(gotText(t, x), rawString(quoteList(enum)))),
	)
}

// gotText formats a value for a message, as JSON.
func gotText(t *model.Type, x jen.Code) jen.Code {
	switch t.Kind {
	case model.String:
		return rtQuote.qual().Call(jen.String().Call(x))
	case model.Int:
		return jen.Qual("strconv", "FormatInt").Call(jen.Int64().Call(x), jen.Lit(10))
	case model.Uint:
		return jen.Qual("strconv", "FormatUint").Call(jen.Uint64().Call(x), jen.Lit(10))
	case model.Bool:
		return jen.Qual("strconv", "FormatBool").Call(jen.Bool().Call(x))
	}
	return jen.Qual("strconv", "FormatFloat").Call(jen.Float64().Call(x), jen.LitRune('g'), jen.Lit(-1), jen.Lit(64))
}

// boundsVar returns the package variable holding the numeric bounds of c,
// one variable for each distinct set of bounds.
func (e *emitter) boundsVar(c *model.Constraints) string {
	key := boundsKey(c)
	if name, ok := e.bounds[key]; ok {
		return name
	}
	var fs []field
	if b := c.Min; b != nil {
		fs = append(fs, field{"Min", jen.Id(b.Text)}, field{"MinText", jen.Lit(b.Text)})
		if b.Exclusive {
			fs = append(fs, field{"ExclusiveMin", jen.True()})
		}
	}
	if b := c.Max; b != nil {
		fs = append(fs, field{"Max", jen.Id(b.Text)}, field{"MaxText", jen.Lit(b.Text)})
		if b.Exclusive {
			fs = append(fs, field{"ExclusiveMax", jen.True()})
		}
	}
	if b := c.MultipleOf; b != nil {
		fs = append(fs, field{"MultipleOf", jen.Id(b.Text)}, field{"MultipleOfText", jen.Lit(b.Text)})
	}
	name := names.Bounds(len(e.bounds))
	e.bounds[key] = name
	e.f.Var().Id(name).Op("=").Add(rtBounds.qual()).Values(fields(fs, false)...)
	e.f.Line()
	return name
}

// boundsKey identifies a set of bounds as written.
func boundsKey(c *model.Constraints) string {
	var b strings.Builder
	for _, x := range []*model.Bound{c.Min, c.Max, c.MultipleOf} {
		if x != nil {
			b.WriteString(x.Text)
			if x.Exclusive {
				b.WriteString("!")
			}
		}
		b.WriteString(",")
	}
	return b.String()
}

// patternVar returns the package variable holding the compiled pattern.
func (e *emitter) patternVar(p string) string {
	for i, q := range e.patterns {
		if q == p {
			return names.Pattern(i)
		}
	}
	e.patterns = append(e.patterns, p)
	return names.Pattern(len(e.patterns) - 1)
}

func (e *emitter) patternVars() {
	for i, p := range e.patterns {
		e.f.Var().Id(names.Pattern(i)).Op("=").Qual("regexp", "MustCompile").Call(jen.Lit(p))
	}
}

// rawString is a string literal, backquoted when that reads better.
func rawString(s string) jen.Code {
	if strings.ContainsAny(s, "`\r") || !utf8.ValidString(s) {
		return jen.Lit(s)
	}
	return jen.Id("`" + s + "`")
}
