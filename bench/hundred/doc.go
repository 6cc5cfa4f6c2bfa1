// Package hundred is 100 synthetic annotated tools for the tools/list and
// start-up benchmarks; tools.go is written by gen.go, mcp_gen.go by mcpgen.
package hundred

//go:generate go run gen.go
//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen
//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen -client=hundredclient

// Mode says how a change is applied.
type Mode string

// The modes.
const (
	ModeMerge   Mode = "merge"
	ModeReplace Mode = "replace"
)
