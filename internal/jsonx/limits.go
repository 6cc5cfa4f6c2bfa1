package jsonx

import "context"

// Limits bound what one call's arguments may cost. A server sets them for
// the calls it serves with [WithLimits]; the zero value of a field means
// its default.
type Limits struct {
	// MaxArgumentBytes bounds the size of a call's arguments as JSON.
	// Default: DefaultMaxArgumentBytes.
	MaxArgumentBytes int
	// MaxDepth bounds how deeply the arguments nest. Default:
	// DefaultMaxDepth.
	MaxDepth int
}

// DefaultMaxArgumentBytes is the default bound on a call's arguments: 4 MiB.
const DefaultMaxArgumentBytes = 4 << 20

// DefaultMaxDepth is the default bound on how deeply arguments nest.
const DefaultMaxDepth = 64

type limitsKey struct{}

// WithLimits returns a context whose calls are held to l.
func WithLimits(ctx context.Context, l Limits) context.Context {
	return context.WithValue(ctx, limitsKey{}, l)
}

// LimitsFrom returns the limits set in ctx, defaults filled in.
func LimitsFrom(ctx context.Context) Limits {
	l, _ := ctx.Value(limitsKey{}).(Limits)
	if l.MaxArgumentBytes <= 0 {
		l.MaxArgumentBytes = DefaultMaxArgumentBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	return l
}
