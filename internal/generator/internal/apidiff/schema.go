package apidiff

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/generator/internal/jsonv"
)

// direction says which way values flow through a schema. Arguments flow
// to the server: the new schema must accept every value the old one did,
// so a narrower schema breaks clients. Results flow to the client: every
// value the new schema allows must be one the old allowed, so a wider
// schema breaks them.
type direction int

const (
	input direction = iota
	output
)

// change records a change of a schema that makes it accept fewer values
// (narrower), more (wider), both (a pattern replaced) or neither (a
// property added to an open object); whether it breaks depends on the
// direction.
func (d *differ) change(where string, dir direction, narrower, wider bool, format string, args ...any) {
	breaking := dir == input && narrower || dir == output && wider
	d.add(breaking, where, format, args...)
}

// schema compares an input or output schema and the definitions it
// refers to.
func (d *differ) schema(where, root string, o, n jsonv.Object, dir direction) {
	s := site{where: where, root: root, dir: dir}
	d.value(s, "", o, n)
	od, _ := o.Object("$defs")
	nd, _ := n.Object("$defs")
	for _, def := range od {
		ov, _ := def.Value.(jsonv.Object)
		if nv, ok := nd.Object(def.Key); ok {
			d.value(s, "$defs."+def.Key, ov, nv)
		}
	}
}

// site names what is compared: the tool, and whether its arguments or
// its result.
type site struct {
	where, root string
	dir         direction
}

// at names the place of path in the schema: "tool x: argument limit",
// "tool x: result field hits[].id", "tool x: arguments" for the root.
func (s site) at(path string) string {
	switch {
	case path == "":
		return s.where + ": " + s.root
	case s.dir == input:
		return s.where + ": argument " + path
	}
	return s.where + ": result field " + path
}

// value compares the schemas of one value at path.
func (d *differ) value(s site, path string, o, n jsonv.Object) {
	// A property that takes null for absent compares as its schema with
	// null in its type, as a list of types says it.
	o, n = jsonv.Nullable(o), jsonv.Nullable(n)
	where := s.at(path)
	if or, nr := o.String("$ref"), n.String("$ref"); or != "" || nr != "" {
		if or != nr {
			d.change(where, s.dir, true, true, "type changed from %s to %s", describe(o), describe(n))
		}
		return
	}
	if !d.types(where, s.dir, o, n) {
		return // a different type: what constrains it no longer compares
	}
	d.composition(where, s.dir, o, n)
	d.enum(where, s.dir, o, n)
	d.bound(where, s.dir, o, n, lower)
	d.bound(where, s.dir, o, n, upper)
	for _, k := range counts {
		d.count(where, s.dir, o, n, k)
	}
	d.multipleOf(where, s.dir, o, n)
	for _, key := range []string{"pattern", "format"} {
		d.keyword(where, s.dir, o, n, key)
	}
	d.unique(where, s.dir, o, n)
	d.object(s, path, o, n)
	if oi, ok := o.Object("items"); ok {
		if ni, ok := n.Object("items"); ok {
			d.value(s, path+"[]", oi, ni)
		}
	}
	if od, nd := jsonv.Text(get(o, "default")), jsonv.Text(get(n, "default")); od != nd && s.dir == input {
		d.add(false, where, "default changed from %s to %s", orNone(o, "default"), orNone(n, "default"))
	}
}

func get(o jsonv.Object, key string) any {
	v, _ := o.Get(key)
	return v
}

func orNone(o jsonv.Object, key string) string {
	if v, ok := o.Get(key); ok {
		return string(jsonv.Marshal(v))
	}
	return "none"
}

// describe names a schema's type for a message.
func describe(s jsonv.Object) string {
	if ref := s.String("$ref"); ref != "" {
		return ref
	}
	if t, ok := s.Get("type"); ok {
		return jsonv.Text(t)
	}
	return "any"
}

// types compares the type keywords, integer being a kind of number, and
// reports whether the types still overlap enough to compare the rest.
func (d *differ) types(where string, dir direction, o, n jsonv.Object) bool {
	ot, nt := o.Types(), n.Types()
	narrower, wider := !covers(nt, ot), !covers(ot, nt)
	switch {
	case narrower && wider:
		d.change(where, dir, true, true, "type changed from %s to %s", describe(o), describe(n))
		return false
	case narrower:
		d.change(where, dir, true, false, "type narrowed from %s to %s", describe(o), describe(n))
	case wider:
		d.change(where, dir, false, true, "type widened from %s to %s", describe(o), describe(n))
	}
	return true
}

