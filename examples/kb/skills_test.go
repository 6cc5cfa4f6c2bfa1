package main

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcptest"
)

// TestSkill reads kb's skill as a host loading it does: the entry, every
// file checked against its digest and size, and the tools it names.
func TestSkill(t *testing.T) {
	t.Parallel()
	c := mcptest.New(t, mcptest.Identity(identity), mcptest.Tools(MCPTools()...), mcptest.Skills(MCPSkills()...))
	skills := c.ListSkills()
	if len(skills) != 1 || skills[0].URI != "skill://using-kb/SKILL.md" || len(skills[0].Resources) != 2 {
		t.Fatalf("skills/list: %+v", skills)
	}
	files := c.ReadSkill(c.GetSkill(skills[0].URI))
	body := string(files["skill://using-kb/SKILL.md"]) + string(files["skill://using-kb/references/TOOLS.md"])
	for _, tool := range c.ListTools() {
		if !strings.Contains(body, "`"+tool.Name+"`") {
			t.Errorf("the skill does not mention the tool %s", tool.Name)
		}
	}
	if s := MCPSkills()[0]; len(s.Scopes) != 1 || s.Scopes[0] != "kb.read" {
		t.Errorf("scopes %v, want kb.read", s.Scopes)
	}
}
