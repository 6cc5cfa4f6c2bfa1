package generator

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStaleFileBreaksBuild generates a package, changes a tool function's
// signature without regenerating, and checks that the build fails in the
// generated file with a message telling the user to rerun go generate.
func TestStaleFileBreaksBuild(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a module")
	}
	mod := tempModule(t, filepath.Join("testdata", "golden", "shapes"))
	if code, _, stderr := runMain(t, mod); code != ExitOK {
		t.Fatalf("mcpgen exit %d:\n%s", code, stderr)
	}
	goCmd(t, mod, "build", ".")
	src := filepath.Join(mod, "shapes.go")
	old := readOrEmpty(src)
	changed := strings.Replace(old, "func Repeat(word string, times int) string {", "func Repeat(word string, times int64) string {", 1)
	if changed == old {
		t.Fatal("the case no longer declares Repeat as expected")
	}
	writeFile(t, src, changed)
	cmd := exec.Command("go", "build", ".")
	cmd.Dir = mod
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err == nil {
		t.Fatal("a stale generated file still builds")
	}
	if !strings.Contains(out.String(), "mcp_gen.go:") || !strings.Contains(out.String(), "mcpgen_Repeat_changed_rerun_go_generate") {
		t.Errorf("build output does not point at the guard:\n%s", out.String())
	}
	if code, _, stderr := runMain(t, mod); code != ExitOK {
		t.Fatalf("regenerating: exit %d:\n%s", code, stderr)
	}
	goCmd(t, mod, "build", ".")
}

// TestStaleFieldsBreakBuild generates and builds a package, then changes
// struct types it decodes, each change in a copy of it, without
// regenerating: a field added to an embedded struct, a field's type
// changed, and a field added to a struct of another package. Each must fail the build in the generated file, at a
// type whose name says to rerun go generate; a tag change alone must not.
func TestStaleFieldsBreakBuild(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds modules")
	}
	const other = "package other\n\n// Customer is a customer.\ntype Customer struct {\n\tName string `json:\"name\"` // The name\n}\n"
	const greet = "package types\n\nimport (\n\t\"context\"\n\n\t\"example.com/e2e/other\"\n)\n\n" +
		"// Greet greets a customer.\n//\n//mcp:tool\nfunc Greet(ctx context.Context, in other.Customer) error { return nil }\n"
	// The module every case changes a copy of, generated and built once.
	base := tempModule(t, filepath.Join("testdata", "golden", "types"))
	if err := os.MkdirAll(filepath.Join(base, "other"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(base, "other", "other.go"), other)
	writeFile(t, filepath.Join(base, "greet.go"), greet)
	if code, _, stderr := runMain(t, base); code != ExitOK {
		t.Fatalf("mcpgen exit %d:\n%s", code, stderr)
	}
	goCmd(t, base, "build", ".")
	for _, tc := range []struct {
		name, file, old, new, guard string
	}{
		{"embedded field added", "types.go",
			"\tShade string `json:\"shade\"`\n}", "\tShade string `json:\"shade\"`\n\tTint  string `json:\"tint\"`\n}",
			"mcpgen_Base_fields_changed_rerun_go_generate"},
		{"field type changed", "types.go",
			"Small    int8", "Small    int16",
			"mcpgen_Input_fields_changed_rerun_go_generate"},
		{"field of another package added", "other/other.go",
			"\tName string `json:\"name\"` // The name\n", "\tName string `json:\"name\"` // The name\n\tMail string `json:\"mail\"` // The mail\n",
			"mcpgen_Customer_fields_changed_rerun_go_generate"},
		{"tag changed", "types.go",
			"Shade string `json:\"shade\"`", "Shade string `json:\"colour\"`",
			""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			mod := t.TempDir()
			if err := os.CopyFS(mod, os.DirFS(base)); err != nil {
				t.Fatal(err)
			}
			src := filepath.Join(mod, filepath.FromSlash(tc.file))
			old := readOrEmpty(src)
			changed := strings.Replace(old, tc.old, tc.new, 1)
			if changed == old {
				t.Fatalf("the case no longer holds %q", tc.old)
			}
			writeFile(t, src, changed)
			cmd := exec.Command("go", "build", ".")
			cmd.Dir = mod
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := cmd.Run()
			if tc.guard == "" {
				if err != nil {
					t.Fatalf("a change that leaves the fields as they were breaks the build:\n%s", out.String())
				}
				return
			}
			if err == nil {
				t.Fatal("a stale generated file still builds")
			}
			if !strings.Contains(out.String(), "mcp_gen.go:") || !strings.Contains(out.String(), tc.guard) {
				t.Errorf("build output does not point at %s:\n%s", tc.guard, out.String())
			}
			if code, _, stderr := runMain(t, mod); code != ExitOK {
				t.Fatalf("regenerating: exit %d:\n%s", code, stderr)
			}
			goCmd(t, mod, "build", ".")
		})
	}
}
