package analyze

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
)

// candidate is a field that may become a property: found at some depth of
// embedding, with its index path for ordering.
type candidate struct {
	v      *types.Var
	tag    string
	name   string // wire name
	tagged bool   // the name comes from a json tag
	opts   string // json tag options
	index  []int
	path   []model.Step
	depth  int
}

// embedded is a struct reached through embedding, still to be walked.
type embedded struct {
	st    *types.Struct
	index []int
	path  []model.Step
}

// structFields fills mt.Fields with the properties of st, flattening
// embedded structs with encoding/json's rules: a field at a shallower depth
// hides deeper ones of the same name; at the same depth a json-tagged field
// wins, and two untagged ones hide each other.
func (a *analyzer) structFields(mt *model.Type, st *types.Struct, path string, pos token.Pos) bool {
	cands, ok := a.collect(st, path, pos)
	if !ok {
		return false
	}
	kept, clashes := dominant(cands)
	for _, clash := range clashes {
		a.sameName(clash, path)
		ok = false
	}
	for _, c := range kept {
		f := a.field(c, path)
		if f == nil {
			ok = false
			continue
		}
		mt.Fields = append(mt.Fields, f)
	}
	return ok
}

// collect walks st and the structs embedded in it, breadth first.
func (a *analyzer) collect(st *types.Struct, path string, pos token.Pos) ([]candidate, bool) {
	var cands []candidate
	level := []embedded{{st: st}}
	visited := map[*types.Struct]bool{st: true}
	for depth := 0; len(level) > 0; depth++ {
		var next []embedded
		for _, e := range level {
			for i := 0; i < e.st.NumFields(); i++ {
				c, inner := a.candidate(e, i, depth)
				if inner != nil && !visited[inner.st] {
					visited[inner.st] = true
					next = append(next, *inner)
				}
				if c != nil {
					cands = append(cands, *c)
				}
			}
		}
		level = next
	}
	return cands, true
}

// candidate examines field i of e: it is a property candidate, a struct to
// walk into, or neither.
func (a *analyzer) candidate(e embedded, i, depth int) (*candidate, *embedded) {
	v, tag := e.st.Field(i), e.st.Tag(i)
	jsonTag := reflect.StructTag(tag).Get("json")
	if jsonTag == "-" {
		return nil, nil
	}
	name, opts, _ := strings.Cut(jsonTag, ",")
	index := append(slices.Clone(e.index), i)
	ft, ptr := types.Unalias(v.Type()), false
	if p, ok := ft.(*types.Pointer); ok {
		ft, ptr = types.Unalias(p.Elem()), true
	}
	step := model.Step{Name: v.Name(), Pointer: ptr}
	path := append(slices.Clone(e.path), step)
	if v.Embedded() && name == "" {
		if st, ok := ft.Underlying().(*types.Struct); ok && isPlainStruct(ft) {
			if ptr {
				path[len(path)-1].Type = a.typeOf(ft, v.Name(), v.Pos())
			}
			return nil, &embedded{st: st, index: index, path: path}
		}
	}
	if !v.Exported() {
		a.warnIgnoredTag(v, tag)
		return nil, nil
	}
	c := &candidate{v: v, tag: tag, name: name, tagged: name != "", opts: opts, index: index, path: path, depth: depth}
	if c.name == "" {
		c.name = v.Name()
	}
	return c, nil
}

// warnIgnoredTag warns of an unexported field of this package with a json
// or mcp tag: encoding/json and mcpgen skip it, which the tag suggests the
// author did not mean. Fields of other packages are their authors' affair.
func (a *analyzer) warnIgnoredTag(v *types.Var, tag string) {
	if v.Pkg() != a.in.Pkg {
		return
	}
	st := reflect.StructTag(tag)
	for _, key := range []string{"json", "mcp"} {
		if _, ok := st.Lookup(key); ok {
			a.warnf(v.Pos(), "field %s is unexported, so it is not a property and its %s tag does nothing: export it (%s) or remove the tag", v.Name(), key, exportedName(v.Name()))
			return
		}
	}
}

// exportedName is name with its first letter in upper case.
func exportedName(name string) string {
	r, n := utf8.DecodeRuneInString(name)
	return string(unicode.ToUpper(r)) + name[n:]
}

