// Command mcpvet reports misused mcpgen annotations, with the messages
// mcpgen prints, for go vet and editors:
//
//	go install github.com/mcpgen/mcpgen/cmd/mcpvet
//	go vet -vettool=$(which mcpvet) ./...
//
// It also runs on its own: mcpvet ./... . The checks are those of the
// generator/mcpcheck analyzer.
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/mcpgen/mcpgen/generator/mcpcheck"
)

func main() { singlechecker.Main(mcpcheck.Analyzer) }
