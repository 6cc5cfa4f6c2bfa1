package analyze

import (
	"go/token"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/internal/generator/internal/diag"
	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
)

// A schema file given with input= is published as the tool's input schema
// in place of the generated one. So that what is published is what is
// checked, the file also says what the decoder checks: the keywords it can
// check (type, enum, const, the bounds, lengths, pattern, format, item
// counts, uniqueItems, required, additionalProperties) are read from the
// file for every property that maps to a field of the Go type, at any
// depth of structs, and for the items of a list and the values of a map
// one level down, and replace the checks of the fields' mcp tags. Each
// keyword the decoder cannot check (composition, conditionals, a $ref
// outside the file, ...) is a warning at the keyword; so is each check of
// a tag or a type's constants the file does not publish, which is dropped.
// What the file says that the Go type cannot hold (another type, null for
// a value that is not a pointer, an enum value of another type) is an
// error. The decoders read the file's checks from clones of the model's
// types, one for each type and schema that meet, so that the types
// themselves, which other tools may use, keep the checks of their tags.

// fileSchema is one input= file being matched with the tool's Go type.
type fileSchema struct {
	a       *analyzer
	name    string // the file as the directive names it, for messages
	root    *jnode
	anchors map[string]*jnode
	clones  map[cloneKey]*model.Type
}

// cloneKey is a struct type met with the schemas of one object: the
// offsets of those that say something of its properties (see objectKey).
type cloneKey struct {
	t       *model.Type
	schemas string
}

// inputFile makes the decoder of t check what the schema file s says; it
// replaces t.Input with a clone carrying the file's checks.
func (a *analyzer) inputFile(s annotations.String, t *model.Tool) {
	if t.Input == nil || t.Input.Kind != model.Struct {
		return
	}
	path := filepath.Join(filepath.Dir(a.in.Fset.Position(s.Pos).Filename), s.Value)
	data, err := a.in.ReadFile(path)
	if err != nil {
		return // schemaFile has reported it
	}
	root := parseJSON(path, data)
	if root == nil {
		return
	}
	fs := &fileSchema{a: a, name: s.Value, root: root, anchors: map[string]*jnode{}, clones: map[cloneKey]*model.Type{}}
	fs.findAnchors(root)
	t.Input = fs.value(root, t.Input, slot{}, "the arguments")
}

// warn reports a warning about the file at pos, naming the file first.
func (fs *fileSchema) warn(pos token.Position, format string, args ...any) {
	fs.a.diags = append(fs.a.diags, diag.Warningf(pos, "schema file %s: "+format, append([]any{fs.name}, args...)...))
}

// fail reports an error about the file at pos, naming the file first.
func (fs *fileSchema) fail(pos token.Position, format string, args ...any) {
	fs.a.diags = append(fs.a.diags, diag.Errorf(pos, "schema file %s: "+format, append([]any{fs.name}, args...)...))
}

// findAnchors records the schemas of the file named by $anchor, which a
// $ref of "#name" refers to.
func (fs *fileSchema) findAnchors(n *jnode) {
	if m := n.get("$anchor"); m != nil && m.val.kind == '"' {
		fs.anchors[m.val.text] = n
	}
	for _, m := range n.members {
		fs.findAnchors(m.val)
	}
	for _, it := range n.items {
		fs.findAnchors(it)
	}
}

// slot is where the checks of one value go: into c, the constraints of
// the field it belongs to, as the field's own value (whole) or as the
// items of its list or the values of its map. A value nested deeper has
// no slot (c nil): its keywords are not checked. optional says the field
// may be left out, so that its decoder would take null for absent.
type slot struct {
	c        *model.Constraints
	whole    bool
	optional bool
}

// value matches the schema n of one value with its Go type t and returns
// the type its decoder reads: t, or a clone carrying the file's checks.
// what names the value in messages. A single switch over t's kinds.
func (fs *fileSchema) value(n *jnode, t *model.Type, s slot, what string) *model.Type {
	switch n.kind {
	case 'f':
		fs.warn(n.pos, "%s: the schema false takes no value; not checked", what)
		return t
	case '{':
	default: // true, or not a schema: any value
		n = &jnode{pos: n.pos, kind: '{'}
	}
	nodes, union, ok := fs.expand(n)
	if !ok {
		return t // a $ref the file cannot resolve: what it says is not known
	}
	fs.unchecked(nodes, union)
	base, ptr := t, false
	for base.Kind == model.Pointer {
		base, ptr = base.Elem, true
	}
	fs.nullness(nodes, union, base, ptr, s, what)
	fs.typeMatches(nodes, base, what)
	var out *model.Type
	switch base.Kind {
	case model.Struct:
		out = fs.object(nodes, base, what)
	case model.Slice, model.Array:
		out = fs.list(nodes, base, s, what)
	case model.Map:
		out = fs.mapOf(nodes, base, s, what)
	case model.Any, model.Raw, model.JSONMethod:
		fs.anyValue(nodes, base, what)
		out = base
	default:
		out = fs.scalar(nodes, base, s, what)
	}
	return rewrap(t, base, out)
}

