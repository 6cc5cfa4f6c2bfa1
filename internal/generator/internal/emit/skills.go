package emit

import (
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
)

// skillList writes MCPSkills, which reads the package's embedded skills
// when called: the file holds their paths, never their bytes or digests.
func (e *emitter) skillList() {
	s := e.pkg.Skills
	if s == nil {
		return
	}
	paths := make([]string, len(s.List))
	for i, sk := range s.List {
		paths[i] = sk.Path
	}
	e.cut()
	for _, line := range wrap(names.Skills+" returns the Agent Skills that the embed.FS "+s.Var+" holds below "+s.Root+"/: "+strings.Join(paths, ", ")+".", 72) {
		e.f.Comment(line)
	}
	e.f.Comment("It reads their files when called, so their sizes and digests are those of")
	e.f.Comment("the bytes the binary holds. It panics when those files break a rule go")
	e.f.Comment("generate checks: they changed since, and go generate says what is wrong.")
	var scopes jen.Code = jen.Nil()
	if len(s.Scopes) > 0 {
		scopes = stringList(s.Scopes)
	}
	args := []jen.Code{jen.Id(s.Var), jen.Lit(s.Root), scopes}
	for _, p := range paths {
		args = append(args, jen.Lit(p))
	}
	e.f.Func().Id(names.Skills).Params().Index().Add(rtSkill.qual()).Block(
		jen.Return(rtSkills.qual().Call(args...)),
	)
}