// dominant applies encoding/json's hiding rules and returns the surviving
// fields in declaration (index) order, and each group of fields that hide
// one another, so that no field of the name survives.
func dominant(cands []candidate) (kept []candidate, clashes [][]candidate) {
	byName := map[string][]candidate{}
	for _, c := range cands {
		byName[c.name] = append(byName[c.name], c)
	}
	for _, cs := range byName {
		if c, tied := dominantOf(cs); tied == nil {
			kept = append(kept, c)
		} else {
			clashes = append(clashes, tied)
		}
	}
	byIndex := func(x, y candidate) int { return slices.Compare(x.index, y.index) }
	slices.SortFunc(kept, byIndex)
	for _, tied := range clashes {
		slices.SortFunc(tied, byIndex)
	}
	return kept, clashes
}

// dominantOf returns the field of cs, all of one name, that encoding/json
// keeps: the shallowest, or among the shallowest the one json-tagged. When
// none wins it returns the fields that tie.
func dominantOf(cs []candidate) (candidate, []candidate) {
	minDepth := cs[0].depth
	for _, c := range cs {
		minDepth = min(minDepth, c.depth)
	}
	var top []candidate
	for _, c := range cs {
		if c.depth == minDepth {
			top = append(top, c)
		}
	}
	if len(top) == 1 {
		return top[0], nil
	}
	var tagged []candidate
	for _, c := range top {
		if c.tagged {
			tagged = append(tagged, c)
		}
	}
	switch len(tagged) {
	case 0:
		return candidate{}, top
	case 1:
		return tagged[0], nil
	}
	return candidate{}, tagged
}

// sameName reports, at each of the fields tied, that encoding/json drops
// them all for sharing a JSON name, naming the others: the author meant
// each to be a property.
func (a *analyzer) sameName(tied []candidate, path string) {
	for i, c := range tied {
		var others []string
		for j, o := range tied {
			if j != i {
				others = append(others, selector(o))
			}
		}
		list := "field " + others[0]
		if len(others) > 1 {
			list = "fields " + strings.Join(others[:len(others)-1], ", ") + " and " + others[len(others)-1]
		}
		a.errorf(c.v.Pos(), "%s.%s: field %s and %s have the same JSON name %q, so encoding/json drops %s: give %s another name in the json tag",
			path, selector(c), selector(c), list, c.name, pick(len(tied) == 2, "both", "them all"), pick(len(tied) == 2, "one", "all but one"))
	}
}

func pick(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}

// selector names a field as written from the struct: Base.ID for a field
// promoted from an embedded Base.
func selector(c candidate) string {
	names := make([]string, len(c.path))
	for i, s := range c.path {
		names[i] = s.Name
	}
	return strings.Join(names, ".")
}

// field turns a surviving candidate into a property.
func (a *analyzer) field(c candidate, path string) *model.Field {
	fpath := path + "." + c.v.Name()
	typ := a.typeOf(c.v.Type(), fpath, c.v.Pos())
	if typ == nil {
		return nil
	}
	f := &model.Field{
		Pos:       a.in.Fset.Position(c.v.Pos()),
		Path:      c.path,
		WireName:  c.name,
		Type:      typ,
		Required:  typ.Kind != model.Pointer && !hasOpt(c.opts, "omitempty") && !hasOpt(c.opts, "omitzero"),
		OmitEmpty: hasOpt(c.opts, "omitempty"),
		OmitZero:  hasOpt(c.opts, "omitzero"),
	}
	syntax := a.fieldSyntax(c.v)
	f.Doc = withoutName(fieldDoc(syntax), c.v.Name(), false)
	tag, ok, errs := annotations.ParseTag(tagPos(syntax, c.v.Pos()), tagLit(syntax, c.tag))
	a.annotationErrors(errs)
	if len(errs) > 0 {
		return nil
	}
	if ok && !a.applyTag(f, tag, true) {
		return nil
	}
	a.warnUntyped(f, fpath)
	return f
}

func hasOpt(opts, opt string) bool {
	for _, o := range strings.Split(opts, ",") {
		if o == opt {
			return true
		}
	}
	return false
}

// fieldDoc is a field's doc comment, else its line comment.
func fieldDoc(f *ast.Field) string {
	if f == nil {
		return ""
	}
	if f.Doc != nil {
		return prose(f.Doc.Text())
	}
	if f.Comment != nil {
		return prose(f.Comment.Text())
	}
	return ""
}

func tagPos(f *ast.Field, fallback token.Pos) token.Pos {
	if f != nil && f.Tag != nil {
		return f.Tag.Pos()
	}
	return fallback
}

// tagLit is the tag literal as written, or one made from the tag's value
// when the syntax is not at hand (a struct of another package).
func tagLit(f *ast.Field, tag string) string {
	if f != nil && f.Tag != nil {
		return f.Tag.Value
	}
	return "`" + strings.ReplaceAll(tag, "`", "") + "`"
}
