package annotations

import "go/token"

// Group is the //mcp:group NAME [title=TEXT] [description=TEXT]
// directive of a package's doc comment: the package's tools, prompts and
// resources all belong to group NAME, which the keys describe.
type Group struct {
	Pos                token.Pos // position of the "//" of the directive
	Name               String    // the first, positional word
	Title, Description String
}

// Search is the //mcp:search directive of a package's doc comment: the
// generated file declares the package's tool search index.
type Search struct {
	Pos token.Pos // position of the "//" of the directive
}

// parseGroup decodes the arguments of //mcp:group: a group name, then
// its keys, which are valid.
func parseGroup(pos token.Pos, args []arg, valid []string, errs []Error) (*Group, []Error) {
	g := &Group{Pos: pos}
	d := newDecoder(errs)
	switch {
	case len(args) == 0 || args[0].hasValue:
		d.errorf(pos, "missing group name: want //mcp:group NAME [title=TEXT] [description=TEXT]")
	default:
		if p := ToolNameProblem(args[0].key); p != "" {
			d.errorf(args[0].pos, "bad group name %q: %s", args[0].key, p)
		} else {
			g.Name = String{Value: args[0].key, Pos: args[0].pos, Set: true}
		}
		args = args[1:]
	}
	d.apply(args, valid, func(a arg) bool {
		switch a.key {
		case "title":
			d.str(a, &g.Title)
		case "description":
			d.str(a, &g.Description)
		default:
			return false
		}
		return true
	})
	return g, d.result()
}

// group adds the value of one group= to groups: a name as tools are
// named, not given before.
func (d *decoder) group(a arg, groups *[]String) {
	if !d.needValue(a) {
		return
	}
	if p := ToolNameProblem(a.value); p != "" {
		d.errorf(a.pos, "bad group name %q: %s", a.value, p)
		return
	}
	for _, g := range *groups {
		if g.Value == a.value {
			d.errorf(a.pos, "group %q is given twice", a.value)
			return
		}
	}
	*groups = append(*groups, String{Value: a.value, Pos: a.pos, Set: true})
}
