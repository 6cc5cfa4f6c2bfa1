// Package check is the analysis behind the public mcpcheck Analyzer: it
// runs the generator's analysis stage on the package a pass type-checked.
// It reports the same messages at the same positions as mcpgen; warnings
// keep their "warning: " prefix. Like mcpgen, it reads the package's
// non-test files and skips the generated file. It loads from source another
// package of the module whose constants make an enum.
package check

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/mcpgen/mcpgen/internal/generator/internal/analyze"
	"github.com/mcpgen/mcpgen/internal/generator/internal/load"
	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
)

// Analyzer reports misused //mcp: directives and mcp struct tags, tool
// functions of unsupported shapes or types, and names that collide with
// generated code.
var Analyzer = &analysis.Analyzer{
	Name: "mcpcheck",
	Doc: "check //mcp: tool annotations\n\n" +
		"mcpcheck reports what mcpgen would report for the package: bad directives,\n" +
		"keys and tags, unsupported handler shapes and types, missing descriptions,\n" +
		"duplicate tool names and names that collide with generated code.",
	URL: "https://pkg.go.dev/github.com/mcpgen/mcpgen/internal/generator/check",
	Run: run,
}

// output is the name of the generated file, which the analysis skips.
var output = names.DefaultFile

func init() {
	Analyzer.Flags.StringVar(&output, "o", output, "name of the generated file, as given to mcpgen -o")
}

func run(pass *analysis.Pass) (any, error) {
	files := userFiles(pass)
	if len(files) == 0 || strings.HasSuffix(pass.Pkg.Name(), "_test") {
		return nil, nil
	}
	dir := filepath.Dir(pass.Fset.File(files[0].FileStart).Name())
	_, diags := analyze.Package(analyze.Input{Fset: pass.Fset, Files: files, Pkg: pass.Pkg, Info: pass.TypesInfo,
		Dir: dir, GenFile: filepath.Join(dir, output), ReadFile: load.ReadFile, Local: load.Locals(dir, output, pass.Fset),
		NoEmbedFiles: true})
	reported := map[reportKey]bool{}
	for _, d := range diags {
		pos := position(pass, files, d.Pos)
		msg := d.Msg
		if d.Warning {
			msg = "warning: " + msg
		}
		if !pos.IsValid() && filepath.Dir(d.Pos.Filename) == dir && !strings.HasSuffix(d.Pos.Filename, ".go") {
			// A problem in a file the package reads, such as an input=
			// schema: vet can only point into Go files, so it is reported
			// at the directive naming the file, with its own position.
			pos = namingDirective(files, filepath.Base(d.Pos.Filename))
			msg = fmt.Sprintf("%s:%d:%d: %s", filepath.Base(d.Pos.Filename), d.Pos.Line, d.Pos.Column, msg)
		}
		if !pos.IsValid() {
			continue // outside the package: its own pass reports it
		}
		if k := (reportKey{pos, msg}); !reported[k] { // a type used by several tools is reported once
			reported[k] = true
			pass.Report(analysis.Diagnostic{Pos: pos, Message: msg})
		}
	}
	return nil, nil
}

type reportKey struct {
	pos token.Pos
	msg string
}

// userFiles are the package's files as mcpgen reads them: without tests.
func userFiles(pass *analysis.Pass) []*ast.File {
	var files []*ast.File
	for _, f := range pass.Files {
		if !strings.HasSuffix(pass.Fset.File(f.FileStart).Name(), "_test.go") {
			files = append(files, f)
		}
	}
	return files
}

// namingDirective returns the position of the first //mcp: directive that
// mentions name, else the first file's package clause.
func namingDirective(files []*ast.File, name string) token.Pos {
	for _, f := range files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, "//mcp:") && strings.Contains(c.Text, name) {
					return c.Slash
				}
			}
		}
	}
	return files[0].Package
}

// position turns a diagnostic's file:line:col back into a token.Pos of one
// of the package's files; it returns token.NoPos for other files.
func position(pass *analysis.Pass, files []*ast.File, p token.Position) token.Pos {
	for _, f := range files {
		tf := pass.Fset.File(f.FileStart)
		if tf.Name() != p.Filename || p.Line < 1 || p.Line > tf.LineCount() {
			continue
		}
		pos := tf.LineStart(p.Line) + token.Pos(max(p.Column, 1)-1)
		if int(pos) > tf.Base()+tf.Size() {
			return token.NoPos
		}
		return pos
	}
	return token.NoPos
}
