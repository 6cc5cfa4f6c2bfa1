package analyze

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// This file reads the keywords of an input= schema file into the checks
// of the decoder: objects, lists, maps and scalars (see inputfile.go).

// object returns the clone of the struct type t that checks what the
// schemas nodes say of an object: the properties, which must be the Go
// type's, each with its own checks; required; and additionalProperties,
// false for the decoder to refuse other properties, else to skip them.
func (fs *fileSchema) object(nodes []*jnode, t *model.Type, what string) *model.Type {
	key := cloneKey{t, objectKey(nodes)}
	if c := fs.clones[key]; c != nil {
		return c // a recursive type, or one schema met twice
	}
	clone := *t
	clone.Fields = make([]*model.Field, 0, len(t.Fields))
	fs.clones[key] = &clone
	props := fs.properties(nodes, t)
	required := fs.required(nodes, t, what)
	ap := lookup(nodes, "additionalProperties")
	clone.Open = ap == nil || ap.val.kind != 'f'
	if ap != nil && ap.val.kind == '{' {
		fs.warn(ap.pos, "additionalProperties of %s is a schema, which is not checked: properties that are not the Go type's are skipped", what)
	}
	for _, f := range t.Fields {
		nf := *f
		nf.Required = required[f.WireName]
		nf.Constraints = model.Constraints{Title: f.Constraints.Title, Default: f.Constraints.Default}
		m := props[f.WireName]
		switch {
		case m == nil:
		case fs.opaque(m.val):
			nf.Constraints = f.Constraints // the file's schema of it is not known: the tag's checks stay
		default:
			nf.Type = fs.value(m.val, f.Type, slot{c: &nf.Constraints, whole: true, optional: !nf.Required}, "property "+f.WireName)
			fs.droppedTagChecks(f, &nf)
			fs.headerPublished(f, m.val)
		}
		clone.Fields = append(clone.Fields, &nf)
	}
	return &clone
}

// opaque reports whether schema n refers to one the file cannot resolve.
func (fs *fileSchema) opaque(n *jnode) bool {
	_, _, ok := fs.expand(n)
	return !ok
}

// objectKey identifies the schemas of an object by those of nodes that
// say something of its properties, so that a $ref met again, alone or in
// an anyOf with null, gives the clone it gave before.
func objectKey(nodes []*jnode) string {
	var b strings.Builder
	for _, n := range nodes {
		if n.get("properties") != nil || n.get("required") != nil || n.get("additionalProperties") != nil {
			b.WriteString(strconv.Itoa(n.pos.Offset))
			b.WriteByte(',')
		}
	}
	return b.String()
}

// properties returns the members of the properties of nodes by name,
// after checking that they name the Go type's properties, no more and no
// fewer: each property the decoder reads is published, and each published
// one is read.
func (fs *fileSchema) properties(nodes []*jnode, t *model.Type) map[string]*jmember {
	props := map[string]*jmember{}
	at := nodes[len(nodes)-1].pos
	var names []string
	wire := map[string]bool{}
	for _, f := range t.Fields {
		wire[f.WireName] = true
		names = append(names, f.WireName)
	}
	for _, n := range nodes {
		m := n.get("properties")
		if m == nil {
			continue
		}
		at = m.pos
		for i := range m.val.members {
			p := &m.val.members[i]
			if !wire[p.name] {
				fs.fail(p.pos, "property %q is not a field of the Go type (its properties: %s)", p.name, strings.Join(names, ", "))
				continue
			}
			props[p.name] = p
		}
	}
	for _, name := range names {
		if props[name] == nil {
			fs.fail(at, "property %q of the Go type is missing from \"properties\"", name)
		}
	}
	return props
}

// required returns the names the required keywords of nodes list, each of
// which must be a property of the Go type.
func (fs *fileSchema) required(nodes []*jnode, t *model.Type, what string) map[string]bool {
	out := map[string]bool{}
	for _, n := range nodes {
		m := n.get("required")
		if m == nil {
			continue
		}
		for _, it := range m.val.items {
			if !hasField(t, it.text) {
				fs.fail(it.pos, "%s requires %q, which is not a property of the Go type", what, it.text)
			}
			out[it.text] = true
		}
	}
	return out
}

// hasField reports whether struct type t has a property named name.
func hasField(t *model.Type, name string) bool {
	for _, f := range t.Fields {
		if f.WireName == name {
			return true
		}
	}
	return false
}

