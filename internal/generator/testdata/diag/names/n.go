package n

import "context"

// In is empty.
type In struct{}

// Spaced has a space in its name.
//
//mcp:tool name="get price"
func Spaced(ctx context.Context, in In) error { return nil }

// Long has a name over 128 characters.
//
//mcp:tool name=a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789i123456789j123456789k123456789l123456789m123456789
func Long(ctx context.Context, in In) error { return nil }

// Grüße greets in German.
//
//mcp:tool
func Grüße(ctx context.Context, in In) error { return nil }

// Fetch fetches.
//
//mcp:tool
func Fetch(ctx context.Context, in In) error { return nil }

// Store is a type with a tool method.
type Store struct{}

// Fetch fetches from the store, under the same default name.
//
//mcp:tool
func (s *Store) Fetch(ctx context.Context, in In) error { return nil }
