package generator

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestSchemasCompile compiles every generated input and output schema of
// the golden cases and the examples with an independent JSON Schema 2020-12
// implementation, which also validates them against the meta-schema.
func TestSchemasCompile(t *testing.T) {
	t.Parallel()
	dirs, _ := filepath.Glob(filepath.Join("testdata", "golden", "*"))
	examples, _ := filepath.Glob(filepath.Join(repoRoot(t), "examples", "*"))
	n := 0
	for _, dir := range append(dirs, examples...) {
		abs, _ := filepath.Abs(dir)
		files, diags := generated(abs)
		if diags.HasErrors() {
			t.Fatalf("%s: %v", dir, diags)
		}
		for _, f := range files {
			for _, tool := range f.Tools {
				for kind, js := range map[string][]byte{"input": tool.InputSchema, "output": tool.OutputSchema} {
					if js == nil {
						continue
					}
					compileSchema(t, tool.Name+"."+kind, js)
					n++
				}
			}
		}
	}
	if n < 10 {
		t.Errorf("compiled %d schemas, want the schemas of every golden and example tool", n)
	}
}

func compileSchema(t *testing.T, name string, js []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	url := "mem:///" + strings.ReplaceAll(name, " ", "_") + ".json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s does not compile: %v\n%s", name, err, js)
	}
	return s
}

// TestSchemaValidatesArguments checks the example's input schemas accept
// and reject the same documents the generated decoders do in TestEndToEnd,
// coercion cases aside.
func TestSchemaValidatesArguments(t *testing.T) {
	t.Parallel()
	abs := filepath.Join(repoRoot(t), "examples", "basics")
	files, diags := generated(abs)
	if diags.HasErrors() || len(files) != 1 {
		t.Fatalf("Generate: %v", diags)
	}
	schemas := map[string]*jsonschema.Schema{}
	for _, tool := range files[0].Tools {
		schemas[tool.Name] = compileSchema(t, tool.Name, tool.InputSchema)
	}
	for _, tc := range callCases {
		if strings.Contains(tc.name, "coerced") || strings.Contains(tc.name, "handler error") || strings.Contains(tc.args, `"2"`) || strings.Contains(tc.args, `"quantity":"2"`) {
			continue // coercion: the decoder accepts strings the schema does not
		}
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(tc.args))
		if err != nil {
			t.Fatal(err)
		}
		err = schemas[tc.tool].Validate(doc)
		if valid := err == nil; valid == tc.isError {
			t.Errorf("%s: schema says valid=%v, decoder says isError=%v (%v)", tc.name, valid, tc.isError, err)
		}
	}
}

// TestDeterministic generates the same package in two directories and
// compares the bytes.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds modules")
	}
	src, _ := filepath.Abs(filepath.Join("testdata", "golden", "types"))
	var outs [][]byte
	for range 2 {
		mod := tempModule(t, src)
		if code, _, stderr := runMain(t, mod); code != 0 {
			t.Fatalf("mcpgen exit %d:\n%s", code, stderr)
		}
		data, err := os.ReadFile(filepath.Join(mod, DefaultOutput))
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, data)
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Errorf("generating in two directories gave different bytes")
	}
	golden, _ := os.ReadFile(filepath.Join(src, "mcp_gen.go.golden"))
	if !bytes.Equal(outs[0], golden) {
		t.Errorf("generating in a temporary module differs from the golden file")
	}
}
