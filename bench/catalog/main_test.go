//go:build !catalog

package catalog

import (
	"embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/bench/catalog/internal/build"

	// What the tests built under the tag import beside the generator, so
	// that go test's cache of this run changes when they do.
	_ "github.com/mcpgen/mcpgen/internal/toolsearch"
	_ "github.com/mcpgen/mcpgen/runtime/mcpimpl"
	_ "github.com/mcpgen/mcpgen/runtime/mcprt"
	_ "github.com/mcpgen/mcpgen/runtime/mcpserver"
	_ "github.com/mcpgen/mcpgen/runtime/mcptest"
)

// testFiles are the package's tests, built under the tag alone; they are
// embedded so that go test's cache of this run changes when they do.
//
//go:embed *_test.go
var testFiles embed.FS

// TestMain runs the package's tests and benchmarks, which need the
// generated files that are not committed. It writes them into a
// temporary directory (build.Overlay), vets the tests and builds them
// under the tag catalog with the files laid over the package, then runs
// that test binary with this one's flags, its output and exit status
// being this run's.
func TestMain(m *testing.M) {
	os.Exit(runTagged())
}

func runTagged() int {
	fail := func(err error) int {
		fmt.Fprintf(os.Stderr, "bench/catalog: %v\n", err)
		return 1
	}
	dir, err := os.MkdirTemp("", "catalog")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(dir)
	here, err := os.Getwd()
	if err != nil {
		return fail(err)
	}
	overlay, err := build.Overlay(here, dir)
	if err != nil {
		return fail(err)
	}
	bin := filepath.Join(dir, "catalog.test")
	for _, args := range [][]string{
		{"vet", "-tags", build.Tag, "-overlay", overlay, "."},
		{"test", "-c", "-o", bin, "-tags", build.Tag, "-overlay", overlay, "."},
	} {
		cmd := exec.Command("go", args...)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fail(fmt.Errorf("go %s: %v", args[0], err))
		}
	}
	cmd := exec.Command(bin, withoutCoverage(os.Args[1:])...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		if exit, ok := errors.AsType[*exec.ExitError](err); ok {
			return exit.ExitCode()
		}
		return fail(err)
	}
	return 0
}

// withoutCoverage drops the flags of a coverage run: the cover tool reads
// no overlay, so the tagged build is never instrumented, and would refuse
// them.
func withoutCoverage(args []string) []string {
	var out []string
	for _, a := range args {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(name, "test.cover") && name != "test.gocoverdir" {
			out = append(out, a)
		}
	}
	return out
}
