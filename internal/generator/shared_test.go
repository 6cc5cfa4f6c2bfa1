package generator

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The tests of this package that build user code share what the go
// command does once per test binary: one tidied go.mod and go.sum, one
// module holding every case they only read, one go vet and one go build
// over it. A test that changes its module still copies the case into a
// module of its own, with the shared go.mod, so no test waits on another's
// go mod tidy.

// testRoot is the directory the shared module lives in. TestMain makes
// it and removes it when the tests end.
var testRoot string

// TestMain gives the tests the directory of the shared module and removes
// it after them.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mcpgen-generator-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testRoot = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// modulePath is the path of every module the tests make.
const modulePath = "example.com/e2e"

// program is a main package the shared module builds: a golden case or
// example, or a command of the tests that imports some.
type program struct {
	name string // of the binary, and of its directory under cmd when main is set
	// pkg is the package of the shared module that is the program, when
	// main is empty.
	pkg string
	// main is the source of a command of the tests.
	main string
}

// programs are the binaries of the shared module: the basics server,
// the shapes server, the locals and maps callers and the decoder runner
// of the cases of agreeCases.
func programs() []program {
	// of serves a case's tools with the source of a command written for a
	// module of the case alone.
	of := func(pkg, main string) string {
		return strings.Replace(main, `"`+modulePath+`"`, `"`+modulePath+"/"+pkg+`"`, 1)
	}
	return []program{
		{name: "basics", pkg: "basics"},
		{name: "shapes-server", main: of("shapes", shapesMain)},
		{name: "locals-call", main: of("locals", callMain)},
		{name: "maps-call", main: of("maps", callMain)},
		{name: "agree", main: agreeMain()},
	}
}

// built is the shared module once made: generated, vetted and built.
type built struct {
	dir string
	// vet is what go vet printed over the golden cases; "" when clean.
	vet string
	// cases are the golden cases it holds.
	cases []string
	// list is the -list output of the packages the end-to-end tests
	// serve, by directory.
	list map[string]string
	err  error
}

var shared struct {
	sources, build sync.Once
	// err is the error of laying out the sources; gomod and gosum are
	// the files go mod tidy left, the template of every module.
	err          error
	gomod, gosum []byte
	b            built
}

// sharedModule returns the module holding every golden case and example,
// one package each (example.com/e2e/<name>) with its sub-packages under
// it, with the generated file of each and the programs built. It is made on first use;
// a test that changes what it holds must use tempModule instead.
func sharedModule(t testing.TB) *built {
	t.Helper()
	shared.build.Do(func() {
		if shared.b.err = sharedSources(); shared.b.err == nil {
			buildShared(&shared.b)
		}
	})
	if shared.b.err != nil {
		t.Fatal(shared.b.err)
	}
	return &shared.b
}

// binary returns the path of a program of the shared module.
func (b *built) binary(name string) string {
	return filepath.Join(b.dir, "bin", name)
}

// sharedDirs are the packages of the shared module and their sources:
// the golden cases, and the examples, whose imports the shared go.mod must
// hold for the modules that copy it.
func sharedDirs() (map[string]string, error) {
	root := repoRoot(nil)
	cases, err := filepath.Glob(filepath.Join(root, "internal", "generator", "testdata", "golden", "*"))
	if err != nil || len(cases) == 0 {
		return nil, fmt.Errorf("no golden cases: %v", err)
	}
	examples, err := filepath.Glob(filepath.Join(root, "examples", "*"))
	if err != nil || len(examples) == 0 {
		return nil, fmt.Errorf("no examples: %v", err)
	}
	dirs := map[string]string{}
	for _, dir := range append(cases, examples...) {
		if _, ok := dirs[filepath.Base(dir)]; ok {
			return nil, fmt.Errorf("%s: a golden case and an example of the same name", filepath.Base(dir))
		}
		dirs[filepath.Base(dir)] = dir
	}
	return dirs, nil
}

// isCase reports whether the package of the shared module from src is a
// golden case.
func isCase(src string) bool {
	return filepath.Base(filepath.Dir(src)) == "golden"
}

// sharedSources lays out the shared module's sources and tidies its
// go.mod, once; that go.mod and go.sum are the template of every module
// of the tests.
func sharedSources() error {
	shared.sources.Do(func() { shared.err = layOut(filepath.Join(testRoot, "shared")) })
	return shared.err
}

func layOut(dir string) error {
	dirs, err := sharedDirs()
	if err != nil {
		return err
	}
	root := repoRoot(nil)
	gomod := "module " + modulePath + "\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => " + root + "\n"
	if err := writeSource(filepath.Join(dir, "go.mod"), gomod); err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return err
	}
	if err := writeSource(filepath.Join(dir, "go.sum"), string(sum)); err != nil {
		return err
	}
	for pkg, src := range dirs {
		if err := copySources(src, filepath.Join(dir, pkg), modulePath+"/"+pkg); err != nil {
			return err
		}
	}
	for _, p := range programs() {
		if p.main != "" {
			if err := writeSource(filepath.Join(dir, "cmd", p.name, "main.go"), p.main); err != nil {
				return err
			}
		}
	}
	if out, err := goRun(dir, "mod", "tidy"); err != nil {
		return fmt.Errorf("go mod tidy in the shared module: %v\n%s", err, out)
	}
	if shared.gomod, err = os.ReadFile(filepath.Join(dir, "go.mod")); err != nil {
		return err
	}
	shared.gosum, err = os.ReadFile(filepath.Join(dir, "go.sum"))
	return err
}

