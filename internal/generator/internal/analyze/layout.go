package analyze

import (
	"go/types"
	"reflect"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
)

// layouts returns the declared fields of the named struct type t and of
// the named structs embedded in it, walked as encoding/json walks them,
// for the generated guard that breaks the build when a field changes.
// It returns nil when some field cannot be written in the generated file.
func (a *analyzer) layouts(t *types.Named) []model.Layout {
	var out []model.Layout
	seen := map[*types.Named]bool{}
	var walk func(n *types.Named) bool
	walk = func(n *types.Named) bool {
		if seen[n] {
			return true
		}
		seen[n] = true
		l, embedded, ok := a.layout(n)
		if !ok {
			return false
		}
		out = append(out, l)
		for _, e := range embedded {
			if !walk(e) {
				return false
			}
		}
		return true
	}
	if !walk(t) {
		return nil
	}
	return out
}

// layout is the Layout of one named struct type, with the named struct
// types embedded in it (directly or through a pointer) that encoding/json
// flattens into it.
func (a *analyzer) layout(n *types.Named) (model.Layout, []*types.Named, bool) {
	st := n.Underlying().(*types.Struct)
	typ, ok := a.typeExpr(n)
	if !ok {
		return model.Layout{}, nil, false
	}
	l := model.Layout{Ident: layoutIdent(n), Type: typ}
	var embedded []*types.Named
	for i := 0; i < st.NumFields(); i++ {
		v := st.Field(i)
		if !v.Exported() && v.Pkg() != a.in.Pkg {
			return model.Layout{}, nil, false // a name only its own package can write
		}
		ft, ok := a.typeExpr(v.Type())
		if !ok {
			return model.Layout{}, nil, false
		}
		f := model.LayoutField{Name: v.Name(), Type: ft}
		if v.Embedded() {
			f.Name = ""
			if !embeddedNamed(v, ft) {
				return model.Layout{}, nil, false // an alias written under another name
			}
			if e := flattened(v, st.Tag(i)); e != nil {
				embedded = append(embedded, e)
			}
		}
		l.Fields = append(l.Fields, f)
	}
	return l, embedded, true
}

// embeddedNamed reports whether the type expression ft of the embedded
// field v ends in v's name, type arguments aside, so that writing it
// embeds a field of the same name.
func embeddedNamed(v *types.Var, ft model.TypeExpr) bool {
	i := len(ft) - 1
	if i >= 0 && ft[i].Text == "]" && ft[i].Path == "" {
		for depth := 0; i >= 0; i-- {
			if ft[i].Path == "" && ft[i].Text == "]" {
				depth++
			} else if ft[i].Path == "" && ft[i].Text == "[" {
				if depth--; depth == 0 {
					break
				}
			}
		}
		i--
	}
	return i >= 0 && ft[i].Text == v.Name()
}

// flattened returns the named struct type of the embedded field v whose
// fields encoding/json promotes, or nil.
func flattened(v *types.Var, tag string) *types.Named {
	name, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
	if name != "" {
		return nil
	}
	t := types.Unalias(v.Type())
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, ok := t.(*types.Named)
	if !ok || !isPlainStruct(n) {
		return nil
	}
	return n
}

// layoutIdent names a struct type in a guard's identifier, type
// arguments included.
func layoutIdent(n *types.Named) string {
	s := n.Obj().Name()
	for i := 0; i < n.TypeArgs().Len(); i++ {
		s += "_" + identFragment(types.TypeString(n.TypeArgs().At(i), func(*types.Package) string { return "" }))
	}
	return s
}

// identFragment keeps the letters, digits and underscores of s.
func identFragment(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
			return r
		}
		return '_'
	}, s)
}

// typeExpr writes t as the generated file must write it: names of other
// packages qualified, and only names the file can refer to (exported, of
// an importable package, declared at package level). ok is false when t
// has a part the file cannot write.
func (a *analyzer) typeExpr(t types.Type) (model.TypeExpr, bool) {
	var w typeWriter
	w.a = a
	w.write(t)
	return w.out, w.ok()
}

// typeWriter accumulates a TypeExpr; bad records a part it cannot write.
type typeWriter struct {
	a   *analyzer
	out model.TypeExpr
	bad bool
}

func (w *typeWriter) ok() bool { return !w.bad }

func (w *typeWriter) text(s string) { w.out = append(w.out, model.TypePiece{Text: s}) }