// list reads the item counts and uniqueness of a list into the slot (a
// list nested in another has none) and its items' schema into their type.
func (fs *fileSchema) list(nodes []*jnode, t *model.Type, s slot, what string) *model.Type {
	for _, k := range []string{"minItems", "maxItems", "uniqueItems"} {
		m := lookup(nodes, k)
		switch {
		case m == nil:
		case s.c == nil || !s.whole:
			fs.notChecked(m, what, "a list inside a list or a map")
		case k == "uniqueItems":
			s.c.UniqueItems = m.val.kind == 't'
		default:
			n, ok := m.val.count()
			if !ok {
				fs.warn(m.pos, "%s of %s is not a count; not checked", k, what)
				continue
			}
			if k == "minItems" {
				s.c.MinItems = &n
			} else {
				s.c.MaxItems = &n
			}
		}
	}
	items := lookup(nodes, "items")
	if items == nil {
		items = &jmember{name: "items", pos: nodes[len(nodes)-1].pos, val: &jnode{pos: nodes[len(nodes)-1].pos, kind: '{'}}
	}
	if items.val.kind == '[' {
		fs.notChecked(items, what, "a list of schemas (draft 4 tuples)")
		return t
	}
	elem := fs.value(items.val, t.Elem, itemSlot(s), "the items of "+what)
	if elem == t.Elem {
		return t
	}
	c := *t
	c.Elem = elem
	return &c
}

// itemSlot is the slot of the items of a list or the values of a map in
// slot s: the field's constraints, where s is the field's own value.
func itemSlot(s slot) slot {
	if !s.whole {
		return slot{}
	}
	return slot{c: s.c}
}

// mapOf reads the schema of a map's values, additionalProperties, into the
// values' type and slot. Named properties are not the Go type's to check.
// Keys of a type with constants lose their check: the file says what keys
// it takes, in propertyNames, which the decoder does not check.
func (fs *fileSchema) mapOf(nodes []*jnode, t *model.Type, s slot, what string) *model.Type {
	if m := lookup(nodes, "properties"); m != nil {
		fs.notChecked(m, what, "a map, whose values share one schema")
	}
	if len(t.KeyEnum()) > 0 {
		if lookup(nodes, "propertyNames") == nil {
			fs.warn(nodes[len(nodes)-1].pos, "%s publishes no propertyNames, so its keys are not checked against the constants of %s", what, typeText(t.Key))
		}
		c := *t
		c.Key = withoutEnum(t.Key)
		t = &c
	}
	ap := lookup(nodes, "additionalProperties")
	if ap == nil {
		ap = &jmember{name: "additionalProperties", pos: nodes[len(nodes)-1].pos, val: &jnode{pos: nodes[len(nodes)-1].pos, kind: '{'}}
	}
	elem := fs.value(ap.val, t.Elem, itemSlot(s), "the values of "+what)
	if elem == t.Elem {
		return t
	}
	c := *t
	c.Elem = elem
	return &c
}

// anyValue warns about each keyword of a value the decoder takes whatever
// it is (any, json.RawMessage, a type with its own UnmarshalJSON).
func (fs *fileSchema) anyValue(nodes []*jnode, t *model.Type, what string) {
	for _, n := range nodes {
		for i := range n.members {
			if m := &n.members[i]; valueKeywords[m.name] {
				fs.notChecked(m, what, "the Go type "+typeText(t)+", which takes what its decoding takes")
			}
		}
	}
}

// valueKeywords are the keywords of a value that the decoder checks where
// it can.
var valueKeywords = map[string]bool{
	"type": true, "enum": true, "const": true, "minimum": true, "maximum": true, "exclusiveMinimum": true,
	"exclusiveMaximum": true, "multipleOf": true, "minLength": true, "maxLength": true, "pattern": true,
	"format": true, "minItems": true, "maxItems": true, "uniqueItems": true, "items": true,
	"properties": true, "required": true, "additionalProperties": true,
}

// notChecked warns that keyword m of what is published but not checked,
// and why.
func (fs *fileSchema) notChecked(m *jmember, what, why string) {
	fs.warn(m.pos, "%s of %s is published but not checked: the decoder checks no %s in %s", m.name, what, m.name, why)
}

