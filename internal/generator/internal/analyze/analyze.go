// Package analyze turns a type-checked Go package into the generator's
// model: it finds the //mcp: directives, checks each annotated function's
// shape, maps parameter and result types to model types, and collects every
// problem as a positioned diagnostic instead of stopping at the first.
package analyze

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/internal/generator/internal/diag"
	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
)

// Input is a loaded package, as the load stage hands it over.
type Input struct {
	Fset    *token.FileSet
	Files   []*ast.File
	Pkg     *types.Package
	Info    *types.Info
	Dir     string
	GenFile string // path of the generated file (skipped when reading)
	// EmbedFiles are the files the package embeds, absolute paths.
	// NoEmbedFiles says they are not known (go vet does not say), so
	// that the skills they hold go unchecked.
	EmbedFiles   []string
	NoEmbedFiles bool
	// ReadFile reads a file: a schema file named by input= or output=, or a
	// Go file of another package whose declarations a tool uses, named as
	// the type information names it. The analysis reads nothing itself.
	ReadFile func(name string) ([]byte, error)
	// Local returns another package of the module, type-checked from
	// source, or nil when the path is not of the module. The constants of
	// a type are looked up in its own package through it.
	Local func(path string) *types.Package
	// Progress, when set, is called with the position of each tool
	// directive before the tool is analyzed, so that a caller can say
	// where an internal error happened.
	Progress func(token.Position)
}

// analyzer holds the state of one package's analysis.
type analyzer struct {
	in     Input
	diags  diag.List
	fields map[token.Pos]*ast.Field // struct fields by the position of their first name or type
	types  map[types.Type]*model.Type
	pkg    *model.Package
	decls  *declIndex // syntax of declarations anywhere, read on demand
	// completePos holds where each complete= was written, for fields whose
	// completer turns out to be misplaced.
	completePos map[*model.Field]token.Pos
	// headerAt holds where each header= was written.
	headerAt map[*model.Field]token.Pos
	// searchAt is where //mcp:search was written; groupsNamed are the groups
	// group= names, in source order (see groups.go).
	searchAt    token.Pos
	groupsNamed []namedGroup
}

// Package analyzes one package. It returns a nil model when the package has
// no tools, and the diagnostics found either way.
func Package(in Input) (*model.Package, diag.List) {
	a := &analyzer{
		in:     in,
		fields: map[token.Pos]*ast.Field{},
		types:  map[types.Type]*model.Type{},
		pkg:    &model.Package{Name: in.Pkg.Name(), Path: in.Pkg.Path(), Dir: in.Dir, GenFile: in.GenFile},
	}
	a.indexFields()
	a.pkg.Scope = map[string]bool{}
	files := a.userFiles()
	for _, f := range files {
		a.scope(f)
		a.file(f)
	}
	a.applyGroups()
	a.checkNames()
	a.checkCatalogNames()
	a.checkApps()
	a.checkCollisions(files)
	a.checkDescriptions(files)
	if len(a.pkg.Tools) == 0 && len(a.pkg.Prompts) == 0 && len(a.pkg.Resources) == 0 && len(a.pkg.Forms) == 0 && a.pkg.Skills == nil {
		return nil, a.diags
	}
	return a.pkg, a.diags
}

// scope records the package-level names declared in f.
func (a *analyzer) scope(f *ast.File) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				a.pkg.Scope[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					a.pkg.Scope[s.Name.Name] = true
				case *ast.ValueSpec:
					for _, n := range s.Names {
						a.pkg.Scope[n.Name] = true
					}
				}
			}
		}
	}
}

// userFiles returns the package's files other than the generated one.
func (a *analyzer) userFiles() []*ast.File {
	var files []*ast.File
	for _, f := range a.in.Files {
		name := a.in.Fset.File(f.Pos()).Name()
		if filepath.Clean(name) == filepath.Clean(a.in.GenFile) {
			continue
		}
		files = append(files, f)
	}
	return files
}

func (a *analyzer) errorf(pos token.Pos, format string, args ...any) {
	a.diags = append(a.diags, diag.Errorf(a.in.Fset.Position(pos), format, args...))
}

func (a *analyzer) warnf(pos token.Pos, format string, args ...any) {
	a.diags = append(a.diags, diag.Warningf(a.in.Fset.Position(pos), format, args...))
}

func (a *analyzer) annotationErrors(errs []annotations.Error) {
	for _, e := range errs {
		a.errorf(e.Pos, "%s", e.Msg)
	}
}

// file analyzes the directives of one file: tools on functions and methods,
// and directives anywhere else, which are errors.
func (a *analyzer) file(f *ast.File) {
	docs := map[*ast.CommentGroup]*ast.FuncDecl{}
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Doc != nil {
			docs[fn.Doc] = fn
		}
	}
	typeDocs, varDocs := typeDocComments(f), varDocComments(f)
	var places map[*ast.CommentGroup]string
	for _, cg := range f.Comments {
		a.spacedDirectives(cg)
		if fn := docs[cg]; fn != nil {
			a.funcDecl(fn)
			continue
		}
		if spec := typeDocs[cg]; spec != nil && a.typeDirectives(cg, spec) {
			continue
		}
		if spec := varDocs[cg]; spec != nil && a.varDirectives(cg, spec) {
			continue
		}
		for _, c := range cg.List {
			if !isMCPDirective(c.Text) || a.packageDirective(f, cg, c) {
				continue
			}
			if places == nil {
				places = commentPlaces(f)
			}
			if directiveWord(c.Text) == "//mcp:skills" {
				a.errorf(c.Slash, "//mcp:skills %s: %s", placeOf(f, cg, places), skillsPlace)
				continue
			}
			a.errorf(c.Slash, "%s %s: move it to the doc comment of a top-level func or method", directiveWord(c.Text), placeOf(f, cg, places))
		}
	}
}

