package analyze

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"
	"strconv"

	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
)

// typeOf maps a Go type to the model. path names the value for diagnostics
// ("in.Changes[].Meta"); pos is where to report. It returns nil after
// reporting a type that cannot be mapped.
func (a *analyzer) typeOf(t types.Type, path string, pos token.Pos) *model.Type {
	t = types.Unalias(t)
	if mt, ok := a.types[t]; ok {
		return mt
	}
	if named, ok := t.(*types.Named); ok {
		return a.named(named, path, pos)
	}
	return a.unnamed(t, path, pos)
}

// named maps a defined type. Struct types are entered in the cache before
// their fields are read, so a recursive type refers to itself.
func (a *analyzer) named(t *types.Named, path string, pos token.Pos) *model.Type {
	obj := t.Obj()
	name := &model.GoName{Path: pkgPath(obj.Pkg()), Pkg: pkgName(obj.Pkg()), Name: obj.Name()}
	switch {
	case name.Path == "time" && name.Name == "Time":
		return a.remember(t, &model.Type{Kind: model.Time, Named: name})
	case name.Path == "time" && name.Name == "Duration":
		return a.remember(t, &model.Type{Kind: model.Duration, Named: name})
	case name.Path == "encoding/json" && name.Name == "RawMessage":
		return a.remember(t, &model.Type{Kind: model.Raw, Named: name})
	}
	if !a.typeArgs(t, name, path, pos) {
		return nil
	}
	switch ownMethods(t) {
	case model.JSONMethod:
		return a.remember(t, &model.Type{Kind: model.JSONMethod, Named: name, Doc: a.typeDoc(obj)})
	case model.TextMethod:
		return a.remember(t, &model.Type{Kind: model.TextMethod, Named: name, Doc: a.typeDoc(obj)})
	}
	if _, isStruct := t.Underlying().(*types.Struct); isStruct {
		mt := &model.Type{Kind: model.Struct, Named: name, Doc: a.typeDoc(obj)}
		a.types[t] = mt
		if !a.structFields(mt, t.Underlying().(*types.Struct), path, pos) {
			delete(a.types, t)
			return nil
		}
		mt.Layouts = a.layouts(t)
		return mt
	}
	under := a.unnamed(t.Underlying(), path, pos)
	if under == nil {
		return nil
	}
	mt := *under
	mt.Named = name
	mt.Enum = a.constEnum(t, &mt)
	return a.remember(t, &mt)
}

// typeArgs maps the type arguments of an instantiated generic type.
func (a *analyzer) typeArgs(t *types.Named, name *model.GoName, path string, pos token.Pos) bool {
	for i := 0; i < t.TypeArgs().Len(); i++ {
		arg := a.typeOf(t.TypeArgs().At(i), path, pos)
		if arg == nil {
			return false
		}
		if !writable(arg) {
			a.errorf(pos, "%s: type argument %s of %s has no name to write in generated code", path, t.TypeArgs().At(i), t.Obj().Name())
			return false
		}
		name.Args = append(name.Args, arg)
	}
	return true
}

// writable reports whether generated code can spell t: anonymous structs
// cannot be written as type arguments.
func writable(t *model.Type) bool {
	if t.Named != nil {
		return true
	}
	if t.Kind == model.Struct {
		return false
	}
	return t.Elem == nil || writable(t.Elem)
}

func (a *analyzer) remember(t types.Type, mt *model.Type) *model.Type {
	a.types[t] = mt
	return mt
}

// unnamed maps a type literal or the underlying type of a defined type.
func (a *analyzer) unnamed(t types.Type, path string, pos token.Pos) *model.Type {
	switch t := t.(type) {
	case *types.Basic:
		return a.basic(t, path, pos)
	case *types.Pointer:
		return a.compound(model.Pointer, t.Elem(), path, pos)
	case *types.Slice:
		if b, ok := t.Elem().(*types.Basic); ok && b.Kind() == types.Byte {
			return &model.Type{Kind: model.Bytes}
		}
		return a.compound(model.Slice, t.Elem(), path+"[]", pos)
	case *types.Array:
		mt := a.compound(model.Array, t.Elem(), path+"[]", pos)
		if mt != nil {
			mt.Len = int(t.Len())
		}
		return mt
	case *types.Map:
		key := a.mapKey(t, path, pos)
		if key == nil {
			return nil
		}
		mt := a.compound(model.Map, t.Elem(), path+"[]", pos)
		if mt != nil {
			mt.Key = key
		}
		return mt
	case *types.Struct:
		mt := &model.Type{Kind: model.Struct}
		if !a.structFields(mt, t, path, pos) {
			return nil
		}
		return mt
	case *types.Interface:
		if t.Empty() {
			return &model.Type{Kind: model.Any}
		}
	}
	a.errorf(pos, "%s: unsupported type %s", path, t)
	return nil
}

