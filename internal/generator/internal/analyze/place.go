package analyze

import (
	"go/ast"
	"go/token"
)

// commentPlaces names the declaration each doc or line comment of f
// belongs to ("type T", "field N", "var V"), for messages about
// directives written in the wrong place.
func commentPlaces(f *ast.File) map[*ast.CommentGroup]string {
	places := map[*ast.CommentGroup]string{}
	add := func(cg *ast.CommentGroup, what string) {
		if cg != nil {
			places[cg] = what
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GenDecl:
			if len(n.Specs) > 0 {
				add(n.Doc, specPlace(n.Tok, n.Specs[0]))
			}
		case *ast.TypeSpec:
			add(n.Doc, "type "+n.Name.Name)
			add(n.Comment, "type "+n.Name.Name)
		case *ast.ValueSpec:
			add(n.Doc, specPlace(token.VAR, n))
			add(n.Comment, specPlace(token.VAR, n))
		case *ast.StructType:
			for _, fld := range n.Fields.List {
				add(fld.Doc, fieldPlace(fld))
				add(fld.Comment, fieldPlace(fld))
			}
		}
		return true
	})
	return places
}

func specPlace(tok token.Token, s ast.Spec) string {
	switch s := s.(type) {
	case *ast.TypeSpec:
		return "type " + s.Name.Name
	case *ast.ValueSpec:
		if len(s.Names) > 0 {
			return tok.String() + " " + s.Names[0].Name
		}
	}
	return tok.String() + " declaration"
}

func fieldPlace(f *ast.Field) string {
	if len(f.Names) > 0 {
		return "field " + f.Names[0].Name
	}
	return "embedded field"
}

// placeOf says where a misplaced directive's comment group is: on a
// declaration other than a func, inside a function body, or on nothing.
func placeOf(f *ast.File, cg *ast.CommentGroup, places map[*ast.CommentGroup]string) string {
	if p, ok := places[cg]; ok {
		return "on " + p
	}
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Body != nil && fn.Body.Pos() < cg.Pos() && cg.End() < fn.Body.End() {
			return "inside the body of " + fn.Name.Name
		}
	}
	return "is in no doc comment (a blank line may separate it from the func)"
}
