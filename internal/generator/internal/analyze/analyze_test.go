package analyze

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpgen/mcpgen/internal/generator/internal/diag"
	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
)

// source is a small package: a name-keyed tool with an enum, a pointer and
// a constrained field, and a positional tool whose input schema is a file.
const source = `package x

// In is the input.
type In struct {
	// Name is who to greet.
	Name  string ` + "`json:\"name\" mcp:\"minLength=1\"`" + `
	Times *int   ` + "`json:\"times,omitempty\"`" + ` // How often
	Mode  Mode   ` + "`json:\"mode\"`" + `
}

// Mode is a mode.
type Mode string

const (
	Fast Mode = "fast" // Quickly
	Slow Mode = "slow"
)

// Greet greets someone.
//
//mcp:tool title="Greeting" readonly
func Greet(in In) (string, error) { return in.Name, nil }

// Add adds.
//
//mcp:tool input=add.json
//mcp:param a description="First"
func Add(a, b float64) float64 { return a + b }
`

// analyzeSource type-checks files (name to content, all in /src/x) and
// analyzes them, reading other files only from read.
func analyzeSource(t *testing.T, files map[string]string, read map[string]string) (*model.Package, diag.List) {
	t.Helper()
	fset := token.NewFileSet()
	var syntax []*ast.File
	for name, src := range files {
		f, err := parser.ParseFile(fset, "/src/x/"+name, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		syntax = append(syntax, f)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
	pkg, err := (&types.Config{}).Check("example.com/x", fset, syntax, info)
	if err != nil {
		t.Fatal(err)
	}
	readFile := func(name string) ([]byte, error) {
		if s, ok := read[name]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
	return Package(Input{Fset: fset, Files: syntax, Pkg: pkg, Info: info, Dir: "/src/x", GenFile: "/src/x/mcp_gen.go", ReadFile: readFile})
}

// ignoreOffsets compares positions by file, line and column.
var ignoreOffsets = cmpopts.IgnoreFields(token.Position{}, "Offset")

func at(line, col int) token.Position {
	return token.Position{Filename: "/src/x/a.go", Line: line, Column: col}
}

// TestPackage compares the model of source with the model written out by
// hand, and the diagnostics with the one warning source deserves.
func TestPackage(t *testing.T) {
	t.Parallel()
	read := map[string]string{"/src/x/add.json": "{\n  \"type\": \"object\",\n  \"properties\": {\"a\": {\"type\": \"number\"}, \"b\": {\"type\": \"number\"}},\n  \"required\": [\"a\", \"b\"],\n  \"additionalProperties\": false\n}\n"}
	m, diags := analyzeSource(t, map[string]string{"a.go": source}, read)

	str := &model.Type{Kind: model.String, Basic: "string"}
	f64 := &model.Type{Kind: model.Float, Basic: "float64", Bits: 64}
	mode := &model.Type{Kind: model.String, Basic: "string",
		Named: &model.GoName{Path: "example.com/x", Pkg: "x", Name: "Mode"},
		Enum:  []model.EnumValue{{JSON: `"fast"`, Go: `"fast"`, Doc: "Quickly"}, {JSON: `"slow"`, Go: `"slow"`}}}
	in := &model.Type{Kind: model.Struct, Doc: "The input.", Named: &model.GoName{Path: "example.com/x", Pkg: "x", Name: "In"},
		Fields: []*model.Field{
			{Pos: at(6, 2), Path: []model.Step{{Name: "Name"}}, WireName: "name", Type: str, Required: true,
				Doc: "Who to greet.", Constraints: model.Constraints{MinLength: intp(1)}},
			{Pos: at(7, 2), Path: []model.Step{{Name: "Times", Pointer: true}}, WireName: "times", OmitEmpty: true, Doc: "How often",
				Type: &model.Type{Kind: model.Pointer, Elem: &model.Type{Kind: model.Int, Basic: "int", Bits: 64}}},
			{Pos: at(8, 2), Path: []model.Step{{Name: "Mode"}}, WireName: "mode", Type: mode, Required: true},
		},
		Layouts: []model.Layout{{Ident: "In", Type: model.TypeExpr{{Text: "In", Path: "example.com/x", Pkg: "x"}},
			Fields: []model.LayoutField{
				{Name: "Name", Type: model.TypeExpr{{Text: "string"}}},
				{Name: "Times", Type: model.TypeExpr{{Text: "*"}, {Text: "int"}}},
				{Name: "Mode", Type: model.TypeExpr{{Text: "Mode", Path: "example.com/x", Pkg: "x"}}},
			}}}}
	want := &model.Package{
		Name: "x", Path: "example.com/x", Dir: "/src/x", GenFile: "/src/x/mcp_gen.go",
		Scope: map[string]bool{"In": true, "Mode": true, "Fast": true, "Slow": true, "Greet": true, "Add": true},
		Tools: []*model.Tool{{
			Pos: at(21, 1), Name: "greet", Title: "Greeting", Description: "Greets someone.",
			Hints: model.Hints{ReadOnly: boolp(true)},
			Func:  model.Func{FuncName: "Greet", Shape: model.NameKeyed, Input: in, HasError: true},
			Out:   model.OutString, OutType: str,
		}, {
			Pos: at(26, 1), Name: "add", Description: "Adds.",
			Out: model.OutFloat, OutType: f64,
			Func: model.Func{FuncName: "Add", Shape: model.Positional,
				Input: &model.Type{Kind: model.Struct, Local: true, Named: &model.GoName{Name: "mcpgen_args_Add"}, Fields: []*model.Field{
					{Pos: at(28, 10), Path: []model.Step{{Name: "a"}}, WireName: "a", Type: f64, Required: true, Doc: "First"},
					{Pos: at(28, 13), Path: []model.Step{{Name: "b"}}, WireName: "b", Type: f64, Required: true},
				}}},
			InputFile: []byte(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"additionalProperties":false}`),
		}},
	}
	if diff := cmp.Diff(want, m, ignoreOffsets); diff != "" {
		t.Errorf("model (-want +got):\n%s", diff)
	}
	wantDiags := diag.List{diag.Warningf(at(8, 2), "property mode has no description: add a doc or line comment, or desc= in its mcp tag")}
	if diff := cmp.Diff(wantDiags, diags, ignoreOffsets); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// TestReadsThroughReadFile checks that a schema file the analysis cannot
// get from its ReadFile is an error naming why, whatever is on disk.
func TestReadsThroughReadFile(t *testing.T) {
	t.Parallel()
	_, diags := analyzeSource(t, map[string]string{"a.go": source}, nil)
	want := "reading schema file: " + fs.ErrNotExist.Error()
	for _, d := range diags {
		if d.Msg == want && d.Pos.Line == 26 {
			return
		}
	}
	t.Errorf("no error %q at line 26 in %v", want, diags)
}

// TestNoTools checks that a package without directives has no model and
// no diagnostics.
func TestNoTools(t *testing.T) {
	t.Parallel()
	m, diags := analyzeSource(t, map[string]string{"a.go": "package x\n\n// F is no tool.\nfunc F() {}\n"}, nil)
	if m != nil || len(diags) != 0 {
		t.Errorf("model %v, diagnostics %v; want none", m, diags)
	}
}

func intp(n int) *int { return &n }

func boolp(b bool) *bool { return &b }
