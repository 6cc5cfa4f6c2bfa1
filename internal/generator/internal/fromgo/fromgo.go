// Package fromgo is the front end of a client generated from a package's
// own declarations: it turns the analyzed package into the client model,
// lending the package's Go types to the client where the client can
// import them, and declaring copies in the client package where it
// cannot (a main package, an unexported type).
package fromgo

import (
	"fmt"
	"go/token"
	"unicode"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/internal/generator/internal/goident"
	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
	"github.com/mcpgen/mcpgen/internal/generator/internal/schema"
)

// Error is a declaration the client cannot call, at its position.
type Error struct {
	Pos token.Position
	Msg string
}

// Client builds the client of pkg's tools, prompts and resources, to be
// the package name at path.
func Client(pkg *model.Package, schemas *schema.Set, name, path string) (*model.Client, []Error) {
	b := &builder{src: pkg, importable: pkg.Name != "main", c: &model.Client{Name: name, Path: path, Source: "package " + pkg.Path},
		names: goident.New("Client", "NewClient"), lent: map[*model.Type]*model.Type{}, refer: map[*model.Type]bool{}}
	b.c.Scope = b.names.Scope()
	methods := goident.New("Session")
	for _, t := range pkg.Tools {
		b.at = t.Pos
		ct := &model.ClientTool{Method: methods.Take(methodName(&t.Func)), Name: t.Name, Doc: t.Description,
			Out: t.Out, OutPtr: t.OutPtr, Wrapped: schemas.Tool(t).Wrap}
		ct.Input = b.input(&t.Func, ct.Method)
		if t.OutType != nil {
			ct.OutType = b.typ(t.OutType)
		}
		b.c.Tools = append(b.c.Tools, ct)
	}
	for _, p := range pkg.Prompts {
		b.at = p.Pos
		cp := &model.ClientPrompt{Method: methods.Take(methodName(&p.Func)), Name: p.Name, Doc: p.Description}
		cp.Input = b.input(&p.Func, cp.Method)
		b.c.Prompts = append(b.c.Prompts, cp)
	}
	for _, r := range pkg.Resources {
		b.at = r.Pos
		cr := &model.ClientResource{Method: methods.Take(methodName(&r.Func)), URI: r.URI, Doc: r.Description, Parts: r.Parts, Out: r.Out}
		if r.Input != nil {
			for _, f := range r.Input.Fields {
				v := *f
				v.Type = b.typ(f.Type)
				cr.Vars = append(cr.Vars, &v)
			}
		}
		if r.OutType != nil {
			cr.OutType = b.typ(r.OutType)
		}
		b.c.Resources = append(b.c.Resources, cr)
	}
	return b.c, b.errs
}

type builder struct {
	src        *model.Package
	importable bool // the client may import the source package
	c          *model.Client
	names      *goident.Names
	lent       map[*model.Type]*model.Type // source type -> the client's
	refer      map[*model.Type]bool        // named source type -> the client may refer to it
	at         token.Position
	errs       []Error
}

func (b *builder) errorf(format string, args ...any) {
	b.errs = append(b.errs, Error{Pos: b.at, Msg: fmt.Sprintf(format, args...)})
}

// methodName is the Go name of the client method of f: the function's
// name, with the receiver type's before it for a method.
func methodName(f *model.Func) string {
	if f.Recv != nil {
		return f.Recv.Name + f.FuncName
	}
	return f.FuncName
}

// input is the client's type of f's arguments, or nil when f takes
// none. The arguments of positional parameters become a struct the
// client declares, METHODInput.
func (b *builder) input(f *model.Func, method string) *model.Type {
	if f.Input == nil || len(f.Input.Fields) == 0 {
		return nil
	}
	if !f.Input.Local {
		return b.typ(f.Input)
	}
	t := &model.Type{Kind: model.Struct, Named: &model.GoName{Path: b.c.Path, Name: b.names.Take(method + "Input")}}
	fields := goident.New()
	for _, sf := range f.Input.Fields {
		nf := *sf
		nf.Type = b.typ(sf.Type)
		nf.Path = []model.Step{{Name: fields.Take(goident.Exported(sf.WireName))}}
		// What may be left out is left out while zero, so that the
		// server applies its default.
		nf.OmitEmpty = !sf.Required
		t.Fields = append(t.Fields, &nf)
	}
	b.c.Decls = append(b.c.Decls, &model.Decl{Type: t, Doc: t.Named.Name + " holds the arguments of " + method + "."})
	return t
}

