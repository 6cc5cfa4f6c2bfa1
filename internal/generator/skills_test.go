package generator

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSkillLimits checks the limits of SEP-2640 at go generate: at most
// 512 files and 16 MiB a skill, reported at the skill's SKILL.md.
func TestSkillLimits(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("writes 17 MB")
	}
	mod := tempModule(t, filepath.Join("testdata", "golden", "skills"))
	many := filepath.Join(mod, "guides", "pdf-forms", "many")
	if err := os.MkdirAll(many, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 511 {
		writeFile(t, filepath.Join(many, fmt.Sprintf("f%03d.md", i)), "x")
	}
	writeFile(t, filepath.Join(mod, "guides", "team", "git-workflow", "big.txt"), strings.Repeat("x", 16<<20))
	code, _, stderr := runMain(t, mod)
	want := "guides/pdf-forms/SKILL.md:1:1: the skill pdf-forms has 513 files, more than the 512 hosts must accept: split it\n" +
		"guides/team/git-workflow/SKILL.md:1:1: the skill team/git-workflow holds 16777400 bytes, more than the 16777216 (16 MiB) hosts must accept: split it or move large files out\n"
	if code != ExitFail || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", code, stderr, want)
	}
}

// TestSkillsDigestsAtRunTime checks that MCPSkills publishes the sizes and
// digests of the bytes the binary holds: a file edited after go generate
// is served with the digest of its new bytes, and a frontmatter edited
// into breaking a rule stops the program, asking for go generate.
func TestSkillsDigestsAtRunTime(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds modules")
	}
	mod := tempModule(t, filepath.Join("testdata", "golden", "skills"))
	writeFile(t, filepath.Join(mod, "main_test.go"), `package skills

import (
	"fmt"
	"testing"
)

func TestPrint(t *testing.T) {
	for _, s := range MCPSkills() {
		for _, f := range s.Files {
			fmt.Printf("%s/%s %d %s\n", s.Path, f.Path, f.Size, f.Digest)
		}
	}
}
`)
	if code, _, stderr := runMain(t, mod); code != ExitOK {
		t.Fatalf("mcpgen: exit %d\n%s", code, stderr)
	}
	manifest := filepath.Join(mod, "guides", "pdf-forms", "SKILL.md")
	data, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	edited := string(data) + "\nOne more line, added after go generate.\n"
	writeFile(t, manifest, edited)
	out := goCmd(t, mod, "test", "-run", "TestPrint", "-v", ".")
	sum := sha256.Sum256([]byte(edited))
	want := fmt.Sprintf("pdf-forms/SKILL.md %d sha256:%s", len(edited), hex.EncodeToString(sum[:]))
	if !strings.Contains(out, want) {
		t.Errorf("the edited SKILL.md is not served with the digest of its bytes, %q:\n%s", want, out)
	}
	writeFile(t, manifest, strings.Replace(edited, "name: pdf-forms", "name: renamed", 1))
	cmd := exec.Command("go", "test", "-run", "TestPrint", ".")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	broken, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(broken), "rerun go generate") || !strings.Contains(string(broken), `name "renamed" differs`) {
		t.Errorf("a frontmatter broken after go generate: %v\n%s", err, broken)
	}
}