// covers reports whether a value of any type of b has a type of a.
func covers(a, b []string) bool {
	if a == nil {
		return true
	}
	if b == nil {
		return false
	}
	for _, t := range b {
		if !slices.Contains(a, t) && !(t == "integer" && slices.Contains(a, "number")) {
			return false
		}
	}
	return true
}

// composition notes a change of anyOf, oneOf, allOf, not or a conditional,
// which mcpgen does not generate but input= files may have. Whether it
// narrows cannot be told without comparing the branches, so it is taken as
// breaking either way, for a person to check.
func (d *differ) composition(where string, dir direction, o, n jsonv.Object) {
	for _, key := range []string{"anyOf", "oneOf", "allOf", "not", "if", "then", "else"} {
		if string(jsonv.Marshal(get(o, key))) != string(jsonv.Marshal(get(n, key))) {
			d.change(where, dir, true, true, "%s changed: check by hand whether clients still agree", key)
		}
	}
}

// enum compares allowed values, an absent enum (or const) allowing any.
func (d *differ) enum(where string, dir direction, o, n jsonv.Object) {
	ov, oLimited := allowed(o)
	nv, nLimited := allowed(n)
	switch {
	case !oLimited && !nLimited:
		return
	case !nLimited:
		d.change(where, dir, false, true, "no longer limited to %s", strings.Join(ov, ", "))
		return
	case !oLimited:
		d.change(where, dir, true, false, "now limited to %s", strings.Join(nv, ", "))
		return
	}
	for _, v := range ov {
		if !slices.Contains(nv, v) {
			d.change(where, dir, true, false, "enum value %s removed", v)
		}
	}
	for _, v := range nv {
		if !slices.Contains(ov, v) {
			d.change(where, dir, false, true, "enum value %s added", v)
		}
	}
}

// allowed returns the values enum or const allows, as JSON, and whether
// the schema limits them at all.
func allowed(s jsonv.Object) ([]string, bool) {
	if c, ok := s.Get("const"); ok {
		return []string{string(jsonv.Marshal(c))}, true
	}
	enum, ok := s.Get("enum")
	if !ok {
		return nil, false
	}
	var out []string
	for _, v := range enum.([]any) {
		out = append(out, string(jsonv.Marshal(v)))
	}
	return out, true
}

// side is a lower or an upper numeric bound, inclusive or exclusive.
type side struct {
	name                  string
	inclusive, exclusive  string
	tighter               func(a, b float64) bool // a is a tighter bound than b
	inclusiveOp, strictOp string
}

var (
	lower = side{"lower bound", "minimum", "exclusiveMinimum", func(a, b float64) bool { return a > b }, ">=", ">"}
	upper = side{"upper bound", "maximum", "exclusiveMaximum", func(a, b float64) bool { return a < b }, "<=", "<"}
)

// limit is one schema's bound on one side.
type limit struct {
	set       bool
	value     float64
	exclusive bool
	text      string
}

func boundOf(s jsonv.Object, sd side) limit {
	var l limit
	for _, key := range []string{sd.inclusive, sd.exclusive} {
		v, ok := s.Get(key)
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(jsonv.Text(v), 64)
		if err != nil {
			continue
		}
		cand := limit{set: true, value: f, exclusive: key == sd.exclusive, text: jsonv.Text(v)}
		if !l.set || sd.tighter(f, l.value) || f == l.value && cand.exclusive {
			l = cand
		}
	}
	return l
}

func (l limit) String(sd side) string {
	if l.exclusive {
		return sd.strictOp + " " + l.text
	}
	return sd.inclusiveOp + " " + l.text
}

