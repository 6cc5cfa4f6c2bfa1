package analyze

import (
	"go/ast"
	"go/token"
	"slices"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
)

// This file reads the directives of a package's doc comment, //mcp:group
// and //mcp:search, and gives every declaration its groups.

// packageDirective reads the directive c of comment group cg of f when
// it belongs in a package's doc comment, and reports whether it did.
// Elsewhere such a directive is an error; other directives are left to
// the caller.
func (a *analyzer) packageDirective(f *ast.File, cg *ast.CommentGroup, c *ast.Comment) bool {
	d, errs := annotations.ParseDirective(c.Slash, c.Text)
	switch d := d.(type) {
	case *annotations.Group, *annotations.Search:
		a.annotationErrors(errs)
		if cg != f.Doc {
			a.misplacedPackageDirective(placeOf(f, cg, commentPlaces(f)), d)
			return true
		}
		a.declare(d)
		return true
	}
	return false
}

// misplacedPackageDirective reports //mcp:group or //mcp:search d, whose
// place says where it is written ("on func F").
func (a *analyzer) misplacedPackageDirective(place string, d any) {
	pos, word := token.NoPos, "//mcp:search"
	switch d := d.(type) {
	case *annotations.Search:
		pos = d.Pos
	case *annotations.Group:
		pos, word = d.Pos, "//mcp:group"
	}
	a.errorf(pos, "%s %s: move it to the package's doc comment, the comment just above the package clause", word, place)
}

// declare files a directive of the package's doc comment.
func (a *analyzer) declare(d any) {
	switch d := d.(type) {
	case *annotations.Search:
		if a.searchAt.IsValid() {
			a.errorf(d.Pos, "repeated //mcp:search: the package asks for its search index once (first at %s)", shortPos(a.in.Fset.Position(a.searchAt)))
			return
		}
		a.searchAt = d.Pos
		a.pkg.Search = true
	case *annotations.Group:
		if !d.Name.Set {
			return
		}
		i := slices.IndexFunc(a.pkg.Groups, func(g *model.Group) bool { return g.Name == d.Name.Value })
		if i >= 0 {
			a.errorf(d.Name.Pos, "group %q is declared twice in the package's doc comments (first at %s)", d.Name.Value, shortPos(a.pkg.Groups[i].Pos))
			return
		}
		a.pkg.Groups = append(a.pkg.Groups, &model.Group{Pos: a.in.Fset.Position(d.Pos), Name: d.Name.Value,
			Title: d.Title.Value, Description: d.Description.Value, Declared: true})
	}
}

// namedGroup is a group one group= names, and where.
type namedGroup struct {
	name string
	pos  token.Pos
}

// memberOf returns the names of groups, the group= keys of one
// declaration.
func (a *analyzer) memberOf(groups []annotations.String) []string {
	var out []string
	for _, g := range groups {
		out = append(out, g.Value)
		a.groupsNamed = append(a.groupsNamed, namedGroup{g.Value, g.Pos})
	}
	return out
}

// applyGroups makes every declaration a member of the groups the
// package's doc comment declares, after its own, and lists after the
// declared groups those only group= names, in the order first named.
func (a *analyzer) applyGroups() {
	var declared []string
	for _, g := range a.pkg.Groups {
		declared = append(declared, g.Name)
	}
	for _, n := range a.groupsNamed {
		if !slices.ContainsFunc(a.pkg.Groups, func(g *model.Group) bool { return g.Name == n.name }) {
			a.pkg.Groups = append(a.pkg.Groups, &model.Group{Pos: a.in.Fset.Position(n.pos), Name: n.name})
		}
	}
	if len(declared) == 0 {
		return
	}
	join := func(own []string) []string {
		for _, g := range declared {
			if !slices.Contains(own, g) {
				own = append(own, g)
			}
		}
		return own
	}
	for _, t := range a.pkg.Tools {
		t.Groups = join(t.Groups)
	}
	for _, p := range a.pkg.Prompts {
		p.Groups = join(p.Groups)
	}
	for _, r := range a.pkg.Resources {
		r.Groups = join(r.Groups)
	}
}
