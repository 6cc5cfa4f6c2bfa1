package wire

import (
	"slices"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// MergeGroups returns groups with each name once, in the order first
// given: a package's MCPGroups names without a title the groups another
// package declares, so the entry that describes a group wins over a bare
// one.
func MergeGroups(groups []mcprt.Group) []mcprt.Group {
	out := make([]mcprt.Group, 0, len(groups))
	for _, g := range groups {
		i := slices.IndexFunc(out, func(o mcprt.Group) bool { return o.Name == g.Name })
		switch {
		case i < 0:
			out = append(out, g)
		case out[i].Title == "" && out[i].Description == "" && (g.Title != "" || g.Description != ""):
			out[i] = g
		}
	}
	return out
}

// AppendGroup appends the Group object of g (SEP-2084) as revision rev
// publishes it: a title from 2025-06-18, icons from 2025-11-25, and the
// groups it belongs to in _meta where _meta is published.
func AppendGroup(dst []byte, g *mcprt.Group, rev Revision) []byte {
	dst = jsonx.AppendString(append(dst, `{"name":`...), g.Name)
	if g.Title != "" && rev.HasStructuredOutput() {
		dst = jsonx.AppendString(append(dst, `,"title":`...), g.Title)
	}
	if g.Description != "" {
		dst = jsonx.AppendString(append(dst, `,"description":`...), g.Description)
	}
	if len(g.Icons) > 0 && rev.HasIcons() {
		dst = AppendIcons(append(dst, `,"icons":`...), g.Icons)
	}
	return appendMeta(dst, withGroups(nil, g.Groups), rev)
}
