// Package emit writes the generated Go file of a package from the model
// and the schemas the schema stage computed, with github.com/dave/jennifer.
// It never sees Go syntax trees or types, computes no schema, and does not
// import the runtime: runtime.go names what generated code uses of it.
package emit

import (
	"bytes"
	"fmt"
	"go/token"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
	"github.com/mcpgen/mcpgen/internal/generator/internal/schema"
	"github.com/mcpgen/mcpgen/internal/toolsearch"
)

// emitter writes one file. Generated identifiers share names.Prefix, which
// the analysis forbids in user code.
type emitter struct {
	pkg      *model.Package
	schemas  *schema.Set
	cfg      Config
	l        *locals // the names of parameters and variables in generated functions
	f        *jen.File
	decoders map[*model.Type]string // struct type -> decode function name
	order    []*model.Type          // struct types in first-use order
	fieldVar map[*model.Type]string
	patterns []string
	// encoders and encodeOrder are to results what decoders and order are
	// to arguments.
	encoders    map[*model.Type]string
	encodeOrder []*model.Type
	enums       map[string]string // enum list -> variable name
	bounds      map[string]string // numeric bounds -> variable name
	funcNames   map[string]bool   // decode and encode function names taken
	// skipUnknown makes decoders skip properties they do not know, as a
	// client reads results: -diff calls a property added compatible.
	skipUnknown bool
}

// Config is what the emitter is told beside the model.
type Config struct {
	// EnforcesFormat reports whether the runtime checks the values of a
	// format= keyword: a check is written only for those formats. The
	// runtime owns that list; the emitter does not import the runtime.
	EnforcesFormat func(format string) bool
	// SearchIndex is the package's tool search index, written as
	// MCPSearchIndex when the package asks for it (model.Package.Search).
	SearchIndex *toolsearch.Index
	// Progress, when set, is called with the position of each tool before
	// its code is written, so that a caller can say where an internal error
	// happened.
	Progress func(token.Position)
}

// File returns the formatted source of pkg's generated file. An error means
// jennifer produced source gofmt rejects: a bug in mcpgen, reported with the
// numbered source.
func File(pkg *model.Package, schemas *schema.Set, cfg Config) ([]byte, error) {
	e := &emitter{pkg: pkg, schemas: schemas, cfg: cfg, l: newLocals(pkg.Scope), f: jen.NewFilePathName(pkg.Path, pkg.Name), decoders: map[*model.Type]string{}, fieldVar: map[*model.Type]string{}, encoders: map[*model.Type]string{}, enums: map[string]string{}, bounds: map[string]string{}, funcNames: map[string]bool{}}
	e.f.NoFormat = true // formatted once, below
	e.imports()
	e.f.HeaderComment(names.Header)
	e.f.Comment("A compile error on the next line means this file was generated for an older")
	e.f.Comment("runtime: rerun go generate.")
	e.f.Var().Id("_").Op("=").Add(rtVersion.qual())
	e.f.Line()
	e.guards()
	e.toolLists()
	e.promptList()
	e.resourceList()
	e.skillList()
	e.groupList()
	e.searchIndex()
	for _, t := range pkg.Tools {
		e.progress(t.Pos)
		e.call(t)
	}
	for _, p := range pkg.Prompts {
		e.progress(p.Pos)
		e.prompt(p)
	}
	for _, r := range pkg.Resources {
		e.progress(r.Pos)
		e.resource(r)
	}
	e.forms()
	for i := 0; i < len(e.order); i++ { // decoders may add more types as they go
		e.cut()
		e.decoder(e.order[i])
	}
	for i := 0; i < len(e.encodeOrder); i++ { // and so may encoders
		e.cut()
		e.encoder(e.encodeOrder[i])
	}
	e.cut()
	e.layoutGuards()
	e.patternVars()
	var buf bytes.Buffer
	if err := e.f.Render(&buf); err != nil {
		return nil, fmt.Errorf("internal error: generated code for %s does not format: %v\n%s", pkg.Path, err, numbered(uncut(buf.Bytes())))
	}
	src, err := gofmt(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("internal error: generated code for %s does not format: %v\n%s", pkg.Path, err, numbered(uncut(buf.Bytes())))
	}
	return src, nil
}

// progress reports the position whose code is written next and cuts the
// file there, for formatting in parts.
func (e *emitter) progress(pos token.Position) {
	if e.cfg.Progress != nil {
		e.cfg.Progress(pos)
	}
	e.cut()
}

