package annotations

import (
	"fmt"
	"slices"
	"strings"
)

// nearest returns the word in valid closest to w, comparing without regard
// to case, when it is close enough to be a likely typo: at most max(1,
// len(w)/3) edits away. It returns "" when nothing is that close. Ties go to
// the word listed first, so the order of valid is the order of preference.
func nearest(w string, valid []string) string {
	limit := max(1, len(w)/3)
	best, bestDist := "", limit+1
	lw := strings.ToLower(w)
	for _, v := range valid {
		if d := editDistance(lw, strings.ToLower(v)); d < bestDist {
			best, bestDist = v, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, counted in
// bytes, extended so that swapping two adjacent bytes counts as one edit
// (the optimal string alignment distance). Without that extension "titel"
// would be two edits from "title", too far to be suggested.
func editDistance(a, b string) int {
	// prev2, prev and cur are three rows of the usual dynamic programming
	// table: distances from a[:i-2], a[:i-1] and a[:i] to every prefix of b.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// didYouMean returns `; did you mean "x"?` for the nearest valid word, or
// "" when none is near.
func didYouMean(w string, valid []string) string {
	if s, ok := synonyms[w]; ok && slices.Contains(valid, s) {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	if s := nearest(w, valid); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	return ""
}

// DidYouMean returns `; did you mean "x"?` naming the choice nearest to w,
// or "" when none is near: the suggestion every mcpgen message uses.
func DidYouMean(w string, choices []string) string { return didYouMean(w, choices) }

// synonyms are the names people write from JSON Schema and the MCP
// specification, too far from the keys by edit distance to be suggested.
var synonyms = map[string]string{
	"minimum":          "min",
	"maximum":          "max",
	"exclusiveMinimum": "exclusiveMin",
	"exclusiveMaximum": "exclusiveMax",
	"description":      "desc",
	"readOnlyHint":     "readonly",
	"destructiveHint":  "destructive",
	"idempotentHint":   "idempotent",
	"openWorldHint":    "openworld",
	"taskSupport":      "task",
	"inputSchema":      "input",
	"outputSchema":     "output",
	"uriTemplate":      "uri",
	"mimeType":         "mime",
	"mimetype":         "mime",
}
