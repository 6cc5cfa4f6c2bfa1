package p

import "context"

// In is empty.
type In struct {
	// N is a number.
	//
	//mcp:tool
	N int `json:"n"`
}

// Misplaced is a type.
//
//mcp:tool
type Misplaced struct{}

// Limit is a variable.
//
//mcp:tool
var Limit = 3

// Outer declares a function literal.
//
//mcp:tool
func Outer(ctx context.Context, in In) error {
	//mcp:tool
	inner := func() {}
	inner()
	return nil
}

// Detached is separated from its directive by a blank line.
//
//mcp:tool

func Detached(ctx context.Context, in In) error { return nil }

// Orphan has an icon and a param but no tool.
//
//mcp:icon src=https://example.com/o.png
//mcp:param n description="A number"
func Orphan(ctx context.Context, n int) error { return nil }

// Twice has two tool directives.
//
//mcp:tool
//mcp:tool name=twice_again
func Twice(ctx context.Context, in In) error { return nil }

// Spaced has a space after the slashes of its directives.
//
// mcp:tool name=spaced
//
//	mcp:param n description="A number"
//
// mcp:toolbox is prose about a toolbox, not a directive.
// mcp: neither is this.
func Spaced(ctx context.Context, n int) error { return nil }

// mcp:form
type SpacedForm struct{}

// Hid has unexported fields, two of them tagged as if they were properties.
type Hid struct {
	N       int    `json:"n"` // A number
	hidden  string `json:"hidden"`
	limited int    `mcp:"max=3"`
	skipped bool   `json:"-"`
	plain   string
}

// Hidden takes a struct with unexported fields.
//
//mcp:tool
func Hidden(ctx context.Context, in Hid) error { return nil }
