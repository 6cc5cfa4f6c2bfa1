package mcpimpl_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

func TestSkills(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"skills/a/SKILL.md": {Data: []byte("---\nname: a\ndescription: d\n---\n")}}
	skills := mcpimpl.Skills(fsys, "skills", []string{"kb.read"}, "a")
	if len(skills) != 1 || skills[0].Path != "a" || skills[0].Scopes[0] != "kb.read" {
		t.Fatalf("Skills: %+v", skills)
	}
	for _, c := range []struct {
		fsys  fstest.MapFS
		paths []string
		want  string
	}{
		{fsys, []string{"a", "b"}, `go generate saw ["a" "b"]`},
		{fstest.MapFS{"skills/a/SKILL.md": {Data: []byte("---\nname: b\ndescription: d\n---\n")}}, []string{"a"}, `name "b" differs`},
	} {
		func() {
			defer func() {
				r, _ := recover().(string)
				if !strings.Contains(r, c.want) || !strings.Contains(r, "rerun go generate") {
					t.Errorf("panic %q, want %q and rerun go generate", r, c.want)
				}
			}()
			mcpimpl.Skills(c.fsys, "skills", nil, c.paths...)
		}()
	}
}
