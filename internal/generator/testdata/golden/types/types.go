// Package types has a tool whose input uses every kind of the type table.
package types

import (
	"context"
	"encoding/json"
	"sync"
	"time"
)

// Level is a log level, given by its constants.
type Level int

// The levels.
const (
	Debug Level = iota // everything, for tracing a problem
	// Info reports progress.
	Info
	Warn
)

// Base is embedded and flattened.
type Base struct {
	// ID identifies the request.
	ID    string `json:"id" mcp:"pattern='^[a-z]{1,3}-[0-9]+$'"`
	Shade string `json:"shade"`
}

// Extra is embedded by pointer.
type Extra struct {
	Note string `json:"note,omitempty"`
}

// Node is recursive.
type Node struct {
	Name     string  `json:"name"`
	Children []*Node `json:"children,omitempty"`
}

// Input has one field of each kind.
type Input struct {
	Base
	*Extra
	Shade    int               `json:"shade_override"` // not hidden: a different wire name
	Small    int8              `json:"small"`
	Count    uint16            `json:"count" mcp:"min=1,max=100"`
	Ratio    float32           `json:"ratio" mcp:"exclusiveMin=0,exclusiveMax=1"`
	Step     float64           `json:"step,omitempty" mcp:"multipleOf=0.5"`
	On       bool              `json:"on,omitzero"`
	When     time.Time         `json:"when"`
	Until    *time.Time        `json:"until,omitempty"`
	Wait     time.Duration     `json:"wait" mcp:"optional"`
	Blob     []byte            `json:"blob,omitempty"`
	Raw      json.RawMessage   `json:"raw,omitempty"`
	Anything any               `json:"anything,omitempty"`
	Tags     []string          `json:"tags" mcp:"minItems=1,maxItems=3,maxLength=8,desc=Labels for the request"`
	Pair     [2]int            `json:"pair,omitempty"`
	Labels   map[string]string `json:"labels,omitempty"`
	Level    Level             `json:"level"`
	Mode     string            `json:"mode,omitempty" mcp:"enum=fast|slow,default=fast,title=Mode"`
	Tree     *Node             `json:"tree,omitempty"`
	Inline   struct {
		A int `json:"a"`
	} `json:"inline"`
	Skipped  string `json:"-"`
	internal string
	// Fields no property comes from, of types the generated guard must
	// still write: funcs, channels, interfaces, a pointer to a lock.
	Hook   func(context.Context, ...string) (int, error) `json:"-"`
	Events <-chan struct{}                               `json:"-"`
	Sink   chan<- <-chan int                             `json:"-"`
	Pipe   chan (<-chan int)                             `json:"-"`
	Closer interface{ Close() error }                    `json:"-"`
	mu     *sync.Mutex
}

// Check checks an input of every kind.
//
//mcp:tool
func Check(ctx context.Context, in Input) (string, error) { return in.ID, nil }
