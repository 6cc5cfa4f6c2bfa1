// Package ctxkey holds the context values that package mcprt sets for a
// handler and the servers read, without mcprt exporting a getter its
// users have no use for.
package ctxkey

import "context"

type inputKey struct{}

// WithInputKey returns a context whose questions to the client are named
// key.
func WithInputKey(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, inputKey{}, key)
}

// InputKey returns the name set by WithInputKey, or "".
func InputKey(ctx context.Context) string {
	k, _ := ctx.Value(inputKey{}).(string)
	return k
}