// mapKey maps the key type of a map: string, or a named type of a string
// kind, whose constants, when they are an enum, are the keys allowed.
// Integer keys, which encoding/json writes as strings, are refused: the
// type table maps string kinds only, and a schema could say no more of
// such a key than a pattern clients do not fill keys by.
func (a *analyzer) mapKey(t *types.Map, path string, pos token.Pos) *model.Type {
	text := types.TypeString(t, a.pkgQualifier)
	if b, ok := t.Key().Underlying().(*types.Basic); !ok || b.Info()&types.IsString == 0 {
		a.errorf(pos, "%s: unsupported type %s: map keys must be of a string kind, as JSON object keys are; use string keys and convert them", path, text)
		return nil
	}
	key := a.typeOf(t.Key(), path, pos)
	if key == nil {
		return nil
	}
	if key.Kind != model.String {
		a.errorf(pos, "%s: unsupported type %s: key type %s has text or JSON methods of its own, which generated code does not call on keys; use a string type without them", path, text, key.Named.Name)
		return nil
	}
	if _, ok := a.typeExpr(t.Key()); !ok {
		a.errorf(pos, "%s: unsupported type %s: the generated file cannot name key type %s, which is unexported or not importable here; export it", path, text, key.Named.Name)
		return nil
	}
	return key
}

// pkgQualifier writes types of other packages with their package's name,
// as Go source does, and those of the package being generated bare.
func (a *analyzer) pkgQualifier(p *types.Package) string {
	if p == a.in.Pkg {
		return ""
	}
	return p.Name()
}

func (a *analyzer) compound(k model.Kind, elem types.Type, path string, pos token.Pos) *model.Type {
	e := a.typeOf(elem, path, pos)
	if e == nil {
		return nil
	}
	return &model.Type{Kind: k, Elem: e}
}

// basic maps the predeclared types.
func (a *analyzer) basic(t *types.Basic, path string, pos token.Pos) *model.Type {
	if t.Kind() == types.Invalid {
		return nil // the type checker has reported why
	}
	mt := &model.Type{Basic: t.Name()}
	switch t.Kind() {
	case types.String:
		mt.Kind = model.String
	case types.Bool:
		mt.Kind = model.Bool
	case types.Int, types.Int8, types.Int16, types.Int32, types.Int64:
		mt.Kind, mt.Bits = model.Int, intBits(t.Kind())
	case types.Uint, types.Uint8, types.Uint16, types.Uint32, types.Uint64, types.Uintptr:
		mt.Kind, mt.Bits = model.Uint, intBits(t.Kind())
	case types.Float32:
		mt.Kind, mt.Bits = model.Float, 32
	case types.Float64:
		mt.Kind, mt.Bits = model.Float, 64
	default:
		a.errorf(pos, "%s: unsupported type %s", path, t)
		return nil
	}
	return mt
}

func intBits(k types.BasicKind) int {
	switch k {
	case types.Int8, types.Uint8:
		return 8
	case types.Int16, types.Uint16:
		return 16
	case types.Int32, types.Uint32:
		return 32
	}
	return 64
}

// constEnum returns the implicit enum of a named string or integer type,
// as enum values in declaration order; nil when the type has none. Only a
// type of the module being generated has one: a standard library or
// dependency type (os.FileMode, time.Month) is not the author's list of
// choices. A string type's enum is every constant of the type in its
// package. An integer type's constants are an enum only when they
// enumerate: see enumerates. The constants are looked up in the declaring
// package loaded from source, never in what export data happens to hold.
func (a *analyzer) constEnum(t *types.Named, mt *model.Type) []model.EnumValue {
	if mt.Kind != model.String && mt.Kind != model.Int && mt.Kind != model.Uint || t.TypeArgs().Len() > 0 {
		return nil
	}
	pkg := t.Obj().Pkg()
	if pkg == nil {
		return nil
	}
	if pkg.Path() != a.in.Pkg.Path() {
		if a.in.Local == nil {
			return nil
		}
		if pkg = a.in.Local(pkg.Path()); pkg == nil {
			return nil
		}
		tn, ok := pkg.Scope().Lookup(t.Obj().Name()).(*types.TypeName)
		if !ok {
			return nil
		}
		if t, ok = tn.Type().(*types.Named); !ok {
			return nil
		}
	}
	var consts []*types.Const
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		if c, ok := scope.Lookup(name).(*types.Const); ok && types.Identical(c.Type(), t) {
			consts = append(consts, c)
		}
	}
	sort.Slice(consts, func(i, j int) bool { return consts[i].Pos() < consts[j].Pos() })
	if len(consts) == 0 || mt.Kind != model.String && !a.enumerates(consts) {
		return nil
	}
	var vals []model.EnumValue
	for _, c := range consts {
		v := constValue(c.Val(), mt.Kind)
		v.Doc = a.constDoc(c)
		vals = append(vals, v)
	}
	return vals
}