// imports names every import so that no import name shadows, or is shadowed
// by, a package-level name of the user's package.
func (e *emitter) imports() {
	std := []rtPackage{{"context", "context"}, {"strconv", "strconv"},
		{"unicode/utf8", "utf8"}, {"regexp", "regexp"}, {"time", "time"}, {"encoding/json", "json"}}
	for _, imp := range append(runtimePackages, std...) {
		e.importName(imp.path, imp.name)
	}
}

func (e *emitter) importName(path, name string) {
	if e.pkg.Scope[name] {
		e.f.ImportAlias(path, names.Import(name))
		return
	}
	e.f.ImportName(path, name)
}

func numbered(src []byte) string {
	var b strings.Builder
	for i, line := range strings.Split(string(src), "\n") {
		fmt.Fprintf(&b, "%5d  %s\n", i+1, line)
	}
	return b.String()
}

// toolLists writes MCPTools for the package-level tools and one MCPTools
// method for each receiver type with tool methods.
func (e *emitter) toolLists() {
	var funcs []*model.Tool
	byRecv := map[string][]*model.Tool{}
	var recvs []string
	for _, t := range e.pkg.Tools {
		if t.Recv == nil {
			funcs = append(funcs, t)
			continue
		}
		if byRecv[t.Recv.Name] == nil {
			recvs = append(recvs, t.Recv.Name)
		}
		byRecv[t.Recv.Name] = append(byRecv[t.Recv.Name], t)
	}
	if len(funcs) > 0 {
		e.f.Commentf("%s returns the MCP tools of the package's annotated functions, in", names.Tools)
		e.f.Comment("source order.")
		e.f.Func().Id(names.Tools).Params().Index().Add(rtTool.qual()).Block(
			jen.Return(jen.Index().Add(rtTool.qual()).ValuesFunc(func(g *jen.Group) {
				for _, t := range funcs {
					g.Add(e.toolValue(t, jen.Id(callName(t))))
				}
			})),
		)
		e.f.Line()
	}
	for _, r := range recvs {
		e.methodList(r, byRecv[r])
	}
}

func (e *emitter) methodList(recv string, tools []*model.Tool) {
	e.f.Commentf("%s returns the MCP tools of the annotated methods of %s, in source", names.Tools, recv)
	e.f.Commentf("order, bound to %s.", e.l.recv)
	e.f.Func().Params(jen.Id(e.l.recv).Op("*").Id(recv)).Id(names.Tools).Params().Index().Add(rtTool.qual()).Block(
		jen.Return(jen.Index().Add(rtTool.qual()).ValuesFunc(func(g *jen.Group) {
			for _, t := range tools {
				h := jen.Func().Params(jen.Id(e.l.ctx).Qual("context", "Context"), jen.Id(e.l.args).Index().Byte()).Add(rtResult.qual()).Block(
					jen.Return(jen.Id(callName(t)).Call(jen.Id(e.l.recv), jen.Id(e.l.ctx), jen.Id(e.l.args))),
				)
				g.Add(e.toolValue(t, h))
			}
		})),
	)
	e.f.Line()
}

// field is one key: value of a struct literal. Literals are built from
// ordered fields, not jen.Dict, to keep the fields in declaration order
// without rendering keys to sort them.
type field struct {
	name  string
	value jen.Code
}

// fields lays out a struct literal's fields, one per line when multiline.
func fields(fs []field, multiline bool) []jen.Code {
	out := make([]jen.Code, 0, len(fs)+1)
	for _, f := range fs {
		kv := jen.Id(f.name).Op(":").Add(f.value)
		if multiline {
			kv = jen.Line().Add(kv)
		}
		out = append(out, kv)
	}
	if multiline {
		out = append(out, jen.Line())
	}
	return out
}

// toolValue is the mcprt.Tool literal of one tool.
func (e *emitter) toolValue(t *model.Tool, handler jen.Code) jen.Code {
	fs := []field{{"Name", jen.Lit(string(t.Name))}}
	if t.Title != "" {
		fs = append(fs, field{"Title", jen.Lit(t.Title)})
	}
	s := e.schemas.Tool(t)
	fs = append(fs, field{"Description", jen.Lit(t.Description)}, field{"InputSchema", jsonBytes(s.Input)})
	if s.Output != nil {
		fs = append(fs, field{"OutputSchema", jsonBytes(s.Output)})
		if s.Wrap {
			fs = append(fs, field{"WrapOutput", jen.True()})
		}
	}
	if h := hints(t.Hints); h != nil {
		fs = append(fs, field{"Hints", h})
	}
	if len(t.Icons) > 0 {
		fs = append(fs, field{"Icons", icons(t.Icons)})
	}
	switch t.TaskSupport {
	case "optional":
		fs = append(fs, field{"TaskSupport", rtTaskOptional.qual()})
	case "required":
		fs = append(fs, field{"TaskSupport", rtTaskRequired.qual()})
	}
	if len(t.Scopes) > 0 {
		fs = append(fs, field{"Scopes", stringList(t.Scopes)})
	}
	if len(t.Groups) > 0 {
		fs = append(fs, field{"Groups", stringList(t.Groups)})
	}
	if t.Pin {
		fs = append(fs, field{"Pin", jen.True()})
	}
	fs = append(fs, field{"Handler", handler}, field{"ChecksArguments", jen.True()})
	if t.UI != nil {
		ui := []field{{"ResourceURI", jen.Lit(t.UI.ResourceURI)}}
		if len(t.UI.Visibility) > 0 {
			ui = append(ui, field{"Visibility", stringList(t.UI.Visibility)})
		}
		fs = append(fs, field{"UI", jen.Op("&").Add(rtToolUI.qual()).Values(fields(ui, false)...)})
	}
	return jen.Values(fields(fs, true)...)
}

