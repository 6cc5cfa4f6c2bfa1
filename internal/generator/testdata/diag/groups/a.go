// Package groups misplaces the directives of a package's doc comment and
// repeats them.
//
//mcp:group billing title="Billing"
//mcp:group billing title="Billing again"
//mcp:group "two words"
//mcp:search
//mcp:search
package groups

import "context"

// In is an input.
type In struct {
	ID string `json:"id"` // An ID
}

// Send sends.
//
//mcp:tool group=mail group=mail group=a/b
//mcp:group mail
func Send(ctx context.Context, in In) (string, error) { return "", nil }

// Form is a form whose doc comment holds a package directive.
//
//mcp:search
type Form struct {
	Name string `json:"name"` // A name
}

func body() {
	//mcp:group inside
}