// write is a single switch over the kinds of Go types.
func (w *typeWriter) write(t types.Type) {
	switch t := t.(type) {
	case *types.Alias:
		if !w.name(t.Obj(), t.TypeArgs()) {
			w.write(types.Unalias(t))
		}
	case *types.Named:
		if !w.name(t.Obj(), t.TypeArgs()) {
			w.bad = true
		}
	case *types.Basic:
		if t.Kind() == types.UnsafePointer {
			w.out = append(w.out, model.TypePiece{Text: "Pointer", Path: "unsafe", Pkg: "unsafe"})
			return
		}
		w.text(t.Name())
	case *types.Pointer:
		w.text("*")
		w.write(t.Elem())
	case *types.Slice:
		w.text("[]")
		w.write(t.Elem())
	case *types.Array:
		w.text("[" + strconv.FormatInt(t.Len(), 10) + "]")
		w.write(t.Elem())
	case *types.Map:
		w.text("map[")
		w.write(t.Key())
		w.text("]")
		w.write(t.Elem())
	case *types.Chan:
		w.chan_(t)
	case *types.Signature:
		w.text("func")
		w.signature(t)
	case *types.Struct:
		w.structType(t)
	case *types.Interface:
		w.iface(t)
	default: // type parameters and unions have no place in a field
		w.bad = true
	}
}

// name writes a defined type or an alias by its name, reporting false
// when the generated file cannot refer to it.
func (w *typeWriter) name(obj *types.TypeName, args *types.TypeList) bool {
	pkg := obj.Pkg()
	switch {
	case pkg == nil: // predeclared: error, any, comparable
		w.text(obj.Name())
	case obj.Parent() != pkg.Scope():
		return false // declared inside a function
	case pkg == w.a.in.Pkg:
		w.out = append(w.out, model.TypePiece{Text: obj.Name(), Path: pkg.Path(), Pkg: pkg.Name()})
	case !obj.Exported() || !importable(pkg.Path(), w.a.in.Pkg.Path()) || pkg.Name() == "main":
		return false
	default:
		w.out = append(w.out, model.TypePiece{Text: obj.Name(), Path: pkg.Path(), Pkg: pkg.Name()})
	}
	if args.Len() > 0 {
		w.text("[")
		for i := 0; i < args.Len(); i++ {
			if i > 0 {
				w.text(",")
			}
			w.write(args.At(i))
		}
		w.text("]")
	}
	return true
}

func (w *typeWriter) chan_(t *types.Chan) {
	switch t.Dir() {
	case types.SendOnly:
		w.text("chan<-")
	case types.RecvOnly:
		w.text("<-chan")
	default:
		w.text("chan")
	}
	// chan <-chan T would read as chan<- (chan T): only that needs parentheses.
	inner, isChan := t.Elem().(*types.Chan)
	if paren := t.Dir() == types.SendRecv && isChan && inner.Dir() == types.RecvOnly; paren {
		w.text("(")
		w.write(t.Elem())
		w.text(")")
		return
	}
	w.write(t.Elem())
}

// signature writes a func type's parameters and results, after "func"
// or a method's name.
func (w *typeWriter) signature(s *types.Signature) {
	w.text("(")
	for i := 0; i < s.Params().Len(); i++ {
		if i > 0 {
			w.text(",")
		}
		pt := s.Params().At(i).Type()
		if s.Variadic() && i == s.Params().Len()-1 {
			w.text("...")
			pt = pt.(*types.Slice).Elem()
		}
		w.write(pt)
	}
	w.text(")")
	if s.Results().Len() > 0 {
		w.text("(")
		for i := 0; i < s.Results().Len(); i++ {
			if i > 0 {
				w.text(",")
			}
			w.write(s.Results().At(i).Type())
		}
		w.text(")")
	}
}

func (w *typeWriter) structType(st *types.Struct) {
	w.text("struct{")
	for i := 0; i < st.NumFields(); i++ {
		v := st.Field(i)
		if !v.Exported() && v.Pkg() != w.a.in.Pkg {
			w.bad = true
			return
		}
		if i > 0 {
			w.text(";")
		}
		if !v.Embedded() {
			w.text(v.Name())
		}
		w.write(v.Type())
	}
	w.text("}")
}

func (w *typeWriter) iface(it *types.Interface) {
	w.text("interface{")
	n := 0
	sep := func() {
		if n > 0 {
			w.text(";")
		}
		n++
	}
	for i := 0; i < it.NumEmbeddeds(); i++ {
		sep()
		w.write(it.EmbeddedType(i))
	}
	for i := 0; i < it.NumExplicitMethods(); i++ {
		m := it.ExplicitMethod(i)
		if !m.Exported() && m.Pkg() != w.a.in.Pkg {
			w.bad = true
			return
		}
		sep()
		w.text(m.Name())
		w.signature(m.Signature())
	}
	w.text("}")
}

// importable reports whether the package at path may be imported from
// the package at from: an internal package only from within the tree
// rooted at the directory holding its internal element, and the standard
// library's internal packages never.
func importable(path, from string) bool {
	elems := strings.Split(path, "/")
	for i, e := range elems {
		if e != "internal" {
			continue
		}
		root := strings.Join(elems[:i], "/")
		if root == "" || from != root && !strings.HasPrefix(from, root+"/") {
			return false
		}
	}
	return true
}
