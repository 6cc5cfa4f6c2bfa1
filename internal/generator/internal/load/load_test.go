package load

import (
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/go/packages"

	"github.com/mcpgen/mcpgen/internal/generator/internal/diag"
	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
)

// TestErrorsOf checks which loader errors reach the user: not the go
// command's compile output, not those about names the generated file
// declares, not those inside a generated file; every other one, with its
// position parsed.
func TestErrorsOf(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gen := filepath.Join(dir, "out_gen.go")
	writeFile(t, gen, names.Header+"\n\npackage x\n")
	mine := filepath.Join(dir, "sub", "out_gen.go") // named like the output, but no header
	writeFile(t, mine, "package x\n")
	errs := []packages.Error{
		{Pos: "", Msg: "# example.com/x\n./a.go:3:1: undefined: y", Kind: packages.ListError},
		{Pos: dir + "/a.go:9:2", Msg: "undefined: MCPTools", Kind: packages.TypeError},
		{Pos: dir + "/a.go:10:2", Msg: "x.MCPDecodeForm undefined (type *T has no field or method MCPDecodeForm)", Kind: packages.TypeError},
		{Pos: dir + "/a.go:11:6", Msg: "undefined: mcpgen_call_F", Kind: packages.TypeError},
		{Pos: gen + ":7:9", Msg: "undefined: mcprt.NoSuchThing", Kind: packages.TypeError},
		{Pos: mine + ":1:1", Msg: "written by hand", Kind: packages.TypeError},
		{Pos: dir + "/a.go:3:4", Msg: "undefined: Undefined", Kind: packages.TypeError},
		{Pos: dir + "/go.mod:5", Msg: "no column", Kind: packages.ListError},
		{Pos: "-", Msg: "no line", Kind: packages.ListError},
		{Pos: "", Msg: "no position", Kind: packages.UnknownError},
	}
	got := errorsOf(errs, "out_gen.go")
	want := diag.List{
		{Pos: token.Position{Filename: mine, Line: 1, Column: 1}, Msg: "written by hand"},
		{Pos: token.Position{Filename: dir + "/a.go", Line: 3, Column: 4}, Msg: "undefined: Undefined"},
		{Pos: token.Position{Filename: dir + "/go.mod", Line: 5}, Msg: "no column"},
		{Pos: token.Position{Filename: "-"}, Msg: "no line"},
		{Msg: "no position"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errorsOf (-want +got):\n%s", diff)
	}
}

// TestParsePos checks positions as the loader prints them, with or without
// a column, and with a colon in the file name.
func TestParsePos(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]token.Position{
		"/m/a.go:2:5":   {Filename: "/m/a.go", Line: 2, Column: 5},
		"/m/a.go:7":     {Filename: "/m/a.go", Line: 7},
		"C:/m/a.go:3:1": {Filename: "C:/m/a.go", Line: 3, Column: 1},
		"-":             {Filename: "-"},
		"":              {},
	} {
		if got := parsePos(in); got != want {
			t.Errorf("parsePos(%q) = %+v, want %+v", in, got, want)
		}
	}
}

// TestPackagesFiltersErrors loads a module whose package refers to
// MCPTools before it is generated, has a stale generated file and one real
// type error: only the real error is the user's.
func TestPackagesFiltersErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/x\n\ngo 1.26\n")
	writeFile(t, filepath.Join(dir, "a.go"), "package x\n\nvar _ = MCPTools\n\nvar n int = \"s\"\n")
	writeFile(t, filepath.Join(dir, names.DefaultFile), names.Header+"\n\npackage x\n\nvar _ = mcprtGone.Thing\n")
	fset, pkgs, err := Packages(Config{Dir: dir, Output: names.DefaultFile})
	if err != nil || fset == nil || len(pkgs) != 1 {
		t.Fatalf("Packages: %v, %d packages", err, len(pkgs))
	}
	p := pkgs[0]
	if p.Name != "x" || p.Path != "example.com/x" || p.Dir != dir || len(p.Syntax) != 2 || p.Types == nil || p.Info == nil {
		t.Errorf("package: %+v", p)
	}
	want := diag.List{{Pos: token.Position{Filename: filepath.Join(dir, "a.go"), Line: 5, Column: 13},
		Msg: `cannot use "s" (untyped string constant) as int value in variable declaration`}}
	if diff := cmp.Diff(want, p.Errors); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// TestPackagesWithoutGenerated loads a package whose generated file