// stringList is the []string literal of ss.
func stringList(ss []string) jen.Code {
	return jen.Index().String().ValuesFunc(func(g *jen.Group) {
		for _, s := range ss {
			g.Lit(s)
		}
	})
}

// jsonBytes writes pre-serialized JSON as a []byte conversion of a raw
// string literal, readable in the generated file.
func jsonBytes(js []byte) jen.Code {
	if bytes.IndexByte(js, '`') >= 0 || !utf8Valid(js) {
		return jen.Index().Byte().Call(jen.Lit(string(js)))
	}
	return jen.Index().Byte().Call(jen.Id("`" + string(js) + "`"))
}

func hints(h model.Hints) jen.Code {
	var fs []field
	for _, x := range []struct {
		name string
		v    *bool
	}{{"ReadOnly", h.ReadOnly}, {"Destructive", h.Destructive}, {"Idempotent", h.Idempotent}, {"OpenWorld", h.OpenWorld}} {
		if x.v != nil {
			fs = append(fs, field{x.name, jen.New(jen.Lit(*x.v))})
		}
	}
	if len(fs) == 0 {
		return nil
	}
	return rtHints.qual().Values(fields(fs, false)...)
}

func icons(ics []model.Icon) jen.Code {
	return jen.Index().Add(rtIcon.qual()).ValuesFunc(func(g *jen.Group) {
		for _, ic := range ics {
			fs := []field{{"Src", jen.Lit(ic.Src)}}
			if ic.MIMEType != "" {
				fs = append(fs, field{"MIMEType", jen.Lit(ic.MIMEType)})
			}
			if len(ic.Sizes) > 0 {
				fs = append(fs, field{"Sizes", jen.Index().String().ValuesFunc(func(g *jen.Group) {
					for _, s := range ic.Sizes {
						g.Lit(s)
					}
				})})
			}
			if ic.Theme != "" {
				fs = append(fs, field{"Theme", jen.Lit(ic.Theme)})
			}
			g.Values(fields(fs, false)...)
		}
	})
}

func callName(t *model.Tool) string { return names.Call(t.GoIdent()) }

// goType is the Go type expression of a named type or of a type literal
// built from named and predeclared types; anonymous structs never reach it
// (the analysis rejects them where a type must be written).
func goType(t *model.Type) jen.Code {
	if t.Named != nil {
		var name *jen.Statement
		if t.Local || t.Named.Path == "" {
			name = jen.Id(t.Named.Name)
		} else {
			name = jen.Qual(t.Named.Path, t.Named.Name)
		}
		if len(t.Named.Args) == 0 {
			return name
		}
		args := make([]jen.Code, len(t.Named.Args))
		for i, a := range t.Named.Args {
			args[i] = goType(a)
		}
		return name.Types(args...)
	}
	switch t.Kind {
	case model.Pointer:
		return jen.Op("*").Add(goType(t.Elem))
	case model.Slice:
		return jen.Index().Add(goType(t.Elem))
	case model.Array:
		return jen.Index(jen.Lit(t.Len)).Add(goType(t.Elem))
	case model.Map:
		if t.NamedKey() {
			return jen.Map(goType(t.Key)).Add(goType(t.Elem))
		}
		return jen.Map(jen.String()).Add(goType(t.Elem))
	case model.Bytes:
		return jen.Index().Byte()
	case model.Any:
		return jen.Any()
	}
	return jen.Id(t.Basic)
}

func utf8Valid(b []byte) bool { return strings.ToValidUTF8(string(b), "\uFFFD") == string(b) }

func quoteList(vs []model.EnumValue) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.JSON
	}
	return strings.Join(parts, ", ")
}
