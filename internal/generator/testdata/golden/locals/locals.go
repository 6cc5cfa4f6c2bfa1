// Package locals declares, at package level, the names the generated
// functions used to give their own parameters and variables (d, v, r, in,
// out, err, ctx, args, enc, x1, seen0, k1, e1, i1, ...) and uses them in
// tool parameters, results and tool functions: the generated file must give
// its locals other names, and still compile and work.
package locals

import (
	"context"
	"errors"
	"sort"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// d is a direction.
type d string

// The directions.
const (
	up   d = "up"
	down d = "down"
)

// v is a level.
type v int

// The levels.
const (
	low v = iota + 1
	high
)

// x1 is a small signed number.
type x1 int8

// seen1 is a flag.
type seen1 bool

// k1 is a weight.
type k1 float64

// e1 is an entry of a map.
type e1 struct {
	N int `json:"n"` // A count
}

// n1 is a pair of names.
type n1 [2]string

// in is the input of Move.
type in struct {
	Dir     d             `json:"dir"`               // Where to go
	Level   v             `json:"level"`             // How strongly
	Small   x1            `json:"small"`             // A small number
	Flag    seen1         `json:"flag"`              // A flag
	Weights map[string]k1 `json:"weights,omitempty"` // Weights by name
	Entries map[string]e1 `json:"entries,omitempty"` // Entries by name
	Pair    n1            `json:"pair"`              // Two names
	Maybe   *v            `json:"maybe,omitempty"`   // An optional level
	Dirs    []d           `json:"dirs,omitempty"`    // More directions
}

// sep1 is a part of a result.
type sep1 struct {
	OK bool `json:"ok"`
}

// out is the result of Move.
type out struct {
	Dir     d             `json:"dir"`
	Total   int           `json:"total"`
	Names   []string      `json:"names"`
	Weights map[string]k1 `json:"weights"`
	Sep     sep1          `json:"sep"`
}

// enc is an item of a list result.
type enc struct {
	Key   string `json:"key"`
	Level v      `json:"level"`
}

// The numbered locals of the generated functions, at depth 0, and a few
// more of the fixed ones.
var (
	x0, seen0, n0, k0, e0, i0, v0, sep0 = 0, 1, 2, 3, 4, 5, 6, 7
	i1, v1                              = "i1", "v1"
	r                                   = 3
	err                                 = errors.New("a package-level err")
)

// Move moves in a direction and reports what it was told.
//
//mcp:tool
func Move(c context.Context, a in) (out, error) {
	total := int(a.Level) + int(a.Small) + a.Pair.len()
	if a.Maybe != nil {
		total += int(*a.Maybe)
	}
	if a.Flag {
		total++
	}
	var names []string
	for name, e := range a.Entries {
		names = append(names, name)
		total += e.N
	}
	sort.Strings(names)
	for _, dir := range a.Dirs {
		names = append(names, string(dir))
	}
	return out{Dir: a.Dir, Total: total, Names: names, Weights: a.Weights, Sep: sep1{OK: true}}, nil
}

func (p n1) len() int { return len(p[0]) + len(p[1]) }

// ctx echoes a word: a tool function named like the handlers' context.
//
//mcp:tool name=echo
//mcp:param word description="The word"
func ctx(word d) string { return strings.ToUpper(string(word)) }

// levels lists levels by key.
//
//mcp:tool
//mcp:param keys description="The keys"
//mcp:param level description="The level of each"
func levels(keys []string, level v) ([]enc, error) {
	if len(keys) == 0 {
		return nil, err
	}
	items := make([]enc, len(keys))
	for i, k := range keys {
		items[i] = enc{Key: k, Level: level}
	}
	return items, nil
}

// args is a receiver type named like the handlers' arguments.
type args struct{ n int }

// Add adds to the count.
//
//mcp:tool
//mcp:param by description="How much"
func (a *args) Add(by x1) int { a.n += int(by); return a.n }

// All returns every tool of the package, the methods bound to one args.
func All() []mcprt.Tool { return append(MCPTools(), (&args{}).MCPTools()...) }

// choice is a form whose decoder takes its value and decoder by the
// generated code's parameter names.
//
//mcp:form
type choice struct {
	Dir d `json:"dir"` // Where to go
}

var _ = []any{up, down, low, high, x0, seen0, n0, k0, e0, i0, v0, sep0, i1, v1, r, choice{}}
