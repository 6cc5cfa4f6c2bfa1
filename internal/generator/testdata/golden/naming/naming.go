// Package naming declares, at package level, every name the generated file
// might import, so that the generated file must alias its imports.
package naming

import (
	stdcontext "context"
	stdjson "encoding/json"
	stdtime "time"

	rt "github.com/mcpgen/mcpgen/runtime/mcprt"
)

var (
	context = "a context"
	json    = 1
	mcprt   = struct{}{}
	errors  = []string{}
	fmt     = "format"
	strconv = 2.5
	utf8    = true
	regexp  = 'r'
	time    = stdtime.Second
)

// Event is something that happened.
type Event struct {
	Name  string             `json:"name" mcp:"minLength=1,pattern='^[a-z]+$'"` // Event name
	At    stdtime.Time       `json:"at"`                                        // When it happened
	After stdtime.Duration   `json:"after"`                                     // Delay before the next one
	Extra stdjson.RawMessage `json:"extra"`                                     // Anything else
}

// Record records an event and returns its sequence number.
//
//mcp:tool
func Record(ctx stdcontext.Context, in Event) (int, error) { return len(in.Name), nil }

// Ratio returns a ratio.
//
//mcp:tool
//mcp:param n description="Numerator"
func Ratio(n float32) float32 { return n / 2 }

// Check returns a flag.
//
//mcp:tool
//mcp:param ok description="Flag"
func Check(ok bool) bool { return !ok }

// Raw returns a full result.
//
//mcp:tool
func Raw(ctx stdcontext.Context) (rt.Result, error) { return rt.TextResult("raw"), nil }

// Counter counts.
type Counter struct{ n int }

// Add adds to the counter.
//
//mcp:tool
//mcp:param by description="Amount"
func (c *Counter) Add(ctx stdcontext.Context, by uint8) uint64 { c.n += int(by); return uint64(c.n) }

var _ = []any{context, json, mcprt, errors, fmt, strconv, utf8, regexp, time}

// args_Ratio is named as the generated arguments of Ratio are, less the
// prefix, so that the decoders of the two must take different names.
type args_Ratio struct {
	By int `json:"by"` // Factor
}

// Scale returns a factor.
//
//mcp:tool
func Scale(ctx stdcontext.Context, in args_Ratio) (int, error) { return in.By, nil }
