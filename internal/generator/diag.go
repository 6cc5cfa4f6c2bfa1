package generator

import "github.com/mcpgen/mcpgen/internal/generator/internal/diag"

// Diagnostic is one problem found by a run, at a position: the one type
// every stage reports with.
type Diagnostic = diag.Diagnostic

// Diagnostics are all the problems of one run.
type Diagnostics = diag.List
