package servers

import (
	"context"

	"github.com/mcpgen/mcpgen/bench/pricing"
)

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen

// BulkPriceUpdateTask is the reference tool as a task: the same arguments
// and work, but every call becomes a task the client polls, so that the
// load run measures a task's life on the built-in server and its stores.
//
//mcp:tool title="Bulk price update as a task" destructive idempotent=false openworld=false task=required
func BulkPriceUpdateTask(ctx context.Context, in pricing.BulkPriceUpdateInput) (string, error) {
	return pricing.Apply(in)
}
