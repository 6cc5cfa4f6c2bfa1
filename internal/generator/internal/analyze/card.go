package analyze

import (
	"go/ast"
	"go/constant"
	"go/token"
	"path/filepath"

	"github.com/mcpgen/mcpgen/internal/generator/internal/diag"
	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
)

// The types whose literals a Server Card is read from.
const (
	rtPath     = "github.com/mcpgen/mcpgen/runtime/mcprt"
	serverPath = "github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// Card reads the package's Server Card for mcpgen -card: the one
// composite literal of mcpserver.Card and the one of mcprt.Identity in
// its files, whose fields the card is made of must be constants. A Card
// URL that is not a constant is one set at run time, and left empty. A
// package without a Card literal has no card: nil.
func Card(in Input) (*model.Card, diag.List) {
	a := &analyzer{in: in}
	var idLit, cardLit *ast.CompositeLit
	for _, f := range a.userFiles() {
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			switch {
			case isNamed(in.Info.TypeOf(lit), rtPath, "Identity"):
				a.onlyOne(&idLit, lit, "mcprt.Identity")
			case isNamed(in.Info.TypeOf(lit), serverPath, "Card"):
				a.onlyOne(&cardLit, lit, "mcpserver.Card")
			}
			return true
		})
	}
	pos := token.NoPos
	if len(in.Files) > 0 {
		pos = in.Files[0].Name.Pos()
	}
	if cardLit == nil {
		return nil, a.diags // a package without a card
	}
	if idLit == nil {
		a.errorf(pos, "-card: package %s has no mcprt.Identity literal to make the card of", in.Pkg.Name())
	}
	if a.diags.HasErrors() {
		return nil, a.diags
	}
	c := &model.Card{Pos: in.Fset.Position(cardLit.Pos())}
	a.cardFields(idLit, "Identity", map[string]func(ast.Expr){
		"Name":        a.cardString(&c.Name, "Identity.Name"),
		"Version":     a.cardString(&c.Version, "Identity.Version"),
		"Title":       a.cardString(&c.Title, "Identity.Title"),
		"Description": a.cardString(&c.Description, "Identity.Description"),
		"WebsiteURL":  a.cardString(&c.WebsiteURL, "Identity.WebsiteURL"),
		"Icons":       func(e ast.Expr) { c.Icons = a.cardIcons(e) },
	})
	a.cardFields(cardLit, "Card", map[string]func(ast.Expr){
		"Name":        a.cardString(&c.CardName, "Card.Name"),
		"Description": a.cardString(&c.CardDescription, "Card.Description"),
		"URL": func(e ast.Expr) {
			if s, ok := a.constantString(e); ok {
				c.URL = s
			}
		},
		"Repository": func(e ast.Expr) { c.Repository = a.cardRepository(e) },
	})
	if a.diags.HasErrors() {
		return nil, a.diags
	}
	return c, a.diags
}

// onlyOne records lit as the literal of what, or reports a second one.
func (a *analyzer) onlyOne(dst **ast.CompositeLit, lit *ast.CompositeLit, what string) {
	if *dst != nil {
		first := a.in.Fset.Position((*dst).Pos())
		a.errorf(lit.Pos(), "-card: a second %s literal (the first is at %s:%d); the package must have one", what, filepath.Base(first.Filename), first.Line)
		return
	}
	*dst = lit
}

// cardFields runs read's function of each keyed field of lit; fields it does
// not name are not part of the card.
func (a *analyzer) cardFields(lit *ast.CompositeLit, what string, read map[string]func(ast.Expr)) {
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			a.errorf(e.Pos(), "-card: write the %s literal with field names, so that its fields can be read", what)
			return
		}
		if k, ok := kv.Key.(*ast.Ident); ok && read[k.Name] != nil {
			read[k.Name](kv.Value)
		}
	}
}

// constantString returns the value of e when it is a string constant.
func (a *analyzer) constantString(e ast.Expr) (string, bool) {
	tv, ok := a.in.Info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// cardString returns a reader of a string field that must be a constant.
func (a *analyzer) cardString(dst *string, field string) func(ast.Expr) {
	return func(e ast.Expr) {
		s, ok := a.constantString(e)
		if !ok {
			a.errorf(e.Pos(), "-card: %s is not a constant; the card is made at build time from constants", field)
			return
		}
		*dst = s
	}
}

// cardLiteral returns the composite literal e is, or &e is.
func cardLiteral(e ast.Expr) (*ast.CompositeLit, bool) {
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	lit, ok := e.(*ast.CompositeLit)
	return lit, ok
}

func (a *analyzer) cardIcons(e ast.Expr) []model.Icon {
	lit, ok := cardLiteral(e)
	if !ok {
		a.errorf(e.Pos(), "-card: Identity.Icons is not a literal; the card is made at build time from constants")
		return nil
	}
	var icons []model.Icon
	for _, el := range lit.Elts {
		il, ok := cardLiteral(el)
		if !ok {
			a.errorf(el.Pos(), "-card: an icon of Identity.Icons is not a literal")
			continue
		}
		var ic model.Icon
		a.cardFields(il, "mcprt.Icon", map[string]func(ast.Expr){
			"Src":      a.cardString(&ic.Src, "Icon.Src"),
			"MIMEType": a.cardString(&ic.MIMEType, "Icon.MIMEType"),
			"Theme":    a.cardString(&ic.Theme, "Icon.Theme"),
			"Sizes":    func(e ast.Expr) { ic.Sizes = a.cardStrings(e, "Icon.Sizes") },
		})
		icons = append(icons, ic)
	}
	return icons
}

func (a *analyzer) cardStrings(e ast.Expr, field string) []string {
	lit, ok := cardLiteral(e)
	if !ok {
		a.errorf(e.Pos(), "-card: %s is not a literal of constants", field)
		return nil
	}
	var out []string
	for _, el := range lit.Elts {
		var s string
		a.cardString(&s, field)(el)
		out = append(out, s)
	}
	return out
}

func (a *analyzer) cardRepository(e ast.Expr) *model.CardRepository {
	lit, ok := cardLiteral(e)
	if !ok {
		a.errorf(e.Pos(), "-card: Card.Repository is not a literal; the card is made at build time from constants")
		return nil
	}
	r := &model.CardRepository{}
	a.cardFields(lit, "mcpserver.CardRepository", map[string]func(ast.Expr){
		"URL":       a.cardString(&r.URL, "CardRepository.URL"),
		"Source":    a.cardString(&r.Source, "CardRepository.Source"),
		"Subfolder": a.cardString(&r.Subfolder, "CardRepository.Subfolder"),
		"ID":        a.cardString(&r.ID, "CardRepository.ID"),
	})
	return r
}
