package emit

import (
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
)

// groupList writes MCPGroups: the groups the package declares, with
// their titles and descriptions, then a bare entry for each group only
// group= names, so that a server lists every group a member names.
func (e *emitter) groupList() {
	if len(e.pkg.Groups) == 0 {
		return
	}
	e.f.Commentf("%s returns the groups of the package's tools, prompts and resources", names.Groups)
	e.f.Comment("(SEP-2084): those its doc comment declares, then those only group= names.")
	e.f.Func().Id(names.Groups).Params().Index().Add(rtGroup.qual()).Block(
		jen.Return(jen.Index().Add(rtGroup.qual()).ValuesFunc(func(g *jen.Group) {
			for _, gr := range e.pkg.Groups {
				fs := []field{{"Name", jen.Lit(gr.Name)}}
				if gr.Title != "" {
					fs = append(fs, field{"Title", jen.Lit(gr.Title)})
				}
				if gr.Description != "" {
					fs = append(fs, field{"Description", jen.Lit(gr.Description)})
				}
				g.Line().Values(fields(fs, false)...)
			}
			g.Line()
		})),
	)
	e.f.Line()
}

// searchIndex writes MCPSearchIndex and the index as a package variable
// of constants only, which the compiler lays out as static data: a server
// that searches with it builds nothing when it starts. Each term is one
// line; scores are written in the shortest form that reads back as the
// same float32.
func (e *emitter) searchIndex() {
	ix := e.cfg.SearchIndex
	if !e.pkg.Search || ix == nil {
		return
	}
	v := names.Prefix + "searchIndex"
	e.f.Commentf("%s returns the index tool search ranks the package's tools by", names.SearchIndex)
	e.f.Comment("(mcpserver's Server.ToolSearch): built when the file was generated.")
	e.f.Func().Id(names.SearchIndex).Params().Op("*").Add(rtSearchIndex.qual()).Block(jen.Return(jen.Op("&").Id(v)))
	e.f.Line()
	e.cut()
	tools := jen.Index().String().ValuesFunc(func(g *jen.Group) {
		for _, n := range ix.Names {
			g.Line().Lit(n)
		}
		g.Line()
	})
	terms := jen.Index().Add(rtSearchTerm.qual()).ValuesFunc(func(g *jen.Group) {
		for _, t := range ix.Terms {
			docs := make([]jen.Code, len(t.Docs))
			scores := make([]jen.Code, len(t.Scores))
			for i, d := range t.Docs {
				docs[i] = jen.Lit(int(d))
			}
			for i, s := range t.Scores {
				scores[i] = jen.Id(strconv.FormatFloat(float64(s), 'g', -1, 32))
			}
			g.Line().Values(jen.Id("Text").Op(":").Lit(t.Text), jen.Id("Docs").Op(":").Index().Uint16().Values(docs...),
				jen.Id("Scores").Op(":").Index().Float32().Values(scores...))
		}
		g.Line()
	})
	e.f.Var().Id(v).Op("=").Add(rtSearchIndex.qual()).Values(jen.Dict{jen.Id("Tools"): tools, jen.Id("Terms"): terms})
	e.f.Line()
}
