// Package main is a first MCP server: five tools of the basic shapes, each
// an annotated Go function. They are a greeting, a sum, a status change, an
// order with line items and a bulk price update. It serves them on the
// built-in server, the official Go SDK or mcp-go (-sdk).
package main

import (
	"context"
	"fmt"
	"strings"
	"time"
)

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen

// GreetUser generates a greeting for a person.
//
//mcp:tool name=greet_user
//mcp:param name description="Name of the person to greet"
func GreetUser(name string) (string, error) {
	return fmt.Sprintf("Hello, %s!", name), nil
}

// CalculateSum calculates the sum of two numbers.
//
//mcp:tool name=calculate_sum title="Sum of two numbers" readonly idempotent
//mcp:param first description="First number"
//mcp:param second description="Second number"
func CalculateSum(first, second float64) float64 {
	return first + second
}

// Status is the state of a work item.
type Status string

// The states a work item moves through.
const (
	StatusOpen       Status = "open"
	StatusInProgress Status = "in_progress"
	StatusBlocked    Status = "blocked"
	StatusDone       Status = "done"
)

// SetStatusInput names a work item and its new status.
type SetStatusInput struct {
	// Work item identifier
	ItemID string `json:"item_id"`
	// New status
	Status Status `json:"status"`
}

// SetStatus sets the status of a work item.
//
//mcp:tool name=set_status
func SetStatus(ctx context.Context, in SetStatusInput) (string, error) {
	return fmt.Sprintf("%s is now %s", in.ItemID, in.Status), nil
}

// OrderItem is one line of an order.
type OrderItem struct {
	ProductID string  `json:"product_id"`           // Product identifier
	Quantity  int     `json:"quantity"`             // Quantity ordered
	UnitPrice float64 `json:"unit_price,omitempty"` // Price per unit
}

// ProcessOrderInput is an order and its line items.
type ProcessOrderInput struct {
	OrderID string      `json:"order_id"` // Order identifier
	Items   []OrderItem `json:"items"`    // Order line items
}

// ProcessOrder processes an order and its line items.
//
//mcp:tool name=process_order title="Order processor" destructive
func ProcessOrder(ctx context.Context, in ProcessOrderInput) (bool, error) {
	for _, it := range in.Items {
		if it.Quantity <= 0 {
			return false, fmt.Errorf("item %s: quantity must be positive, got %d", it.ProductID, it.Quantity)
		}
	}
	return true, nil
}

// The pricing tool below is also the benchmarks' reference tool, whose
// one owner is bench/pricing. The example keeps its own copy so that it
// reads on its own; its result and checks differ a little.

// Region is a sales region.
type Region string

// The sales regions.
const (
	EMEA Region = "emea"
	AMER Region = "amer"
	APAC Region = "apac"
)

// Rounding says how a computed price is rounded.
type Rounding string

// The rounding modes.
const (
	RoundNone        Rounding = "none"
	RoundNearestCent Rounding = "nearest_cent"
	RoundNearestUnit Rounding = "nearest_unit"
)

// PriceChange is the new price of one product.
type PriceChange struct {
	ProductID     string     `json:"product_id"`               // Product identifier
	NewPrice      float64    `json:"new_price"`                // New unit price
	EffectiveFrom *time.Time `json:"effective_from,omitempty"` // Date the new price takes effect
}

// BulkPriceUpdateInput is a price change for many products of one region.
type BulkPriceUpdateInput struct {
	Region   Region        `json:"region"`             // Sales region the change applies to
	Rounding Rounding      `json:"rounding,omitempty"` // How to round the resulting price
	Changes  []PriceChange `json:"changes"`            // Products to reprice and their new prices
}

// BulkPriceUpdate applies a price change to a list of products in one region.
//
//mcp:tool title="Bulk price update" destructive idempotent=false openworld=false
func BulkPriceUpdate(ctx context.Context, in BulkPriceUpdateInput) (int, error) {
	if in.Region == APAC && strings.EqualFold(string(in.Rounding), "none") {
		return 0, fmt.Errorf("region apac requires rounding")
	}
	return len(in.Changes), nil
}