// buildShared generates every package of the laid out shared module in
// one run, vets the golden cases in one go vet and builds the programs in
// one go build.
func buildShared(b *built) {
	b.dir, b.list = filepath.Join(testRoot, "shared"), map[string]string{}
	dirs, err := sharedDirs()
	if err != nil {
		b.err = err
		return
	}
	var stdout, stderr bytes.Buffer
	if code := (invocation{dir: b.dir, stdout: &stdout, stderr: &stderr}).run([]string{"./..."}); code != ExitOK {
		b.err = fmt.Errorf("mcpgen ./... in the shared module: exit %d\n%s", code, stderr.String())
		return
	}
	for pkg, src := range dirs {
		if isCase(src) {
			b.cases = append(b.cases, pkg)
			// The case's client, vetted with the case.
			if code := (invocation{dir: filepath.Join(b.dir, pkg), stdout: &stdout, stderr: &stderr}).run([]string{"-client=client", "."}); code != ExitOK {
				b.err = fmt.Errorf("mcpgen -client in %s: exit %d\n%s", pkg, code, stderr.String())
				return
			}
		}
	}
	for _, pkg := range []string{"basics", "shapes"} { // those the end-to-end tests serve
		stdout.Reset()
		if code := (invocation{dir: filepath.Join(b.dir, pkg), stdout: &stdout, stderr: &stderr}).run([]string{"-list"}); code != ExitOK {
			b.err = fmt.Errorf("mcpgen -list in %s: exit %d\n%s", pkg, code, stderr.String())
			return
		}
		b.list[pkg] = stdout.String()
	}
	slices.Sort(b.cases)
	vet := []string{"vet"}
	for _, c := range b.cases {
		vet = append(vet, "./"+c, "./"+c+"/client")
	}
	// The clients of the listings of testdata/client, vetted with the
	// golden cases under the names clients/CASE.
	listings, _ := filepath.Glob(filepath.Join(repoRoot(nil), "internal", "generator", "testdata", "client", "*", "listing.json"))
	for _, l := range listings {
		c := filepath.Base(filepath.Dir(l))
		if code := (invocation{dir: b.dir, stdout: &stdout, stderr: &stderr}).run([]string{"-client=clients/" + c, "-from=" + l}); code != ExitOK {
			b.err = fmt.Errorf("mcpgen -client -from %s: exit %d\n%s", l, code, stderr.String())
			return
		}
		vet = append(vet, "./clients/"+c)
	}
	if out, err := goRun(b.dir, vet...); err != nil {
		b.vet = out + err.Error()
	}
	targets := []string{}
	for _, p := range programs() {
		if p.main == "" {
			targets = append(targets, "./"+p.pkg)
		} else {
			targets = append(targets, "./cmd/"+p.name)
		}
	}
	if out, err := goRun(b.dir, append([]string{"build", "-o", filepath.Join(b.dir, "bin") + string(filepath.Separator)}, targets...)...); err != nil {
		b.err = fmt.Errorf("go build of the shared module's programs: %v\n%s", err, out)
	}
}

// vetOf returns the lines go vet printed about the package of a golden
// case.
func (b *built) vetOf(c string) string {
	var out []string
	for _, line := range strings.Split(b.vet, "\n") {
		if strings.HasPrefix(line, "# "+modulePath+"/"+c) || strings.HasPrefix(line, c+"/") || strings.Contains(line, "/"+c+"/") {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// copyTemplate writes the shared module's tidied go.mod and go.sum into
// dir.
func copyTemplate(dir string) error {
	if err := sharedSources(); err != nil {
		return err
	}
	if err := writeSource(filepath.Join(dir, "go.mod"), string(shared.gomod)); err != nil {
		return err
	}
	return writeSource(filepath.Join(dir, "go.sum"), string(shared.gosum))
}

// copySources copies the files of src and of its directories into dir,
// all but generated files. In Go files, imports of src's sub-packages
// become imports of the same packages under the import path to, since
// testdata under internal/ cannot be imported from another module.
func copySources(src, dir, to string) error {
	abs, err := filepath.Abs(src)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(repoRoot(nil), abs)
	if err != nil {
		return err
	}
	from := `"github.com/mcpgen/mcpgen/` + filepath.ToSlash(rel) + `/`
	return copyTree(abs, dir, []byte(from), []byte(`"`+to+`/`))
}

// copyTree is copySources below the path rewrite.
func copyTree(src, dir string, from, to []byte) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			if err := copyTree(filepath.Join(src, name), filepath.Join(dir, name), from, to); err != nil {
				return err
			}
			continue
		}
		if name == DefaultOutput {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			return err
		}
		if strings.HasSuffix(name, ".go") {
			data = bytes.ReplaceAll(data, from, to)
		}
		if err := writeSource(filepath.Join(dir, name), string(data)); err != nil {
			return err
		}
	}
	return nil
}

// writeSource writes a file, making its directory.
func writeSource(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o644)
}

// goRun runs the go command in dir and returns what it printed.
func goRun(dir string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// generations holds what Generate gave for each directory, by its
// absolute path, so that the tests reading a case's generated files share
// one load of its package.
var generations sync.Map

type generation struct {
	once  sync.Once
	files []File
	diags Diagnostics
}

// generated returns what Generate gives for the package in dir, generating
// it once per test binary. The files are shared: callers must not change
// them.
func generated(dir string) ([]File, Diagnostics) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, Diagnostics{{Msg: err.Error()}}
	}
	v, _ := generations.LoadOrStore(abs, new(generation))
	g := v.(*generation)
	g.once.Do(func() { g.files, g.diags = Generate(Config{Dir: abs}) })
	return g.files, g.diags
}
