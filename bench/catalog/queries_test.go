//go:build catalog

package catalog

import (
	"encoding/json"
	"os"
	"testing"
)

// query is one question of testdata/queries.json and the tools that
// answer it.
type query struct {
	Q    string   `json:"q"`
	Want []string `json:"want"`
}

// The two sets of questions: the first written before the search was
// built, its tuning measured on it; the second written once the
// tokenizer and weights were fixed, to measure them on questions they
// were not chosen for.
const (
	tuningSet  = "testdata/queries.json"
	heldOutSet = "testdata/heldout.json"
)

func readQueries(t testing.TB) []query { return readSet(t, tuningSet) }

func readSet(t testing.TB, name string) []query {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var qs []query
	if err := json.Unmarshal(b, &qs); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return qs
}

// TestCorpus checks the corpus the search benchmarks run on: 500 tools,
// at least 100 questions to tune on and more held out, each naming tools
// the catalog has, no question in both sets.
func TestCorpus(t *testing.T) {
	t.Parallel()
	tools := MCPTools()
	if len(tools) != 500 {
		t.Errorf("%d tools, want 500", len(tools))
	}
	names := map[string]bool{}
	for _, tl := range tools {
		names[tl.Name] = true
	}
	qs := readQueries(t)
	if len(qs) < 100 {
		t.Errorf("%d queries, want at least 100", len(qs))
	}
	held := readSet(t, heldOutSet)
	if len(held) < 50 {
		t.Errorf("%d held-out queries, want at least 50", len(held))
	}
	qs = append(qs, held...)
	seen := map[string]bool{}
	for _, q := range qs {
		if q.Q == "" || len(q.Want) == 0 {
			t.Errorf("query %q: want a question and at least one tool", q.Q)
		}
		if seen[q.Q] {
			t.Errorf("query %q is written twice", q.Q)
		}
		seen[q.Q] = true
		for _, w := range q.Want {
			if !names[w] {
				t.Errorf("query %q: no tool %q", q.Q, w)
			}
		}
	}
}
