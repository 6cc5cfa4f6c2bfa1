package mcprt

import (
	"context"
	"fmt"
)

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

// Start starts decoding data, the arguments of one call, held to the limits
// set in ctx. Generated handlers call it.
func (d *Decoder) Start(ctx context.Context, data []byte) {
	d.Reset(data)
	d.MaxDepth = LimitsFrom(ctx).MaxDepth
}

// checkSize reports arguments over the size limit, naming the limit.
func checkSize(ctx context.Context, args []byte) error {
	if max := LimitsFrom(ctx).MaxArgumentBytes; len(args) > max {
		return &ArgumentError{Problems: []Problem{{Message: fmt.Sprintf("arguments are %d bytes, more than the limit of %d bytes (MaxArgumentBytes)", len(args), max)}}}
	}
	return nil
}
