package analyze

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
)

// declIndex finds the syntax of struct fields and type declarations by
// where go/types says they are declared. Types of other packages (of the
// module or of dependencies) come from export data, which keeps file names
// and lines but no syntax: their files are parsed once, on demand, with
// comments, into the analysis's file set, so that tags and doc comments of
// any package are read the same way as those of the analyzed one. Only the
// files holding a declaration that is used are parsed.
type declIndex struct {
	files  map[string]*ast.File      // by file name; nil when unreadable
	fields map[lineKey]*ast.Field    // struct fields, by file, line and name
	specs  map[lineKey]*ast.TypeSpec // type declarations, by file, line and name
	groups map[*ast.TypeSpec]*ast.GenDecl
	values map[lineKey]*ast.ValueSpec // constant declarations, by file, line and name
	blocks map[*ast.ValueSpec]*ast.GenDecl
}

// lineKey identifies a declared name: export data keeps lines, not columns.
type lineKey struct {
	file string
	line int
	name string
}

func (a *analyzer) declIndex() *declIndex {
	if a.decls == nil {
		a.decls = &declIndex{
			files:  map[string]*ast.File{},
			fields: map[lineKey]*ast.Field{},
			specs:  map[lineKey]*ast.TypeSpec{},
			groups: map[*ast.TypeSpec]*ast.GenDecl{},
			values: map[lineKey]*ast.ValueSpec{},
			blocks: map[*ast.ValueSpec]*ast.GenDecl{},
		}
		for _, f := range a.in.Files {
			a.decls.add(a.in.Fset, a.in.Fset.Position(f.Pos()).Filename, f)
		}
	}
	return a.decls
}

// file returns the syntax of the named file, reading and parsing it the
// first time; nil when it cannot be read or parsed.
func (x *declIndex) file(fset *token.FileSet, read func(string) ([]byte, error), name string) *ast.File {
	if f, ok := x.files[name]; ok {
		return f
	}
	var f *ast.File
	if src, err := read(name); err == nil {
		f, err = parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			f = nil
		}
	}
	x.add(fset, name, f)
	return f
}

// add indexes the fields and type declarations of one file.
func (x *declIndex) add(fset *token.FileSet, name string, f *ast.File) {
	x.files[name] = f
	if f == nil {
		return
	}
	key := func(pos token.Pos, id string) lineKey { return lineKey{name, fset.Position(pos).Line, id} }
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GenDecl:
			for _, s := range n.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					x.specs[key(s.Name.Pos(), s.Name.Name)] = s
					x.groups[s] = n
				case *ast.ValueSpec:
					for _, id := range s.Names {
						x.values[key(id.Pos(), id.Name)] = s
					}
					x.blocks[s] = n
				}
			}
		case *ast.StructType:
			for _, fld := range n.Fields.List {
				for _, id := range fld.Names {
					x.fields[key(id.Pos(), id.Name)] = fld
				}
				if len(fld.Names) == 0 {
					x.fields[key(fieldPos(fld), embeddedName(fld.Type))] = fld
				}
			}
		}
		return true
	})
}

// embeddedName is the field name of an embedded field's type expression.
func embeddedName(t ast.Expr) string {
	for {
		switch e := t.(type) {
		case *ast.StarExpr:
			t = e.X
		case *ast.SelectorExpr:
			return e.Sel.Name
		case *ast.IndexExpr:
			t = e.X
		case *ast.IndexListExpr:
			t = e.X
		case *ast.Ident:
			return e.Name
		default:
			return ""
		}
	}
}

// fieldSyntax returns the syntax of a struct field, or nil when its file
// cannot be read.
func (a *analyzer) fieldSyntax(v *types.Var) *ast.Field {
	if f := a.fields[v.Pos()]; f != nil {
		return f
	}
	v = v.Origin()
	p := a.in.Fset.Position(v.Pos())
	if !p.IsValid() {
		return nil
	}
	x := a.declIndex()
	x.file(a.in.Fset, a.in.ReadFile, p.Filename)
	return x.fields[lineKey{p.Filename, p.Line, v.Name()}]
}

// typeDoc returns the doc comment of a defined type: its spec's, or that of
// a declaration with a single spec.
// constSpec returns the syntax of a constant's declaration, or nil when
// its file cannot be read.
func (a *analyzer) constSpec(c *types.Const) *ast.ValueSpec {
	p := a.in.Fset.Position(c.Pos())
	if !p.IsValid() {
		return nil
	}
	x := a.declIndex()
	x.file(a.in.Fset, a.in.ReadFile, p.Filename)
	return x.values[lineKey{p.Filename, p.Line, c.Name()}]
}

// constBlock returns the const declaration holding a constant, or nil.
func (a *analyzer) constBlock(c *types.Const) *ast.GenDecl {
	vs := a.constSpec(c)
	if vs == nil {
		return nil
	}
	return a.declIndex().blocks[vs]
}

// constDoc is the doc comment of a constant, else its line comment.
func (a *analyzer) constDoc(c *types.Const) string {
	vs := a.constSpec(c)
	switch {
	case vs == nil:
		return ""
	case vs.Doc != nil:
		return withoutName(prose(vs.Doc.Text()), c.Name(), false)
	case vs.Comment != nil:
		return withoutName(prose(vs.Comment.Text()), c.Name(), false)
	}
	return ""
}

func (a *analyzer) typeDoc(obj *types.TypeName) string {
	p := a.in.Fset.Position(obj.Pos())
	if !p.IsValid() {
		return ""
	}
	x := a.declIndex()
	x.file(a.in.Fset, a.in.ReadFile, p.Filename)
	ts := x.specs[lineKey{p.Filename, p.Line, obj.Name()}]
	if ts == nil {
		return ""
	}
	doc := ts.Doc
	if g := x.groups[ts]; doc == nil && g != nil && len(g.Specs) == 1 {
		doc = g.Doc
	}
	if doc == nil {
		return ""
	}
	return docDescription(doc.Text(), obj.Name())
}
