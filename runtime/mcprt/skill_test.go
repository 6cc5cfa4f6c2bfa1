package mcprt_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

func TestSkillsFS(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"git/SKILL.md":             {Data: []byte("---\nname: git\ndescription: Commit well\n---\n")},
		"git/scripts/hook.sh":      {Data: []byte("#!/bin/sh\n")},
		"git/nested/deep/SKILL.md": {Data: []byte("---\nname: deep\ndescription: Nested\n---\n")},
		"README.txt":               {Data: []byte("not a skill")},
	}
	skills, err := mcprt.SkillsFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if len(skills) != 2 || skills[0].Path != "git" || skills[1].Path != "git/nested/deep" {
		t.Fatalf("skills: %+v", skills)
	}
	git := skills[0]
	var paths []string
	for _, f := range git.Files {
		paths = append(paths, f.Path)
		data, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		if f.Size != int64(len(data)) || f.Digest != mcprt.Digest(data) {
			t.Errorf("%s: size %d digest %s, its bytes %d %s", f.Path, f.Size, f.Digest, len(data), mcprt.Digest(data))
		}
	}
	// A skill's files include those of the skills nested in it.
	if got := strings.Join(paths, " "); got != "SKILL.md nested/deep/SKILL.md scripts/hook.sh" {
		t.Errorf("files of git: %s", got)
	}
	if git.Files[2].MIMEType != "text/x-shellscript" || git.Files[0].MIMEType != "text/markdown" {
		t.Errorf("media types: %+v", git.Files)
	}
	if string(git.Frontmatter) != `{"name":"git","description":"Commit well"}` {
		t.Errorf("frontmatter %s", git.Frontmatter)
	}
	if d := mcprt.Digest([]byte("abc")); d != "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("Digest(abc) = %s", d)
	}
}

func TestSkillsFSProblems(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"a/SKILL.md":     {Data: []byte("---\nname: b\ndescription: x\n---\n")},
		"c/SKILL.md":     {Data: []byte("no frontmatter")},
		"d/SKILL.md":     {Data: []byte("---\nname: d\ndescription: [x\n---\n")},
		"e/SKILL.md":     {Data: []byte("---\nname: e\ndescription: x\nmetadata:\n  io.modelcontextprotocol/x: y\n---\n")},
		"f/SKILL.md":     {Data: []byte("---\nname: f\n---\n")},
		"x/y/f/SKILL.md": {Data: []byte("---\nname: f\ndescription: again\n---\n")},
	}
	_, err := mcprt.SkillsFS(fsys)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`a/SKILL.md:2:7: name "b" differs from the skill's directory "a"`,
		"c/SKILL.md:1:1: SKILL.md does not begin with YAML frontmatter",
		"d/SKILL.md:3:16: a flow collection",
		`e/SKILL.md:5:3: the metadata key "io.modelcontextprotocol/x" is reserved`,
		"f/SKILL.md:2:1: the frontmatter has no description",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q:\n%v", want, err)
		}
	}
}
