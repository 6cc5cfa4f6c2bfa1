package s

import "context"

// Many takes any number of words.
//
//mcp:tool
func Many(ctx context.Context, words ...string) error { return nil }

// Generic is generic.
//
//mcp:tool
func Generic[T any](ctx context.Context, v T) error { return nil }

// Described names a parameter it does not have.
//
//mcp:tool
//mcp:param nmae description="The name"
func Described(ctx context.Context, name string) error { return nil }

// Lost has the context in the wrong place.
//
//mcp:tool
func Lost(name string, ctx context.Context) error { return nil }

// Three returns too much.
//
//mcp:tool
func Three(ctx context.Context) (int, int, error) { return 0, 0, nil }
