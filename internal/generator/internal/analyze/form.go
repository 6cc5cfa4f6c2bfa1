package analyze

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/internal/generator/internal/diag"
	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
)

// typeDocComments maps the doc comment of each type declaration to its
// spec: the comment above "type T struct" or above a spec in a group.
func typeDocComments(f *ast.File) map[*ast.CommentGroup]*ast.TypeSpec {
	docs := map[*ast.CommentGroup]*ast.TypeSpec{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, s := range gd.Specs {
			ts := s.(*ast.TypeSpec)
			if ts.Doc != nil {
				docs[ts.Doc] = ts
			}
		}
		if gd.Doc != nil && len(gd.Specs) == 1 {
			docs[gd.Doc] = gd.Specs[0].(*ast.TypeSpec)
		}
	}
	return docs
}

// typeDirectives reads the doc comment of a type declaration. It reports
// whether the comment held an //mcp:form, in which case every directive of
// the comment has been dealt with.
func (a *analyzer) typeDirectives(cg *ast.CommentGroup, spec *ast.TypeSpec) bool {
	var form *annotations.Form
	var skills []*ast.Comment // reported below only beside a form: file reports them otherwise
	for _, c := range cg.List {
		if !isMCPDirective(c.Text) {
			continue
		}
		d, errs := annotations.ParseDirective(c.Slash, c.Text)
		a.annotationErrors(errs)
		switch d := d.(type) {
		case *annotations.Form:
			form = d
		case *annotations.Group, *annotations.Search:
			a.misplacedPackageDirective("on type "+spec.Name.Name, d)
		case nil:
		case *annotations.Skills:
			skills = append(skills, c)
		default:
			a.errorf(c.Slash, "%s on type %s: move it to the doc comment of a top-level func or method", directiveWord(c.Text), spec.Name.Name)
		}
	}
	if form == nil {
		return false
	}
	for _, c := range skills {
		a.errorf(c.Slash, "//mcp:skills on type %s: %s", spec.Name.Name, skillsPlace)
	}
	if f := a.form(spec, form); f != nil {
		a.pkg.Forms = append(a.pkg.Forms, f)
	}
	return true
}

// form analyzes a struct type marked //mcp:form. Elicitation forms are flat:
// each field is a string, number, integer, boolean, enum, list of enum
// strings or date-time.
func (a *analyzer) form(spec *ast.TypeSpec, d *annotations.Form) *model.Form {
	obj, _ := a.in.Info.Defs[spec.Name].(*types.TypeName)
	if obj == nil || spec.TypeParams != nil {
		a.errorf(d.Pos, "//mcp:form on generic type %s: a form must be a non-generic struct type", spec.Name.Name)
		return nil
	}
	if _, ok := obj.Type().Underlying().(*types.Struct); !ok {
		a.errorf(d.Pos, "//mcp:form on %s, which is not a struct type: a form is a struct whose fields are its questions", spec.Name.Name)
		return nil
	}
	t := a.typeOf(obj.Type(), spec.Name.Name, spec.Name.Pos())
	if t == nil {
		return nil
	}
	ok := true
	for _, f := range t.Fields {
		if why := formFieldProblem(f); why != "" {
			a.diags = append(a.diags, diag.Errorf(f.Pos, "form %s, field %s: %s", spec.Name.Name, f.WireName, why))
			ok = false
		}
	}
	for _, m := range []string{names.FormSchema, names.FormDecode} {
		if sel := types.NewMethodSet(types.NewPointer(obj.Type())).Lookup(obj.Pkg(), m); sel != nil && !a.inGenFile(sel.Obj().Pos()) {
			a.errorf(sel.Obj().Pos(), "method %s of form %s collides with the method mcpgen generates: rename it", m, spec.Name.Name)
			ok = false
		}
	}
	if !ok {
		return nil
	}
	return &model.Form{Pos: a.in.Fset.Position(d.Pos), Type: t}
}

// formFieldProblem says why f cannot be a question of a form, or "".
func formFieldProblem(f *model.Field) string {
	t := valueType(f.Type)
	switch t.Kind {
	case model.String, model.Int, model.Uint, model.Float, model.Bool, model.Time:
		return ""
	case model.Slice:
		if e := valueType(t.Elem); e.Kind == model.String && (len(e.Enum) > 0 || len(f.Constraints.Enum) > 0) {
			return ""
		}
		return "a list in a form must be a list of enum strings (a multiple choice)"
	}
	return "forms hold only strings, numbers, integers, booleans, enums and date-times, not " + kindName(t)
}

// inGenFile reports whether pos lies in the generated file.
func (a *analyzer) inGenFile(pos token.Pos) bool {
	return a.in.Fset.Position(pos).Filename == a.in.GenFile
}
