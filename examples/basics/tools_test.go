package main

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcptest"
)

// TestTools calls each tool through the built-in server, on every
// revision, as a client would.
func TestTools(t *testing.T) {
	for _, rev := range mcptest.Revisions() {
		t.Run(rev, func(t *testing.T) {
			c := mcptest.New(t, mcptest.Tools(MCPTools()...), mcptest.Identity(identity), mcptest.Revision(rev))
			for _, tc := range []struct {
				tool string
				args any
				want string
			}{
				{"greet_user", map[string]any{"name": "Ada"}, "Hello, Ada!"},
				{"calculate_sum", map[string]any{"first": 2, "second": "3.5"}, "5.5"}, // a numeric string is coerced
				{"set_status", SetStatusInput{ItemID: "W-1", Status: StatusBlocked}, "W-1 is now blocked"},
				{"process_order", `{"order_id":"o-1","items":[{"product_id":"p","quantity":2}]}`, "true"},
				{"bulk_price_update", map[string]any{"region": "emea", "changes": []PriceChange{{ProductID: "a", NewPrice: 9.5}}}, "1"},
			} {
				args := tc.args
				if s, ok := args.(string); ok {
					args = []byte(s)
				}
				if r := c.CallTool(tc.tool, args); r.IsError || r.Text() != tc.want {
					t.Errorf("%s = %q (isError %v), want %q", tc.tool, r.Text(), r.IsError, tc.want)
				}
			}
		})
	}
}

// TestArgumentsChecked checks that bad arguments never reach a handler:
// each problem comes back to the model with its JSON path, as does an
// error the handler returns.
func TestArgumentsChecked(t *testing.T) {
	c := mcptest.New(t, mcptest.Tools(MCPTools()...), mcptest.Identity(identity))
	for _, tc := range []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"calculate_sum", map[string]any{"first": true}, []string{"first: expected number, got true", "second: required property is missing"}},
		{"set_status", map[string]any{"item_id": "W-1", "status": "stuck"}, []string{`status: "stuck" is not one of "open", "in_progress", "blocked", "done"`}},
		{"bulk_price_update", map[string]any{"region": "emea", "changes": []any{map[string]any{"product_id": "a", "new_price": 1}, map[string]any{"product_id": "b", "new_price": "abc"}}},
			[]string{`changes[1].new_price: expected number, got "abc"`}},
		{"bulk_price_update", map[string]any{"regoin": "emea", "changes": []any{}}, []string{`regoin: unknown property; did you mean "region"?`}},
		{"process_order", map[string]any{"order_id": "o-1", "items": []any{map[string]any{"product_id": "p", "quantity": 0}}}, []string{"item p: quantity must be positive, got 0"}},
		{"bulk_price_update", map[string]any{"region": "apac", "rounding": "none", "changes": []any{}}, []string{"region apac requires rounding"}},
	} {
		r := c.CallTool(tc.tool, tc.args)
		if !r.IsError {
			t.Errorf("%s %v succeeded with %q", tc.tool, tc.args, r.Text())
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(r.Text(), w) {
				t.Errorf("%s %v = %q, which does not say %q", tc.tool, tc.args, r.Text(), w)
			}
		}
	}
}

// TestHintsListed checks the behaviour hints a client is shown, the
// explicit false values included.
func TestHintsListed(t *testing.T) {
	c := mcptest.New(t, mcptest.Tools(MCPTools()...), mcptest.Identity(identity))
	hints := map[string]mcprt.Hints{}
	for _, tool := range c.ListTools() {
		hints[tool.Name] = tool.Hints
	}
	show := func(b *bool) string {
		if b == nil {
			return "-"
		}
		if *b {
			return "true"
		}
		return "false"
	}
	for name, want := range map[string]string{
		"greet_user":        "- - - -",
		"calculate_sum":     "true - true -",
		"process_order":     "- true - -",
		"bulk_price_update": "- true false false",
	} {
		h := hints[name]
		if got := strings.Join([]string{show(h.ReadOnly), show(h.Destructive), show(h.Idempotent), show(h.OpenWorld)}, " "); got != want {
			t.Errorf("%s hints (readOnly destructive idempotent openWorld) %s, want %s", name, got, want)
		}
	}
}
