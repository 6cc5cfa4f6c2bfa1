package s

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// Word has no output schema to give.
//
//mcp:tool
func Word(ctx context.Context) (mcprt.Structured[string], error) {
	return mcprt.Structured[string]{}, nil
}

// Full wraps a result that is already whole.
//
//mcp:tool
func Full(ctx context.Context) (mcprt.Structured[mcprt.Result], error) {
	return mcprt.Structured[mcprt.Result]{}, nil
}

// Twice wraps twice.
//
//mcp:tool
func Twice(ctx context.Context) (mcprt.Structured[mcprt.Structured[[]int]], error) {
	return mcprt.Structured[mcprt.Structured[[]int]]{}, nil
}

// Channel wraps a value without JSON.
//
//mcp:tool
func Channel(ctx context.Context) mcprt.Structured[chan int] {
	return mcprt.Structured[chan int]{}
}