// imports io/fs and declares MCPTools: the load sees neither, as if the
// file did not exist, while a hand-written file of the same name is kept.
func TestPackagesWithoutGenerated(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/x\n\ngo 1.26\n")
	writeFile(t, filepath.Join(dir, "a.go"), "package x\n\nimport \"os\"\n\nvar Mode os.FileMode\n")
	writeFile(t, filepath.Join(dir, names.DefaultFile), names.Header+"\n\npackage x\n\nimport \"io/fs\"\n\nfunc MCPTools() fs.FileMode { return fs.ModeDir }\n")
	writeFile(t, filepath.Join(dir, "sub", "a.go"), "package sub\n")
	writeFile(t, filepath.Join(dir, "sub", names.DefaultFile), "package sub\n\nconst Mine = 1\n")
	_, pkgs, err := Packages(Config{Dir: dir, Patterns: []string{"./..."}, Output: names.DefaultFile})
	if err != nil || len(pkgs) != 2 {
		t.Fatalf("Packages: %v, %d packages", err, len(pkgs))
	}
	x, sub := pkgs[0].Types, pkgs[1].Types
	if x.Scope().Lookup("MCPTools") != nil {
		t.Error("the generated file's MCPTools was loaded")
	}
	for _, imp := range x.Imports() {
		if imp.Path() == "io/fs" {
			t.Error("the generated file's import of io/fs was loaded")
		}
	}
	if sub.Scope().Lookup("Mine") == nil {
		t.Error("a hand-written file named like the output was not loaded")
	}
	if got := pkgs[0].Local("example.com/x/sub"); got != sub {
		t.Error("Local loaded a package of the command line again")
	}
	if len(pkgs[0].Errors) != 0 || pkgs[0].Module != "example.com/x" {
		t.Errorf("errors %v, module %q", pkgs[0].Errors, pkgs[0].Module)
	}
}

// TestPackagesRenamed loads a package renamed since its generated file was
// written: the stale file, listed first, names the old package, which
// neither the go command nor the type checker may see.
func TestPackagesRenamed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/x\n\ngo 1.26\n")
	writeFile(t, filepath.Join(dir, "z.go"), "package x\n\nvar Z int\n")
	writeFile(t, filepath.Join(dir, names.DefaultFile), names.Header+"\n\npackage old\n\nimport \"io/fs\"\n\nvar _ = fs.Gone\n")
	_, pkgs, err := Packages(Config{Dir: dir, Output: names.DefaultFile})
	if err != nil || len(pkgs) != 1 {
		t.Fatalf("Packages: %v, %d packages", err, len(pkgs))
	}
	p := pkgs[0]
	if p.Name != "x" || p.Types == nil || p.Types.Name() != "x" || p.Types.Scope().Lookup("Z") == nil || len(p.Errors) != 0 {
		t.Errorf("package %s, types %v, errors %v", p.Name, p.Types, p.Errors)
	}
}

// TestLocal checks that another package of the module is loaded from
// source with all its declarations, and that a package of another module
// is not local.
func TestLocal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/x\n\ngo 1.26\n")
	writeFile(t, filepath.Join(dir, "a.go"), "package x\n\nimport \"example.com/x/q\"\n\nvar C q.Color\n")
	writeFile(t, filepath.Join(dir, "q", "q.go"), "package q\n\ntype Color string\n\nconst Red Color = \"red\"\n")
	_, pkgs, err := Packages(Config{Dir: dir, Output: names.DefaultFile})
	if err != nil || len(pkgs) != 1 {
		t.Fatalf("Packages: %v, %d packages", err, len(pkgs))
	}
	q := pkgs[0].Local("example.com/x/q")
	if q == nil || q.Scope().Lookup("Red") == nil {
		t.Fatalf("Local(example.com/x/q) = %v, without its constant Red", q)
	}
	if again := pkgs[0].Local("example.com/x/q"); again != q {
		t.Error("Local loaded the package twice")
	}
	for _, path := range []string{"os", "example.com/xy", "example.com/x/none"} {
		if p := pkgs[0].Local(path); p != nil {
			t.Errorf("Local(%s) = %v, want nil", path, p)
		}
	}
}

// TestLocals checks the Local of a package loaded by another tool: the
// module is found from the directory.
func TestLocals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/x\n\ngo 1.26\n")
	writeFile(t, filepath.Join(dir, "a.go"), "package x\n")
	writeFile(t, filepath.Join(dir, "q", "q.go"), "package q\n\ntype Color string\n\nconst Red Color = \"red\"\n")
	local := Locals(dir, names.DefaultFile, token.NewFileSet())
	if q := local("example.com/x/q"); q == nil || q.Scope().Lookup("Red") == nil {
		t.Errorf("Locals(...)(example.com/x/q) = %v, without its constant Red", q)
	}
	if p := local("os"); p != nil {
		t.Errorf("Locals(...)(os) = %v, want nil", p)
	}
}

// TestNothingLoaded checks that a pattern matching no package is an error
// saying so.
func TestNothingLoaded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/x\n\ngo 1.26\n")
	writeFile(t, filepath.Join(dir, "sub", "README"), "no Go here")
	_, _, err := Packages(Config{Dir: dir, Patterns: []string{"./sub/..."}, Output: names.DefaultFile})
	if err == nil || err.Error() != "no Go package matches ./sub/..." {
		t.Errorf("err = %v", err)
	}
}

// TestReadFile checks that a $GOROOT file name is read from GOROOT.
func TestReadFile(t *testing.T) {
	t.Parallel()
	data, err := ReadFile("$GOROOT/src/context/context.go")
	if err != nil || len(data) == 0 {
		t.Errorf("ReadFile($GOROOT/...): %d bytes, %v", len(data), err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
