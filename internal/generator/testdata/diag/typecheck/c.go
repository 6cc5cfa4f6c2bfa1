package c

import "context"

// In has a field of an undefined type.
type In struct {
	N Undefined `json:"n"`
}

// Use uses it.
//
//mcp:tool
func Use(ctx context.Context, in In) error { return nil }

var _ = MCPTools
