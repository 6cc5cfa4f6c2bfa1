// Package difftest holds annotated tools whose generated decoders are
// fuzzed against an independent JSON Schema validator and encoding/json.
// Its tools are never served; mcp_gen.go is generated like any other.
package difftest

import (
	"context"
	"time"

	"github.com/mcpgen/mcpgen/bench/pricing"
)

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen

// DecodePriceUpdate takes the arguments of bulk_price_update, the
// benchmarks' reference request, whose types bench/pricing owns: the
// decoder generated here for them is fuzzed. Its name is its own, since
// this package imports bench/pricing.
//
//mcp:tool
func DecodePriceUpdate(ctx context.Context, in pricing.BulkPriceUpdateInput) (int, error) {
	return len(in.Changes), nil
}

// Level is a severity, given by its constants.
type Level int

// The levels.
const (
	Low Level = iota + 1
	High
)

// Common is embedded and flattened.
type Common struct {
	ID string `json:"id" mcp:"minLength=1,maxLength=8"` // Identifier
}

// KindsInput has a field of most kinds of the type table.
type KindsInput struct {
	Common
	Small  int8              `json:"small"`                                           // An int8
	Count  uint16            `json:"count,omitempty" mcp:"min=1,max=500"`             // A bounded count
	Ratio  float32           `json:"ratio,omitempty"`                                 // A float32
	On     bool              `json:"on,omitempty"`                                    // A flag
	Wait   time.Duration     `json:"wait,omitempty"`                                  // A duration
	Blob   []byte            `json:"blob,omitempty"`                                  // Bytes
	Tags   []string          `json:"tags,omitempty" mcp:"maxItems=3"`                 // Tags
	Pair   [2]int32          `json:"pair,omitempty"`                                  // Two numbers
	Labels map[string]string `json:"labels,omitempty"`                                // Labels
	Places map[string]Common `json:"places,omitempty"`                                // Objects by name
	Level  Level             `json:"level,omitempty"`                                 // A level
	Code   string            `json:"code,omitempty" mcp:"pattern=^[A-Z]{2}[0-9]{2}$"` // A code
	Note   *string           `json:"note,omitempty"`                                  // A note
	Spots  []Common          `json:"spots,omitempty" mcp:"uniqueItems"`               // Objects, each once
	Rows   [][]string        `json:"rows,omitempty" mcp:"uniqueItems"`                // Lists, each once
	Maps   []map[string]bool `json:"maps,omitempty" mcp:"uniqueItems"`                // Maps, each once
	Size   string            `json:"size,omitempty" mcp:"enum=small|medium|large"`    // One of a tag's values
}

// Kinds takes arguments of many kinds.
//
//mcp:tool
func Kinds(ctx context.Context, in KindsInput) (string, error) { return in.ID, nil }

// ProblemsInput has properties of several kinds of checks, for arguments
// with many problems at once: the decoder must report each of them, at
// its path, as the validator does.
type ProblemsInput struct {
	A int              `json:"a" mcp:"min=5"`                                  // At least five
	B []string         `json:"b" mcp:"minItems=2,maxItems=3"`                  // Two or three names
	C []int            `json:"c" mcp:"uniqueItems"`                            // Numbers, each once
	D string           `json:"d,omitempty" mcp:"minLength=2,pattern=^[a-z]+$"` // A word
	E []Common         `json:"e,omitempty" mcp:"maxItems=2"`                   // Objects
	F pricing.Region   `json:"f,omitempty"`                                    // A region
	G int8             `json:"g,omitempty"`                                    // An int8
	H map[string]int   `json:"h,omitempty"`                                    // Numbers by name
	I []pricing.Region `json:"i,omitempty" mcp:"uniqueItems,minItems=1"`       // Regions, each once
	J int              `json:"j" mcp:"default=3,max=9"`                        // At most nine
}

// Problems takes arguments whose problems are compared with the validator's.
//
//mcp:tool
func Problems(ctx context.Context, in ProblemsInput) (int, error) { return in.A, nil }
