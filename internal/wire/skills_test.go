package wire

import (
	"slices"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestCatalogSkillScopes: the adapters' gates find a skill's scopes for
// skills/get, reads of its files and directory reads, and in every scope
// the metadata names; skills/list needs none.
func TestCatalogSkillScopes(t *testing.T) {
	t.Parallel()
	var c Catalog
	if got := c.ScopesOf("skills/get", "", "skill://guide/SKILL.md"); got != nil {
		t.Errorf("no skills: %v", got)
	}
	_, err := c.AddSkills([]mcprt.Skill{{Path: "guide", Scopes: []string{"kb.read"}, Files: []mcprt.SkillFile{
		mcprt.NewSkillFile("SKILL.md", []byte("---\nname: guide\ndescription: d\n---\n")),
		mcprt.NewSkillFile("more/tips.md", []byte("tips")),
	}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range [][2]string{
		{"skills/get", "skill://guide/SKILL.md"},
		{"resources/read", "skill://guide/more/tips.md"},
		{"resources/directory/read", "skill://guide/more"},
	} {
		if got := c.ScopesOf(op[0], "", op[1]); !slices.Equal(got, []string{"kb.read"}) {
			t.Errorf("%s %s: %v, want [kb.read]", op[0], op[1], got)
		}
	}
	if got := c.ScopesOf("skills/list", "", ""); got != nil {
		t.Errorf("skills/list: %v", got)
	}
	if got := c.AllScopes(); !slices.Equal(got, []string{"kb.read"}) {
		t.Errorf("AllScopes: %v", got)
	}
	if _, err := c.AddSkills([]mcprt.Skill{{Path: "bad"}}); err == nil || c.Skills().Len() != 1 {
		t.Errorf("a bad skill: %v, and %d skills kept", err, c.Skills().Len())
	}
}
