package difftest

import (
	"context"
	"encoding/json"
	"time"
)

// Extra is embedded through a pointer: its fields are left out while the
// pointer is nil.
type Extra struct {
	Note string `json:"note"`
}

// Item is one line of a report.
type Item struct {
	SKU string  `json:"sku"`
	Qty int     `json:"qty,omitempty"`
	Tax float32 `json:"tax"`
}

// Report is a result with a field of most kinds, to compare the generated
// encoder with encoding/json.
type Report struct {
	Common
	*Extra
	Name   string          `json:"name"`
	Count  int64           `json:"count,omitempty"`
	Small  int8            `json:"small"`
	U      uint32          `json:"u,omitzero"`
	F32    float32         `json:"f32"`
	F64    float64         `json:"f64,omitempty"`
	OK     bool            `json:"ok"`
	When   time.Time       `json:"when"`
	Maybe  *time.Time      `json:"maybe,omitempty"`
	Later  time.Time       `json:"later,omitzero"`
	Blob   []byte          `json:"blob"`
	Raw    json.RawMessage `json:"raw,omitempty"`
	Any    any             `json:"any"`
	Tags   []string        `json:"tags"`
	Pair   [2]int          `json:"pair"`
	Labels map[string]int  `json:"labels"`
	Items  []Item          `json:"items,omitempty"`
	Next   *Report         `json:"next,omitempty"`
	Level  Level           `json:"level"`
	Odd    string          `json:"<odd>&key"`
	Inline struct {
		A int `json:"a"`
	} `json:"inline"`
	Sets map[string][]string `json:"sets,omitempty"`
}

// MakeReport returns a report naming the input's identifier.
//
//mcp:tool
func MakeReport(ctx context.Context, in KindsInput) (*Report, error) {
	return &Report{Common: in.Common, Name: in.ID}, nil
}
