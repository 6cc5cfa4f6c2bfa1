package mcpimpl

import (
	"context"

	"github.com/mcpgen/mcpgen/internal/jsonx"
)

// AppendString appends s as a JSON string, as encoding/json writes it.
// Generated encoders write map keys and strings with it.
func AppendString(dst []byte, s string) []byte { return jsonx.AppendString(dst, s) }

// Quote returns s as a JSON string cut to the length a message quotes, for
// messages about a value that is not one of a type's allowed values.
func Quote(s string) string { return jsonx.Quote(s) }

// Start starts decoding data, the arguments of one call, held to the limits
// the server set in ctx. Generated handlers call it.
func (d *Decoder) Start(ctx context.Context, data []byte) {
	d.Reset(data)
	d.MaxDepth = jsonx.LimitsFrom(ctx).MaxDepth
}