// bound compares one side of the numeric range.
func (d *differ) bound(where string, dir direction, o, n jsonv.Object, sd side) {
	ob, nb := boundOf(o, sd), boundOf(n, sd)
	switch {
	case !ob.set && !nb.set:
	case !ob.set:
		d.change(where, dir, true, false, "%s %s added", sd.name, nb.String(sd))
	case !nb.set:
		d.change(where, dir, false, true, "%s %s removed", sd.name, ob.String(sd))
	case ob.value == nb.value && ob.exclusive == nb.exclusive:
	case tighterLimit(nb, ob, sd):
		d.change(where, dir, true, false, "%s tightened from %s to %s", sd.name, ob.String(sd), nb.String(sd))
	default:
		d.change(where, dir, false, true, "%s relaxed from %s to %s", sd.name, ob.String(sd), nb.String(sd))
	}
}

func tighterLimit(a, b limit, sd side) bool {
	return sd.tighter(a.value, b.value) || a.value == b.value && a.exclusive && !b.exclusive
}

// count is a keyword bounding a length or a number of items or properties.
type count struct {
	key string
	min bool // a lower bound: raising it narrows
}

var counts = []count{
	{"minLength", true}, {"maxLength", false},
	{"minItems", true}, {"maxItems", false},
	{"minProperties", true}, {"maxProperties", false},
}

// count compares one counting keyword, an absent one being 0 or no limit.
func (d *differ) count(where string, dir direction, o, n jsonv.Object, k count) {
	ov, oset := number(o, k.key)
	nv, nset := number(n, k.key)
	if !oset && !nset || oset && nset && ov == nv {
		return
	}
	if !k.min {
		if !oset {
			ov = math.Inf(1)
		}
		if !nset {
			nv = math.Inf(1)
		}
	}
	narrower := k.min && nv > ov || !k.min && nv < ov
	switch {
	case !oset:
		d.change(where, dir, narrower, !narrower, "%s %s added", k.key, jsonv.Text(get(n, k.key)))
	case !nset:
		d.change(where, dir, narrower, !narrower, "%s %s removed", k.key, jsonv.Text(get(o, k.key)))
	default:
		d.change(where, dir, narrower, !narrower, "%s changed from %s to %s", k.key, jsonv.Text(get(o, k.key)), jsonv.Text(get(n, k.key)))
	}
}

func number(s jsonv.Object, key string) (float64, bool) {
	v, ok := s.Get(key)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(jsonv.Text(v), 64)
	return f, err == nil
}

// multipleOf compares the step of a number: a new step that divides the
// old one accepts more.
func (d *differ) multipleOf(where string, dir direction, o, n jsonv.Object) {
	ov, oset := number(o, "multipleOf")
	nv, nset := number(n, "multipleOf")
	switch {
	case !oset && !nset || oset && nset && ov == nv:
	case !nset:
		d.change(where, dir, false, true, "multipleOf %s removed", jsonv.Text(get(o, "multipleOf")))
	case !oset:
		d.change(where, dir, true, false, "multipleOf %s added", jsonv.Text(get(n, "multipleOf")))
	default:
		// Every multiple of the old step is one of a new step dividing it.
		narrower, wider := !whole(ov/nv), !whole(nv/ov)
		d.change(where, dir, narrower, wider, "multipleOf changed from %s to %s", jsonv.Text(get(o, "multipleOf")), jsonv.Text(get(n, "multipleOf")))
	}
}

func whole(f float64) bool { return f == math.Trunc(f) }

// keyword compares a keyword whose value is a string that restricts values,
// pattern or format: one added narrows, one removed widens, and one
// changed may do both.
func (d *differ) keyword(where string, dir direction, o, n jsonv.Object, key string) {
	ov, nv := o.String(key), n.String(key)
	switch {
	case ov == nv:
	case ov == "":
		d.change(where, dir, true, false, "%s %q added", key, nv)
	case nv == "":
		d.change(where, dir, false, true, "%s %q removed", key, ov)
	default:
		d.change(where, dir, true, true, "%s changed from %q to %q", key, ov, nv)
	}
}

func (d *differ) unique(where string, dir direction, o, n jsonv.Object) {
	ou, nu := get(o, "uniqueItems") == true, get(n, "uniqueItems") == true
	switch {
	case !ou && nu:
		d.change(where, dir, true, false, "items must now be unique")
	case ou && !nu:
		d.change(where, dir, false, true, "items need no longer be unique")
	}
}
