package analyze

import (
	"go/ast"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/internal/generator/internal/diag"
	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
)

// checkCollisions reports user declarations that the generated file would
// redeclare: a package-level MCPTools, MCPPrompts or MCPResources when the
// package has package-level tools, prompts or resources, a method of the
// same name on a type with such methods, and any package-level identifier
// with the generated prefix. Each is positioned at the user's declaration.
func (a *analyzer) checkCollisions(files []*ast.File) {
	lists := a.generatedLists()
	for _, f := range files {
		if a.isClientFile(f) {
			continue // mcpgen -client wrote it, with the prefix
		}
		for _, id := range topLevelNames(f) {
			switch {
			case strings.HasPrefix(id.Name, names.Prefix):
				a.errorf(id.Pos(), "%s uses the prefix %s, which is reserved for generated code: rename it", id.Name, names.Prefix)
			case lists[id.Name] != nil && lists[id.Name].funcs:
				a.errorf(id.Pos(), "%s is declared by the generated file for the package's %s: rename this declaration", id.Name, lists[id.Name].what)
			}
		}
		for _, fn := range methods(f) {
			if l := lists[fn.Name.Name]; l != nil && l.recvs[recvName(fn)] {
				a.errorf(fn.Name.Pos(), "method %s of %s is declared by the generated file for the %s methods of %[2]s: rename this method", fn.Name.Name, recvName(fn), strings.TrimSuffix(l.what, "s"))
			}
		}
	}
}

// isClientFile reports whether f is a client file mcpgen -client wrote:
// named so, its first line the generated header.
func (a *analyzer) isClientFile(f *ast.File) bool {
	if filepath.Base(a.in.Fset.Position(f.Pos()).Filename) != names.ClientFile || len(f.Comments) == 0 {
		return false
	}
	first := f.Comments[0].List[0]
	return first.Text == names.Header && a.in.Fset.Position(first.Pos()).Line == 1
}

// generatedList is what a generated MCPTools, MCPPrompts or MCPResources
// lists: whether there is a package-level one, and for which receivers.
type generatedList struct {
	what  string // "tools"
	funcs bool
	recvs map[string]bool
}

// generatedLists says which list functions and methods the generated file
// declares, by name.
func (a *analyzer) generatedLists() map[string]*generatedList {
	lists := map[string]*generatedList{
		names.Tools:     {what: "tools", recvs: map[string]bool{}},
		names.Prompts:   {what: "prompts", recvs: map[string]bool{}},
		names.Resources: {what: "resources", recvs: map[string]bool{}},
		names.Skills:    {what: "skills", recvs: map[string]bool{}, funcs: a.pkg.Skills != nil},
	}
	add := func(name string, recv *model.Receiver) {
		if recv == nil {
			lists[name].funcs = true
		} else {
			lists[name].recvs[recv.Name] = true
		}
	}
	for _, t := range a.pkg.Tools {
		add(names.Tools, t.Recv)
	}
	for _, p := range a.pkg.Prompts {
		add(names.Prompts, p.Recv)
	}
	for _, r := range a.pkg.Resources {
		add(names.Resources, r.Recv)
	}
	return lists
}

// topLevelNames returns the identifiers declared at package level in f:
// functions, types, variables and constants.
func topLevelNames(f *ast.File) []*ast.Ident {
	var ids []*ast.Ident
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				ids = append(ids, d.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					ids = append(ids, s.Name)
				case *ast.ValueSpec:
					ids = append(ids, s.Names...)
				}
			}
		}
	}
	return ids
}

// methods returns the method declarations of f.
func methods(f *ast.File) []*ast.FuncDecl {
	var out []*ast.FuncDecl
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && len(fn.Recv.List) == 1 {
			out = append(out, fn)
		}
	}
	return out
}

// recvName is the name of a method's receiver type, without pointer or
// type parameters.
func recvName(fn *ast.FuncDecl) string {
	t := fn.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// checkDescriptions warns about input properties without a description:
// a model guesses what such a property means from its name alone. Fields
// are reported once, at their declaration, and only when declared in the
// package's own files (the only ones whose comments were read).
func (a *analyzer) checkDescriptions(files []*ast.File) {
	own := map[string]bool{}
	for _, f := range files {
		own[a.in.Fset.File(f.Pos()).Name()] = true
	}
	seen := map[*model.Type]bool{}
	for _, t := range a.pkg.Tools {
		if t.InputFile == nil {
			a.describedFields(t.Input, own, seen)
		}
	}
}

// describedFields walks the struct types reachable from t once each.
func (a *analyzer) describedFields(t *model.Type, own map[string]bool, seen map[*model.Type]bool) {
	if t == nil || seen[t] {
		return
	}
	seen[t] = true
	for _, f := range t.Fields {
		if strings.TrimSpace(f.Doc) == "" && own[f.Pos.Filename] {
			msg := sprintf("property %s has no description: add a doc or line comment, or desc= in its mcp tag", f.WireName)
			if t.Local {
				msg = sprintf("parameter %s has no description: add //mcp:param %[1]s description=\"...\"", f.WireName)
			}
			a.diags = append(a.diags, diag.Warningf(f.Pos, "%s", msg))
		}
		a.describedFields(f.Type, own, seen)
	}
	a.describedFields(t.Elem, own, seen)
}
