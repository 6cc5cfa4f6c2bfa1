package mcptest_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcptest"
)

// greet is a tool as generated code declares it (MCPTools returns such
// values): it greets the name it is given.
var greet = mcprt.Tool{
	Name:        "greet",
	Description: "Greets someone by name.",
	InputSchema: []byte(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
	Handler: func(ctx context.Context, args []byte) mcprt.Result {
		var in struct{ Name string }
		if err := json.Unmarshal(args, &in); err != nil || in.Name == "" {
			return mcprt.Errorf("name: required")
		}
		return mcprt.TextResult("Hello, " + in.Name + "!")
	},
}

// A test calls a tool through the server and reads what a client reads.
// A Client needs the test's t, so this example is compiled but not run;
// TestExampleGreet runs the same lines.
func Example() {
	TestGreet := func(t *testing.T) {
		c := mcptest.New(t, mcptest.Tools(greet)) // in a real test: mcptest.Tools(MCPTools()...)
		r := c.CallTool("greet", map[string]any{"name": "Ada"})
		if r.IsError || r.Text() != "Hello, Ada!" {
			t.Errorf("greet = %q (isError %v)", r.Text(), r.IsError)
		}
	}
	_ = TestGreet
}

// TestExampleGreet runs the lines of Example.
func TestExampleGreet(t *testing.T) {
	t.Parallel()
	c := mcptest.New(t, mcptest.Tools(greet))
	r := c.CallTool("greet", map[string]any{"name": "Ada"})
	if r.IsError || r.Text() != "Hello, Ada!" {
		t.Errorf("greet = %q (isError %v)", r.Text(), r.IsError)
	}
	if r := c.CallTool("greet", map[string]any{}); !r.IsError || r.Text() != "name: required" {
		t.Errorf("greet without a name = %q (isError %v)", r.Text(), r.IsError)
	}
}
