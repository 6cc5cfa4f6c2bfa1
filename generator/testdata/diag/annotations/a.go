package a

import "context"

// In is empty.
type In struct{}

// Titled has a misspelt key.
//
//mcp:tool titel="x"
func Titled(ctx context.Context, in In) error { return nil }

// Contradicts is read-only and destructive.
//
//mcp:tool readonly destructive
func Contradicts(ctx context.Context, in In) error { return nil }

//mcp:tool
func Undocumented(ctx context.Context, in In) error { return nil }

// First uses a name.
//
//mcp:tool name=same
func First(ctx context.Context, in In) error { return nil }

// Second uses it again.
//
//mcp:tool name=same
func Second(ctx context.Context, in In) error { return nil }

// Misplaced is a type.
//
//mcp:tool
type Misplaced struct{}

// Unknown has an unknown directive.
//
//mcp:tol
func Unknown(ctx context.Context, in In) error { return nil }