// spacedDirectives warns of lines of cg written as "// mcp:tool", which Go
// reads as prose, as go vet does for "// go:generate".
func (a *analyzer) spacedDirectives(cg *ast.CommentGroup) {
	for _, c := range cg.List {
		if word, ok := annotations.SpacedDirective(c.Text); ok {
			a.warnf(c.Slash, "// %s is not a directive and does nothing: remove the space after the slashes (%s)", word[2:], word)
		}
	}
}

func isMCPDirective(text string) bool { return strings.HasPrefix(text, "//mcp:") }

// directiveWord returns "//mcp:name" of a directive line.
func directiveWord(text string) string {
	if i := strings.IndexAny(text, " \t"); i >= 0 {
		return text[:i]
	}
	return text
}

// funcDecl reads the directives of one function's doc comment and, when
// there is a //mcp:tool, //mcp:prompt or //mcp:resource, analyzes the
// function as one.
func (a *analyzer) funcDecl(fn *ast.FuncDecl) {
	var ds funcDirectives
	for _, c := range fn.Doc.List {
		d, errs := annotations.ParseDirective(c.Slash, c.Text)
		a.annotationErrors(errs)
		a.directive(fn, &ds, d)
	}
	if ds.main == nil {
		for _, p := range ds.params {
			a.errorf(p.Pos, "//mcp:param on %s, which is no tool, prompt or resource: add //mcp:tool, //mcp:prompt or //mcp:resource to its doc comment", fn.Name.Name)
		}
		for _, ic := range ds.icons {
			a.errorf(ic.Pos, "//mcp:icon on %s, which is no tool, prompt or resource: add //mcp:tool, //mcp:prompt or //mcp:resource to its doc comment", fn.Name.Name)
		}
		return
	}
	if a.in.Progress != nil {
		a.in.Progress(a.in.Fset.Position(ds.pos))
	}
	switch d := ds.main.(type) {
	case *annotations.Tool:
		if t := a.tool(fn, d, ds.params, ds.icons); t != nil {
			t.Groups, t.Pin = a.memberOf(d.Groups), d.Pin.Value
			a.pkg.Tools = append(a.pkg.Tools, t)
		}
	case *annotations.Prompt:
		if p := a.prompt(fn, d, ds.params, ds.icons); p != nil {
			p.Groups = a.memberOf(d.Groups)
			a.pkg.Prompts = append(a.pkg.Prompts, p)
		}
	case *annotations.Resource:
		if r := a.resource(fn, d, ds.params, ds.icons); r != nil {
			r.Groups = a.memberOf(d.Groups)
			a.pkg.Resources = append(a.pkg.Resources, r)
		}
	}
}

// funcDirectives are the directives of one function: the one that makes
// it a tool, prompt or resource, and those that describe it.
type funcDirectives struct {
	main   any // *annotations.Tool, *annotations.Prompt or *annotations.Resource
	pos    token.Pos
	word   string // //mcp:tool, ...
	params []*annotations.Param
	icons  []*annotations.Icon
}

// directive files one parsed directive of fn.
func (a *analyzer) directive(fn *ast.FuncDecl, ds *funcDirectives, d any) {
	var pos token.Pos
	var word string
	switch d := d.(type) {
	case *annotations.Tool:
		pos, word = d.Pos, "//mcp:tool"
	case *annotations.Prompt:
		pos, word = d.Pos, "//mcp:prompt"
	case *annotations.Resource:
		pos, word = d.Pos, "//mcp:resource"
	case *annotations.Param:
		ds.params = append(ds.params, d)
		return
	case *annotations.Icon:
		ds.icons = append(ds.icons, d)
		return
	case *annotations.Form:
		a.errorf(d.Pos, "//mcp:form on func %s: move it to the doc comment of a struct type", fn.Name.Name)
		return
	case *annotations.Skills:
		a.errorf(d.Pos, "//mcp:skills on func %s: %s", fn.Name.Name, skillsPlace)
	case *annotations.Group, *annotations.Search:
		a.misplacedPackageDirective("on func "+fn.Name.Name, d)
		return
	default:
		return
	}
	switch {
	case ds.main == nil:
		ds.main, ds.pos, ds.word = d, pos, word
	case ds.word == word:
		a.errorf(pos, "repeated %s directive on %s: merge its keys into the first one", word, fn.Name.Name)
	default:
		a.errorf(pos, "%s on %s, which is a %s already: a function is one tool, prompt or resource", word, fn.Name.Name, strings.TrimPrefix(ds.word, "//mcp:"))
	}
}
