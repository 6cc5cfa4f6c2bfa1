package mcpcheck_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/mcpgen/mcpgen/generator/mcpcheck"
)

// TestAnalyzer checks the diagnostics against the // want comments of
// testdata/src/a.
func TestAnalyzer(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, analysistest.TestData(), mcpcheck.Analyzer, "a")
}
