package analyze

import (
	"go/token"

	"github.com/mcpgen/mcpgen/internal/generator/internal/diag"
	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
)

// Server is packages of one run that one server serves together. A
// server that registers two tools of one name keeps only one of them,
// so the names of its tools and prompts, and the URIs of its resources
// and templates, must be unique across its packages, as Package checks
// within one.
type Server struct {
	Packages []*model.Package
	// Why says why a and b, two of Packages, are served together, to
	// end the message: "package example.com/shop imports both".
	Why func(a, b *model.Package) string
}

// decl is one named declaration of a package.
type decl struct {
	kind, fix string // "tool name", "set name= on one of them"
	key       string
	pos       token.Position
	pkg       *model.Package
}

// Duplicates reports each name or URI that two packages of one server
// declare, at both declarations. where writes a position in a message,
// relative to the run's directory. A pair served together for several
// reasons is reported once, with the first server's reason.
func Duplicates(servers []Server, where func(token.Position) string) diag.List {
	var out diag.List
	reported := map[[2]token.Position]bool{}
	for _, s := range servers {
		first := map[[2]string]decl{} // by kind and key
		for _, p := range s.Packages {
			for _, d := range decls(p) {
				id := [2]string{d.kind, d.key}
				f, dup := first[id]
				if !dup {
					first[id] = d
					continue
				}
				pair := [2]token.Position{f.pos, d.pos}
				if f.pkg == d.pkg || reported[pair] { // one package: Package reports it
					continue
				}
				reported[pair] = true
				why := s.Why(f.pkg, d.pkg)
				out = append(out,
					diag.Errorf(f.pos, "%s %q is also declared at %s, and %s: %s", d.kind, d.key, where(d.pos), why, d.fix),
					diag.Errorf(d.pos, "%s %q is also declared at %s, and %s: %s", d.kind, d.key, where(f.pos), why, d.fix))
			}
		}
	}
	return out
}

// decls lists the declarations of p whose names a server holds once.
func decls(p *model.Package) []decl {
	var out []decl
	for _, t := range p.Tools {
		out = append(out, decl{"tool name", "set name= on one of them", string(t.Name), t.Pos, p})
	}
	for _, pr := range p.Prompts {
		out = append(out, decl{"prompt name", "set name= on one of them", pr.Name, pr.Pos, p})
	}
	for _, r := range p.Resources {
		kind := "resource uri"
		if r.IsTemplate() {
			kind = "resource template"
		}
		out = append(out, decl{kind, "change the uri of one of them", r.URI, r.Pos, p})
	}
	return out
}
