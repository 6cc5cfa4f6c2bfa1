package servertest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// Named functions, which a duplicate's panic names.
func callOne(context.Context, []byte) mcprt.Result { return mcprt.Result{} }
func callTwo(context.Context, []byte) mcprt.Result { return mcprt.Result{} }
func getOne(context.Context, map[string]string) (mcprt.PromptResult, error) {
	return mcprt.PromptResult{}, nil
}
func readOne(context.Context, string) ([]mcprt.ResourceContents, error) { return nil, nil }
func readTwo(context.Context, string) ([]mcprt.ResourceContents, error) { return nil, nil }

// TestDuplicatesPanic checks that every path refuses a second tool,
// prompt, resource or template of one name or URI, at the registration,
// with a panic naming the package, the function called and the Go
// functions of both.
func TestDuplicatesPanic(t *testing.T) {
	const pkg = "github.com/mcpgen/mcpgen/internal/servertest_test."
	tool := func(name string, h mcprt.Handler) mcprt.Tool {
		return mcprt.Tool{Name: name, InputSchema: []byte(`{"type":"object"}`), Handler: h}
	}
	newName := map[*mode]string{builtinMode: "New", gosdkMode: "NewServer", mcpgoMode: "NewServer"}
	run(t, func(t *testing.T, m *mode) {
		var s pathServer
		for _, tt := range []struct {
			name, op, want string
			add            func()
		}{
			{"at the start", newName[m], `tool "a" is added twice: first with ` + pkg + `callOne, then with ` + pkg + `callTwo`,
				func() { m.new(mcprt.Identity{Name: "t", Version: "1"}, tool("a", callOne), tool("a", callTwo)) }},
			{"tools", "AddTools", `tool "a" is added twice, both times with ` + pkg + `callOne`,
				func() { s.addTools(tool("b", callOne), tool("a", callOne)) }},
			{"prompts", "AddPrompts", `prompt "p" is added twice, both times with ` + pkg + `getOne`,
				func() { s.addPrompts(mcprt.Prompt{Name: "p", Get: getOne}) }},
			{"resources", "AddResources", `resource "kb://r" is added twice: first with ` + pkg + `readOne, then with ` + pkg + `readTwo`,
				func() { s.addResources(mcprt.Resource{URI: "kb://r", Name: "r", Read: readTwo}) }},
			{"templates", "AddResources", `resource template "kb://{id}" is added twice: first with ` + pkg + `readOne, then with ` + pkg + `readTwo`,
				func() { s.addResources(mcprt.Resource{URI: "kb://{id}", Name: "t", Read: readTwo}) }},
		} {
			t.Run(tt.name, func(t *testing.T) {
				s = m.new(mcprt.Identity{Name: "t", Version: "1"}, tool("a", callOne))
				s.addPrompts(mcprt.Prompt{Name: "p", Get: getOne})
				s.addResources(mcprt.Resource{URI: "kb://r", Name: "r", Read: readOne}, mcprt.Resource{URI: "kb://{id}", Name: "t", Read: readOne})
				defer func() {
					got := fmt.Sprint(recover())
					if prefix := m.pkg + ": " + tt.op + ": " + tt.want; !strings.HasPrefix(got, prefix) {
						t.Errorf("panicked with\n %s\nwant it to start with\n %s", got, prefix)
					}
					// Nothing of the call that panicked is served.
					c := s.raw(t, "2025-11-25")
					if got := c.Call("tools/list", `{}`); strings.Contains(got, `"name":"b"`) {
						t.Errorf("a tool of a call that panicked is listed: %s", got)
					}
				}()
				tt.add()
			})
		}
	})
}
