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

// Repeated writes a key twice.
//
//mcp:tool title=a title=b
func Repeated(ctx context.Context, in In) error { return nil }

// Tasked has a bad task value.
//
//mcp:tool task=sometimes idempotent=maybe
func Tasked(ctx context.Context, in In) error { return nil }

// Valueless has a key without its value.
//
//mcp:tool title
func Valueless(ctx context.Context, in In) error { return nil }

// Iconic has icons with problems.
//
//mcp:tool
//mcp:icon mime=image/png
//mcp:icon src=https://example.com/i.png theme=blue sizes=big
func Iconic(ctx context.Context, in In) error { return nil }

// Nameless has a //mcp:param without a name.
//
//mcp:tool
//mcp:param description="x"
func Nameless(ctx context.Context, n int) error { return nil }

// Scoped names a scope with a quote and asks for offline_access.
//
//mcp:tool scope="kb:read kb\"x"
func Scoped(ctx context.Context, in In) error { return nil }

// Refreshing asks for a refresh token.
//
//mcp:tool scope="kb:read offline_access"
func Refreshing(ctx context.Context, in In) error { return nil }
