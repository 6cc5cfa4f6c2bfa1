package check_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/mcpgen/mcpgen/internal/generator/check"
)

// TestAnalyzer checks the diagnostics against the // want comments of
// testdata/src/a.
func TestAnalyzer(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, analysistest.TestData(), check.Analyzer, "a")
}
