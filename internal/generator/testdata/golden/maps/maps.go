// Package maps has tools whose arguments and results are maps keyed by
// every kind of key the generator takes: string, a named string type with
// constants (an enum of keys), one without, and one with noenum.
package maps

import (
	"context"
	"maps"
	"slices"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// Color is a paint color; its constants are the keys a count may have.
type Color string

// The colors.
const (
	Red   Color = "red"   // like a tomato
	Green Color = "green" // like grass
	Blue  Color = "blue"
)

// Label is a named string type without constants: any key.
type Label string

// Box is a value decoded through its address.
type Box struct {
	N int `json:"n"` // Cans in the box
}

// Stock counts paint.
type Stock struct {
	Plain  map[string]int          `json:"plain,omitempty"`            // Counts by name
	Colors map[Color]int           `json:"colors"`                     // Counts by color
	Labels map[Label]string        `json:"labels,omitempty"`           // Notes by label
	Any    map[Color]bool          `json:"any,omitempty" mcp:"noenum"` // Flags by any color name
	Mixes  map[Color]map[Label]int `json:"mixes,omitempty"`            // Mixes by color, then label
	Boxes  map[Color]Box           `json:"boxes,omitempty"`            // Boxes by color
	Shades []map[Color]Color       `json:"shades,omitempty"`           // Shade swaps, colors both ways
}

// Count returns the counts by color, as given.
//
//mcp:tool readonly
func Count(ctx context.Context, in Stock) (map[Color]int, error) { return in.Colors, nil }

// Restock returns the stock, with one more can of each color.
//
//mcp:tool
func Restock(ctx context.Context, in Stock) (Stock, error) {
	for _, c := range slices.Sorted(maps.Keys(in.Colors)) {
		in.Colors[c]++
	}
	return in, nil
}

// Tally sums cans by color.
//
//mcp:tool readonly
//mcp:param counts description="Cans of each color"
func Tally(ctx context.Context, counts map[Color]int) (int, error) {
	n := 0
	for _, c := range counts {
		n += c
	}
	return n, nil
}

// All returns the tools, for the tests' caller.
func All() []mcprt.Tool { return MCPTools() }