// typ is the client's type for the source type t: t itself where the
// client can name it, else a copy the client declares.
func (b *builder) typ(t *model.Type) *model.Type {
	if c, ok := b.lent[t]; ok {
		return c
	}
	if t.Named != nil && b.referable(t) {
		b.lent[t] = t
		return t
	}
	c := *t
	b.lent[t] = &c
	if t.Named != nil {
		if !b.declare(t, &c) {
			return &c
		}
	}
	if t.Elem != nil {
		c.Elem = b.typ(t.Elem)
	}
	if t.Key != nil {
		c.Key = b.typ(t.Key)
	}
	if t.Kind == model.Struct {
		c.Fields = nil
		fields := goident.New()
		for _, f := range t.Fields {
			nf := *f
			nf.Type = b.typ(f.Type)
			nf.Path = []model.Step{{Name: fields.Take(f.Path[len(f.Path)-1].Name)}}
			c.Fields = append(c.Fields, &nf)
		}
	}
	return &c
}

// declare makes c, a copy of the named source type t, a type the client
// declares, or reports why it cannot be.
func (b *builder) declare(t, c *model.Type) bool {
	switch {
	case t.Kind == model.JSONMethod || t.Kind == model.TextMethod:
		b.errorf("type %s decodes itself and cannot be declared again in the client: make it an exported type of a package the client can import", t.Named.Name)
		return false
	case len(t.Named.Args) > 0:
		b.errorf("generic type %s cannot be declared again in the client: make it an exported type of a package the client can import", t.Named.Name)
		return false
	}
	c.Named = &model.GoName{Path: b.c.Path, Name: b.names.Take(exported(t.Named.Name))}
	c.Layouts, c.Local = nil, false
	doc := c.Named.Name + " is " + t.Named.Name + " of package " + t.Named.Path + ", declared again: the client cannot import it."
	if t.Doc != "" {
		doc += "\n\n" + t.Doc
	}
	d := &model.Decl{Type: c, Doc: doc}
	for _, v := range t.Enum {
		if t.Kind == model.String || t.Kind == model.Int || t.Kind == model.Uint {
			d.Consts = append(d.Consts, model.Const{Name: b.names.Take(c.Named.Name + goident.Exported(unquote(v.JSON))), Value: v})
		}
	}
	b.c.Decls = append(b.c.Decls, d)
	return true
}

// referable reports whether the client can name the named type t and
// everything its decoder and encoder name: an exported type of an
// importable package, whose fields are reached by exported selectors.
func (b *builder) referable(t *model.Type) bool {
	if r, ok := b.refer[t]; ok {
		return r
	}
	b.refer[t] = true // a recursive type is referable unless something else says no
	r := b.referableNow(t)
	b.refer[t] = r
	return r
}

func (b *builder) referableNow(t *model.Type) bool {
	if t.Local {
		return false
	}
	if t.Named != nil && t.Named.Path == b.src.Path && (!b.importable || !isExported(t.Named.Name)) {
		return false
	}
	if t.Named != nil {
		for _, a := range t.Named.Args {
			if !b.below(a) {
				return false
			}
		}
	}
	for _, sub := range []*model.Type{t.Elem, t.Key} {
		if sub != nil && !b.below(sub) {
			return false
		}
	}
	for _, f := range t.Fields {
		for _, s := range f.Path {
			if !isExported(s.Name) {
				return false
			}
		}
		if !b.below(f.Type) {
			return false
		}
	}
	return true
}

// below reports whether a type inside a referable one can be named too.
func (b *builder) below(t *model.Type) bool {
	if t.Named != nil {
		return b.referable(t)
	}
	return b.referableNow(t)
}

func isExported(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}

// exported is name with its first letter in upper case.
func exported(name string) string {
	r, n := utf8.DecodeRuneInString(name)
	return string(unicode.ToUpper(r)) + name[n:]
}

// unquote is the text of a JSON literal: the string without its quotes,
// a number as written.
func unquote(js string) string {
	if len(js) >= 2 && js[0] == '"' {
		return js[1 : len(js)-1]
	}
	return js
}