// rewrap returns t with its value type base replaced by out, through the
// pointers t may have; t itself when out is base.
func rewrap(t, base, out *model.Type) *model.Type {
	if out == base {
		return t
	}
	if t.Kind != model.Pointer {
		return out
	}
	p := *t
	p.Elem = rewrap(t.Elem, base, out)
	return &p
}

// expand returns the schemas that apply to a value whose schema is n: n,
// after what its $ref names (transitively), and the non-null branch of an
// anyOf of that branch and {"type":"null"}, the form of a nullable
// reference; union is that anyOf. ok is false when a $ref names nothing
// the file holds (a warning).
func (fs *fileSchema) expand(n *jnode) (nodes []*jnode, union *jmember, ok bool) {
	seen := map[*jnode]bool{}
	ok = true
	var add func(n *jnode)
	add = func(n *jnode) {
		if n == nil || seen[n] || n.kind != '{' {
			return
		}
		seen[n] = true
		if ref := n.get("$ref"); ref != nil {
			target := fs.resolve(ref)
			ok = ok && target != nil
			add(target)
		}
		nodes = append(nodes, n)
		if m := n.get("anyOf"); union == nil && m != nil && len(m.val.items) == 2 {
			for i, branch := range m.val.items {
				if isNullSchema(branch) {
					union = m
					add(m.val.items[1-i])
				}
			}
		}
	}
	add(n)
	return nodes, union, ok
}

// isNullSchema reports whether n is {"type":"null"}.
func isNullSchema(n *jnode) bool {
	return n.kind == '{' && len(n.members) == 1 && n.members[0].name == "type" && n.members[0].val.text == "null"
}

// resolve returns the schema a $ref names in the file: "#", a JSON
// pointer "#/..." or an anchor "#name". A reference outside the file, or
// to nothing, is a warning: what it names is not checked.
func (fs *fileSchema) resolve(ref *jmember) *jnode {
	frag, ok := strings.CutPrefix(ref.val.text, "#")
	if ref.val.kind != '"' || !ok {
		fs.warn(ref.pos, "$ref %s names a schema outside the file, which is not checked", strconv.Quote(ref.val.text))
		return nil
	}
	if frag == "" {
		return fs.root
	}
	if !strings.HasPrefix(frag, "/") {
		if n := fs.anchors[frag]; n != nil {
			return n
		}
		fs.warn(ref.pos, "$ref %s names no $anchor of the file; not checked", strconv.Quote(ref.val.text))
		return nil
	}
	n := fs.root
	for _, tok := range strings.Split(frag[1:], "/") {
		tok, _ = url.PathUnescape(tok)
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		if m := n.get(tok); m != nil {
			n = m.val
		} else if i, err := strconv.Atoi(tok); err == nil && n.kind == '[' && i >= 0 && i < len(n.items) {
			n = n.items[i]
		} else {
			fs.warn(ref.pos, "$ref %s names nothing in the file; not checked", strconv.Quote(ref.val.text))
			return nil
		}
	}
	return n
}

// lookup returns the member name of the last of nodes that has one: a
// schema's own keywords apply after those of the schema it refers to.
func lookup(nodes []*jnode, name string) *jmember {
	for i := len(nodes) - 1; i >= 0; i-- {
		if m := nodes[i].get(name); m != nil {
			return m
		}
	}
	return nil
}

// uncheckedKeywords are the keywords of JSON Schema 2020-12 (and of
// drafts before it) that constrain a value in ways the generated decoder
// does not check.
var uncheckedKeywords = map[string]bool{
	"allOf": true, "anyOf": true, "oneOf": true, "not": true, "if": true, "then": true, "else": true,
	"dependentRequired": true, "dependentSchemas": true, "dependencies": true,
	"patternProperties": true, "propertyNames": true, "minProperties": true, "maxProperties": true,
	"unevaluatedProperties": true, "unevaluatedItems": true, "prefixItems": true, "additionalItems": true,
	"contains": true, "minContains": true, "maxContains": true, "contentSchema": true,
	"$dynamicRef": true, "$recursiveRef": true,
}