// enumerates reports whether integer constants are an enumeration: all
// declared in one const block, with distinct values that follow one
// another, written with iota or by hand (Low = 1; Normal = 2; High = 3).
// Bit flags (1 << iota) and units (KB = 1024) are constants of a type, not
// the only values it takes; so is a lone constant written by hand.
func (a *analyzer) enumerates(consts []*types.Const) bool {
	var block *ast.GenDecl
	for _, c := range consts {
		g := a.constBlock(c)
		if g == nil || block != nil && g != block {
			return false
		}
		block = g
	}
	if len(consts) < 2 && !usesIota(block) {
		return false
	}
	vals := make([]constant.Value, len(consts))
	for i, c := range consts {
		vals[i] = c.Val()
	}
	sort.Slice(vals, func(i, j int) bool { return constant.Compare(vals[i], token.LSS, vals[j]) })
	one := constant.MakeInt64(1)
	for i := 1; i < len(vals); i++ {
		if !constant.Compare(constant.BinaryOp(vals[i-1], token.ADD, one), token.EQL, vals[i]) {
			return false
		}
	}
	return true
}

// usesIota reports whether a const block's values mention iota.
func usesIota(g *ast.GenDecl) bool {
	found := false
	ast.Inspect(g, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == "iota" {
			found = true
		}
		return !found
	})
	return found
}

func constValue(v constant.Value, k model.Kind) model.EnumValue {
	if k == model.String {
		s := constant.StringVal(v)
		q := strconv.Quote(s)
		return model.EnumValue{JSON: model.JSONQuote(s), Go: q}
	}
	return model.EnumValue{JSON: v.ExactString(), Go: v.ExactString()}
}

// ownMethods classifies a type by the methods through which encoding/json
// would decode it: JSONMethod when t or *t has UnmarshalJSON or
// MarshalJSON (or MarshalText without UnmarshalText, which encoding/json
// writes as a string but reads by structure), TextMethod when it has
// UnmarshalText, else Struct, meaning no methods of its own.
func ownMethods(t *types.Named) model.Kind {
	ms := types.NewMethodSet(types.NewPointer(t))
	has := func(name string) bool { return ms.Lookup(t.Obj().Pkg(), name) != nil }
	switch {
	case has("UnmarshalJSON") || has("MarshalJSON"):
		return model.JSONMethod
	case has("UnmarshalText"):
		return model.TextMethod
	case has("MarshalText"):
		return model.JSONMethod
	}
	return model.Struct
}

func pkgPath(p *types.Package) string {
	if p == nil {
		return ""
	}
	return p.Path()
}

func pkgName(p *types.Package) string {
	if p == nil {
		return ""
	}
	return p.Name()
}

func tupleVars(t *types.Tuple) []*types.Var {
	vars := make([]*types.Var, t.Len())
	for i := range vars {
		vars[i] = t.At(i)
	}
	return vars
}

func isNamed(t types.Type, path, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}

func isContext(t types.Type) bool { return isNamed(t, "context", "Context") }

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// isPlainStruct reports whether t is a struct that is an object with
// properties (time.Time is a struct but a string on the wire).
func isPlainStruct(t types.Type) bool {
	if isNamed(t, "time", "Time") {
		return false
	}
	_, ok := types.Unalias(t).Underlying().(*types.Struct)
	return ok
}

// isStructLike reports whether t is a struct or a pointer to one.
func isStructLike(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	return isPlainStruct(t)
}

// indexFields maps struct field positions to their syntax, to read doc
// comments and tag positions.
func (a *analyzer) indexFields() {
	for _, f := range a.in.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if st, ok := n.(*ast.StructType); ok {
				for _, fld := range st.Fields.List {
					a.fields[fieldPos(fld)] = fld
					for _, n := range fld.Names {
						a.fields[n.Pos()] = fld
					}
				}
			}
			return true
		})
	}
}

// fieldPos is the position types.Var reports for a field: its first name,
// or its type for an embedded field.
func fieldPos(f *ast.Field) token.Pos {
	if len(f.Names) > 0 {
		return f.Names[0].Pos()
	}
	t := f.Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if sel, ok := t.(*ast.SelectorExpr); ok {
		return sel.Sel.Pos()
	}
	return t.Pos()
}
