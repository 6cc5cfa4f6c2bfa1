// Package scopes has a tool, a prompt, a resource and a resource template
// that need OAuth scopes, and a tool that needs none.
package scopes

import "context"

// In is what the tools take.
type In struct {
	ID string `json:"id"`
}

// Lookup reads an entry.
//
//mcp:tool readonly
func Lookup(ctx context.Context, in In) (string, error) { return in.ID, nil }

// Update changes an entry.
//
//mcp:tool scope="kb:read kb:write"
func Update(ctx context.Context, in In) (string, error) { return in.ID, nil }

// Summary asks for a summary of an entry.
//
//mcp:prompt scope=kb:read
func Summary(ctx context.Context, in In) (string, error) { return "Summarize " + in.ID, nil }

// Index lists the entries.
//
//mcp:resource uri=kb://index scope=kb:read
func Index(ctx context.Context) (string, error) { return "", nil }

// Entry is one entry.
//
//mcp:resource uri=kb://entries/{id} scope="kb:read kb:entries"
func Entry(ctx context.Context, in In) (string, error) { return in.ID, nil }