// scalar reads the keywords of a string, number or boolean into its slot:
// the enum (or const), and the bounds, lengths, pattern and format that
// apply to its type. A named type whose constants the file does not list
// loses their check: the clone returned has no enum.
func (fs *fileSchema) scalar(nodes []*jnode, t *model.Type, s slot, what string) *model.Type {
	out := t
	if enum, m := enumValues(nodes); m != nil {
		vals := fs.enum(enum, t, what)
		if s.c == nil {
			fs.notChecked(m, what, "a value nested this deep")
		} else {
			s.c.Enum = vals
		}
	} else if len(t.Enum) > 0 {
		c := *t
		c.Enum = nil
		out = &c
		fs.warn(nodes[len(nodes)-1].pos, "%s publishes no enum, so the constants of %s are not checked", what, typeText(t))
	}
	for _, n := range nodes {
		for i := range n.members {
			fs.keyword(&n.members[i], t, s, what)
		}
	}
	return out
}

// keyword reads one keyword of a scalar into its slot, where it applies to
// the scalar's type: a keyword for numbers on a string constrains nothing.
// A single switch over the keywords.
func (fs *fileSchema) keyword(m *jmember, t *model.Type, s slot, what string) {
	numeric := t.Kind == model.Int || t.Kind == model.Uint || t.Kind == model.Float
	text := t.Kind == model.String || t.Kind == model.TextMethod
	stringy := goJSON(t) == "string"
	switch m.name {
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
		if numeric {
			fs.bound(m, s, what)
		}
	case "minLength", "maxLength", "pattern":
		switch {
		case !stringy:
		case !text:
			fs.notChecked(m, what, "the Go type "+typeText(t)+", which reads its own syntax")
		case s.c == nil:
			fs.notChecked(m, what, "a value nested this deep")
		case m.name == "pattern":
			fs.pattern(m, s.c, what)
		default:
			fs.length(m, s.c, what)
		}
	case "format":
		if stringy {
			fs.format(m, t, s, what)
		}
	}
}

// bound reads a numeric bound into the slot. Of minimum and
// exclusiveMinimum, the tighter is kept (likewise for the maxima): the
// decoder holds one of each, and the tighter checks both.
func (fs *fileSchema) bound(m *jmember, s slot, what string) {
	v, ok := m.val.number()
	switch {
	case !ok || math.IsInf(v, 0):
		fs.warn(m.pos, "%s of %s is not a number the decoder can compare with; not checked", m.name, what)
		return
	case s.c == nil:
		fs.notChecked(m, what, "a value nested this deep")
		return
	case m.name == "multipleOf" && v <= 0:
		fs.warn(m.pos, "multipleOf of %s must be greater than 0; not checked", what)
		return
	}
	b := &model.Bound{Text: m.val.text, Value: v, Exclusive: strings.HasPrefix(m.name, "exclusive")}
	switch m.name {
	case "multipleOf":
		s.c.MultipleOf = b
	case "minimum", "exclusiveMinimum":
		if old := s.c.Min; old == nil || v > old.Value || v == old.Value && b.Exclusive {
			s.c.Min = b
		}
	default:
		if old := s.c.Max; old == nil || v < old.Value || v == old.Value && b.Exclusive {
			s.c.Max = b
		}
	}
}

// length reads minLength or maxLength into c.
func (fs *fileSchema) length(m *jmember, c *model.Constraints, what string) {
	n, ok := m.val.count()
	if !ok {
		fs.warn(m.pos, "%s of %s is not a count; not checked", m.name, what)
		return
	}
	if m.name == "minLength" {
		c.MinLength = &n
	} else {
		c.MaxLength = &n
	}
}

// pattern reads a pattern into c, if Go's regexp compiles it: the
// decoder matches with Go's regexp, which has no lookaround and no
// backreferences.
func (fs *fileSchema) pattern(m *jmember, c *model.Constraints, what string) {
	if _, err := regexp.Compile(m.val.text); m.val.kind != '"' || err != nil {
		fs.warn(m.pos, "pattern of %s is not a regular expression Go's regexp compiles (%v); not checked", what, err)
		return
	}
	c.Pattern = m.val.text
}

// format reads a format into the slot where the decoder checks it: a
// time.Time checks date-time itself, a string the formats mcpimpl knows.
func (fs *fileSchema) format(m *jmember, t *model.Type, s slot, what string) {
	f := m.val.text
	switch {
	case t.Kind == model.Time && f == "date-time":
	case t.Kind != model.String && t.Kind != model.TextMethod:
		fs.notChecked(m, what, "the Go type "+typeText(t)+", which reads its own syntax")
	case !mcpimpl.EnforcesFormat(f):
		fs.warn(m.pos, "format %q of %s is published but not checked: the decoder checks date-time, date, time, email, uri, uuid, ipv4 and ipv6", f, what)
	case s.c == nil:
		fs.notChecked(m, what, "a value nested this deep")
	default:
		s.c.Format = f
	}
}

