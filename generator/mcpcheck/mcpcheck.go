// Package mcpcheck offers mcpgen's checks of //mcp: annotations as a
// golang.org/x/tools/go/analysis Analyzer. Editors and go vet then report
// them where the code is written:
//
//	go install github.com/mcpgen/mcpgen/cmd/mcpvet
//	go vet -vettool=$(which mcpvet) ./...
//
// The Analyzer reports what mcpgen itself would, at the same positions. It
// and the mcpgen command are the module's public faces of the generator,
// whose engine is internal.
package mcpcheck

import (
	"golang.org/x/tools/go/analysis"

	"github.com/mcpgen/mcpgen/internal/generator/check"
)

// Analyzer reports misused //mcp: directives and mcp struct tags, tool
// functions of unsupported shapes or types, and names that collide with
// generated code.
var Analyzer *analysis.Analyzer = check.Analyzer
