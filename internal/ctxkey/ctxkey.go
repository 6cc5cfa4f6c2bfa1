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

type tokenKey struct{}

// WithToken returns a context carrying the verified token of a request
// (an *mcprt.TokenInfo, kept as any so that this package imports nothing).
func WithToken(ctx context.Context, t any) context.Context {
	return context.WithValue(ctx, tokenKey{}, t)
}

// Token returns the value set by WithToken, or nil.
func Token(ctx context.Context) any {
	return ctx.Value(tokenKey{})
}

// Caller is the key of the mcprt.Caller of a handler's call, so that a
// server's own context can carry it without a context.WithValue.
type Caller struct{}
