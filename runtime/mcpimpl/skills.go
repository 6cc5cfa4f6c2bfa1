package mcpimpl

import (
	"fmt"
	"io/fs"
	"slices"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// Skills returns the skills a generated MCPSkills declares: those below
// root in fsys, the package's embed.FS, each with scopes. It reads them
// with mcprt.SkillsFS when called, so sizes and digests come from the
// bytes the binary holds, never from go generate.
//
// go generate checked the same files, so an error here means they changed
// since, without go generate being run again: Skills panics with the
// problems and says so, as a stale generated file fails to build. paths
// are the skill paths go generate found, so that a skill added since is
// not served unchecked either.
func Skills(fsys fs.FS, root string, scopes []string, paths ...string) []mcprt.Skill {
	sub, err := fs.Sub(fsys, root)
	var skills []mcprt.Skill
	if err == nil {
		skills, err = mcprt.SkillsFS(sub)
	}
	if err != nil {
		panic(fmt.Sprintf("mcpimpl: the skills embedded from %s no longer pass the checks of go generate; rerun go generate:\n%v", root, err))
	}
	found := make([]string, len(skills))
	for i := range skills {
		found[i] = skills[i].Path
		skills[i].Scopes = slices.Clone(scopes)
	}
	if !slices.Equal(found, paths) {
		panic(fmt.Sprintf("mcpimpl: the skills embedded from %s are %q, go generate saw %q; rerun go generate", root, found, paths))
	}
	return skills
}
