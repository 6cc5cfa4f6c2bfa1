package fromschema

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/generator/internal/emit"
	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
)

// TestOddSchemas converts schemas that say little, or say it oddly: each
// gives a client whose every type of the client's own is declared, and
// whose file formats.
func TestOddSchemas(t *testing.T) {
	t.Parallel()
	for _, props := range []string{
		`{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$ref":"#/$defs/A"}}`,
		`{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}`,
		`{"a":{"$ref":"#/$defs/L"}},"$defs":{"L":{"type":"array","items":{"$ref":"#/$defs/L"}}}`,
		`{"a":{"$ref":"#/$defs/N"}},"$defs":{"N":{"type":["object","null"],"properties":{"next":{"$ref":"#/$defs/N"}}}}`,
		`{"a":{"$ref":"#/$defs/"},"b":{"$ref":"#/$defs/missing"},"c":{"$ref":"#/$defs/x~1y"}},"$defs":{"x/y":{"type":"string"}}`,
		`{"a":5,"b":[1],"c":{"type":5},"d":{"enum":"x"},"e":{"enum":[]},"f":{"type":"array","items":[{"type":"string"}]}}`,
		`{"type":{"type":"string"},"func":{"type":"integer"},"Client":{"type":"object","properties":{"x":{"type":"string"}}},"":{"type":"boolean"}}`,
		`{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"enum":["a","A","a-"]}}}}}}`,
		`{"x":{"type":"string","minLength":-1,"maxLength":"3","pattern":"(","minimum":1}}`,
		`{"n":{"type":"number","minimum":"a","multipleOf":0,"exclusiveMaximum":1e400}}`,
	} {
		list := `{"tools":[{"name":"t","inputSchema":{"type":"object","properties":` + props + `},"outputSchema":{"type":"object","properties":` + props + `}}],` +
			`"prompts":[{"name":"t"},{"name":"t","arguments":[{"name":"t"},{"name":"t"},{}]}],"resourceTemplates":[{"uriTemplate":"x://{a}/{a}/{+b}"},{"uriTemplate":"x://{"}]}`
		c, _, err := Client([]byte(list), "p", "p")
		if err != nil {
			t.Errorf("%s: %v", props, err)
			continue
		}
		declared := map[*model.Type]bool{}
		for _, d := range c.Decls {
			declared[d.Type] = true
		}
		seen := map[*model.Type]bool{}
		var walk func(ty *model.Type)
		walk = func(ty *model.Type) {
			if ty == nil || seen[ty] {
				return
			}
			seen[ty] = true
			if ty.Named != nil && ty.Named.Path == "p" && !declared[ty] {
				t.Errorf("%s: the client's type %s is not declared", props, ty.Named.Name)
			}
			walk(ty.Elem)
			walk(ty.Key)
			for _, f := range ty.Fields {
				walk(f.Type)
			}
		}
		for _, tool := range c.Tools {
			walk(tool.Input)
			walk(tool.OutType)
		}
		if _, err := emit.ClientFile(c, emit.Config{}); err != nil {
			t.Errorf("%s: %v", props, strings.SplitN(err.Error(), "\n", 2)[0])
		}
	}
}