// unchecked warns about each keyword of nodes the decoder cannot check;
// union, an anyOf read as "or null", is checked.
func (fs *fileSchema) unchecked(nodes []*jnode, union *jmember) {
	for _, n := range nodes {
		for i := range n.members {
			m := &n.members[i]
			if uncheckedKeywords[m.name] && (union == nil || m.pos != union.pos) {
				fs.warn(m.pos, "%s is published but not checked: the generated decoder cannot check it", m.name)
			}
		}
	}
}

// fileTypes returns the types the type keyword of nodes lists, and the
// keyword; nil when there is none.
func fileTypes(nodes []*jnode) ([]string, *jmember) {
	m := lookup(nodes, "type")
	if m == nil {
		return nil, nil
	}
	if m.val.kind == '"' {
		return []string{m.val.text}, m
	}
	var types []string
	for _, it := range m.val.items {
		types = append(types, it.text)
	}
	return types, m
}

// enumValues returns the values of the enum of nodes, or of its const, and
// the keyword; nil when there is neither.
func enumValues(nodes []*jnode) ([]*jnode, *jmember) {
	if m := lookup(nodes, "const"); m != nil {
		return []*jnode{m.val}, m
	}
	if m := lookup(nodes, "enum"); m != nil && m.val.kind == '[' {
		return m.val.items, m
	}
	return nil, nil
}

// nullness checks what the file says of null against the Go type: a
// pointer or a property whose schema allows no null refuses it (NoNull),
// and a schema that names null for a value that is not a pointer is an
// error.
func (fs *fileSchema) nullness(nodes []*jnode, union *jmember, base *model.Type, ptr bool, s slot, what string) {
	types, typeKey := fileTypes(nodes)
	enum, enumKey := enumValues(nodes)
	named := union != nil || slices.Contains(types, "null") || slices.ContainsFunc(enum, func(v *jnode) bool { return v.kind == 'n' })
	allows := named || typeKey == nil && enumKey == nil
	switch {
	case ptr && !allows && s.c != nil && s.whole:
		s.c.NoNull = true
	case ptr && !allows && s.c != nil:
		s.c.NoNullItems = true
	case ptr && !allows:
		fs.warn(nodes[len(nodes)-1].pos, "%s allows no null, but its decoder takes null for a nil %s; not checked", what, typeText(base))
	case !ptr && !allows && s.c != nil && s.whole && s.optional:
		s.c.NoNull = true // else null would stand for the property left out
	case !ptr && named && goJSON(base) != "":
		pos := nodes[len(nodes)-1].pos
		if typeKey != nil {
			pos = typeKey.pos
		}
		fs.fail(pos, "%s may be null, but its Go type %s is not a pointer: make it *%s", what, typeText(base), typeText(base))
	}
}

// goJSON is the JSON type of the values a decoder of t reads; "" for any
// JSON value.
func goJSON(t *model.Type) string {
	switch t.Kind {
	case model.String, model.Time, model.Duration, model.Bytes, model.TextMethod:
		return "string"
	case model.Int, model.Uint:
		return "integer"
	case model.Float:
		return "number"
	case model.Bool:
		return "boolean"
	case model.Struct, model.Map:
		return "object"
	case model.Slice, model.Array:
		return "array"
	}
	return ""
}

// typeMatches checks the type keyword of nodes against the Go type: it
// must name the type the decoder reads (and null at most). A schema with
// neither type nor enum takes any value, where the decoder takes one type:
// a warning.
func (fs *fileSchema) typeMatches(nodes []*jnode, base *model.Type, what string) {
	types, m := fileTypes(nodes)
	want := goJSON(base)
	if want == "" {
		return // anyValue warns about every keyword
	}
	if m == nil {
		if _, enum := enumValues(nodes); enum == nil {
			fs.warn(nodes[len(nodes)-1].pos, "%s has no type, but its decoder takes only %s values (the Go type %s): publish \"type\": %q", what, want, typeText(base), want)
		}
		return
	}
	var got []string
	for _, t := range types {
		if t != "null" {
			got = append(got, t)
		}
	}
	if len(got) != 1 || got[0] != want {
		fs.fail(m.pos, "%s has type %s, but its decoder reads %s values (the Go type %s)", what, strings.Join(types, " or "), want, typeText(base))
	}
}