// enum converts the values of an enum (or const) to literals of the Go
// type t; null stands for a nil pointer and is left out. A value the Go
// type cannot hold is an error.
func (fs *fileSchema) enum(vals []*jnode, t *model.Type, what string) []model.EnumValue {
	var out []model.EnumValue
	for _, v := range vals {
		lit, ok := enumLiteral(v, t)
		switch {
		case v.kind == 'n':
		case !ok:
			fs.fail(v.pos, "enum value %s of %s is not a value of its Go type %s", jsonText(v), what, typeText(t))
		default:
			out = append(out, lit)
		}
	}
	return out
}

// enumLiteral converts one enum value to JSON and Go literals of t.
func enumLiteral(v *jnode, t *model.Type) (model.EnumValue, bool) {
	switch {
	case v.kind == '"' && (t.Kind == model.String || t.Kind == model.TextMethod):
		return model.EnumValue{JSON: model.JSONQuote(v.text), Go: strconv.Quote(v.text)}, true
	case (v.kind == 't' || v.kind == 'f') && t.Kind == model.Bool:
		return model.EnumValue{JSON: v.text, Go: v.text}, true
	case v.kind != '0' || t.Kind != model.Int && t.Kind != model.Uint && t.Kind != model.Float:
		return model.EnumValue{}, false
	}
	lit, bad := literal(v.text, t)
	if bad == "" {
		return lit, true
	}
	f, err := strconv.ParseFloat(v.text, 64) // 1.0 and 1e2 are whole numbers too
	if err != nil || f != math.Trunc(f) || t.Kind == model.Float || math.Abs(f) > 1<<53 {
		return model.EnumValue{}, false
	}
	lit, bad = literal(strconv.FormatFloat(f, 'f', -1, 64), t)
	return lit, bad == ""
}

// jsonText is a node's value as JSON, for messages.
func jsonText(n *jnode) string {
	if n.kind == '"' {
		return model.JSONQuote(n.text)
	}
	if n.kind == '{' || n.kind == '[' {
		return string(n.kind)
	}
	return n.text
}

// droppedTagChecks warns about each check of f's mcp tag that the file
// does not publish for it: the file says what is checked, so it is
// dropped.
func (fs *fileSchema) droppedTagChecks(f, nf *model.Field) {
	c, k := f.Constraints, nf.Constraints
	for _, d := range []struct {
		key     string
		tag, in bool
	}{
		{"enum", c.Enum != nil, k.Enum != nil},
		{"min", c.Min != nil && !c.Min.Exclusive, k.Min != nil}, {"exclusiveMin", c.Min != nil && c.Min.Exclusive, k.Min != nil},
		{"max", c.Max != nil && !c.Max.Exclusive, k.Max != nil}, {"exclusiveMax", c.Max != nil && c.Max.Exclusive, k.Max != nil},
		{"multipleOf", c.MultipleOf != nil, k.MultipleOf != nil},
		{"minLength", c.MinLength != nil, k.MinLength != nil}, {"maxLength", c.MaxLength != nil, k.MaxLength != nil},
		{"pattern", c.Pattern != "", k.Pattern != ""}, {"format", c.Format != "", k.Format != ""},
		{"minItems", c.MinItems != nil, k.MinItems != nil}, {"maxItems", c.MaxItems != nil, k.MaxItems != nil},
		{"uniqueItems", c.UniqueItems, k.UniqueItems},
	} {
		if d.tag && !d.in {
			fs.a.warnAt(f.Pos, "property %s: the mcp tag's %s is not checked, as schema file %s says what is: publish it there", f.WireName, d.key, fs.name)
		}
	}
}

// headerPublished warns when f's tag mirrors it in a header (header=) that
// its schema in the file does not name with x-mcp-header: the file is
// what clients read, so no client would send the header.
func (fs *fileSchema) headerPublished(f *model.Field, n *jnode) {
	if f.Header == "" {
		return
	}
	if m := n.get("x-mcp-header"); m == nil || m.val.text != f.Header {
		fs.a.warnAt(f.Pos, "property %s: the mcp tag's header=%s is not published, as schema file %s says what is: add \"x-mcp-header\": %q there", f.WireName, f.Header, fs.name, f.Header)
	}
}
