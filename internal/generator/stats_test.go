package generator

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestEstimateTokens(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want int
	}{
		{``, 0},
		{`Only instances in this state`, 6}, // each word one token, "instances" two
		{`{"type":"string","description":"Only instances in this state"}`, 15}, // words, and marks by threes
		{`2026`, 2},
		{`   `, 0},
		{`é`, 1},
	}
	for _, tt := range tests {
		if got := EstimateTokens([]byte(tt.in)); got != tt.want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// TestListStats checks the table of -list -stats on the groups case:
// a row a tool, the totals and tool search mode, on every revision.
func TestListStats(t *testing.T) {
	t.Parallel()
	dir, _ := filepath.Abs(filepath.Join("testdata", "golden", "groups"))
	code, stdout, stderr := runMain(t, dir, "-list", "-stats")
	if code != ExitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	compareGolden(t, filepath.Join(dir, "stats.txt.golden"), []byte(stdout))
}

func TestBudget(t *testing.T) {
	t.Parallel()
	dir, _ := filepath.Abs(filepath.Join("testdata", "golden", "groups"))
	_, _, stderr := runMain(t, dir, "-lint", "-budget", "100")
	var over []string
	for _, line := range strings.Split(stderr, "\n") {
		if strings.Contains(line, "(-budget)") {
			over = append(over, line)
		}
	}
	want := []string{"groups.go:29:1: warning: tool refund_charge costs about 104 tokens to list (403 bytes), over the budget of 100 (-budget): shorten its description or those of its parameters, or split it"}
	if strings.Join(over, "\n") != strings.Join(want, "\n") {
		t.Errorf("-lint -budget 100 warned\n%s\nwant\n%s", strings.Join(over, "\n"), strings.Join(want, "\n"))
	}
	if _, _, stderr := runMain(t, dir, "-lint"); strings.Contains(stderr, "-budget") {
		t.Errorf("-lint without -budget warned of a budget: %s", stderr)
	}
}

func TestStatsUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	wantRun(t, dir, []string{"-stats"}, ExitUsage, "", "mcpgen: -stats goes with -list: mcpgen -list -stats\n")
	wantRun(t, dir, []string{"-budget", "10"}, ExitUsage, "", "mcpgen: -budget goes with -lint: mcpgen -lint -budget TOKENS\n")
	wantRun(t, dir, []string{"-lint", "-budget", "-1"}, ExitUsage, "", "mcpgen: -budget -1: want a number of tokens greater than 0\n")
}
