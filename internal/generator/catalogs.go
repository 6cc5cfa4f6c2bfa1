package generator

import (
	"fmt"

	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
	"github.com/mcpgen/mcpgen/internal/toolsearch"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// searchIndex builds the tool search index of a package that asks for
// one (//mcp:search) from its tools' descriptors, as servers publish
// them, and their groups; nil for a package that does not ask.
func searchIndex(m *model.Package, tools []mcprt.Tool) (*toolsearch.Index, *Diagnostic) {
	if !m.Search {
		return nil, nil
	}
	docs := make([]toolsearch.Doc, len(tools))
	for i := range tools {
		t := &tools[i]
		docs[i] = toolsearch.DocOf(t.Name, t.Title, t.Description, t.InputSchema, t.Groups)
	}
	ix, err := toolsearch.Build(docs, toolsearch.DefaultOptions)
	if err != nil {
		d := Diagnostic{Msg: fmt.Sprintf("//mcp:search: %v: split the package", err)}
		if len(m.Tools) > 0 {
			d.Pos = m.Tools[0].Pos
		}
		return nil, &d
	}
	return ix, nil
}

// runtimeGroups returns the groups of a package, for -list and -doc.
func runtimeGroups(m *model.Package) []mcprt.Group {
	var out []mcprt.Group
	for _, g := range m.Groups {
		out = append(out, mcprt.Group{Name: g.Name, Title: g.Title, Description: g.Description})
	}
	return out
}
