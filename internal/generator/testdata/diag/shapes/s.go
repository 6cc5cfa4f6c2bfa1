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

// In is the input of Keyed.
type In struct {
	Name string `json:"name"` // The name
}

// Keyed is name-keyed but uses //mcp:param.
//
//mcp:tool
//mcp:param in description="The input"
func Keyed(ctx context.Context, in In) error { return nil }

// Anonymous has a parameter without a name.
//
//mcp:tool
func Anonymous(ctx context.Context, _ string) error { return nil }

// Backwards returns the error first.
//
//mcp:tool
func Backwards(ctx context.Context) (error, int) { return nil, 0 }

// Channel returns a channel.
//
//mcp:tool
func Channel(ctx context.Context) (chan int, error) { return nil, nil }

// Callback takes a function.
//
//mcp:tool
func Callback(ctx context.Context, f func()) error { return nil }

// Box is a generic type.
type Box[T any] struct{ v T }

// Open is a tool method on a generic type.
//
//mcp:tool
func (b *Box[T]) Open(ctx context.Context) error { return nil }

// Found returns a comma-ok pair, which is no tool's shape.
//
//mcp:tool
func Found(ctx context.Context) (string, bool) { return "", false }

// Named returns a named comma-ok pair.
//
//mcp:tool
func Named(ctx context.Context) (s string, ok bool) { return "", false }
