package mcpimpl

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/internal/jsonx"
)

// maxProblems is how many problems an ArgumentError keeps; a model
// correcting its call needs the first few, not thousands.
const maxProblems = 20

// Problem is one thing wrong with a tool call's arguments.
type Problem struct {
	// Path locates the value in the arguments, as in changes[1].new_price;
	// it is empty for the arguments as a whole.
	Path string
	// Message says what is wrong, in lower case, without a final period.
	Message string
}

// ArgumentError reports every problem found in a tool call's arguments.
// It is what Decoder.Finish returns.
type ArgumentError struct {
	// Problems holds the first problems found, at most 20, in input order.
	Problems []Problem
	// More counts the problems found beyond those kept.
	More int
}

// Error returns "invalid arguments:" followed by one line per problem,
// "path: message" (only the message when the path is empty), and a last
// line "and N more problems" when some were left out.
func (e *ArgumentError) Error() string {
	var b strings.Builder
	b.WriteString("invalid arguments:")
	for _, p := range e.Problems {
		b.WriteByte('\n')
		if p.Path != "" {
			b.WriteString(p.Path)
			b.WriteString(": ")
		}
		b.WriteString(p.Message)
	}
	if e.More > 0 {
		b.WriteString("\nand ")
		b.WriteString(strconv.Itoa(e.More))
		b.WriteString(" more problems")
	}
	return b.String()
}

// appendPathKey appends an object key to a path: .key, or key at the
// start, when it is an identifier, else ["key"] with key JSON-quoted.
func appendPathKey(b []byte, key string) []byte {
	if !isIdentifier(key) {
		b = append(b, '[')
		b = jsonx.AppendString(b, key)
		return append(b, ']')
	}
	if len(b) > 0 {
		b = append(b, '.')
	}
	return append(b, key...)
}

// isIdentifier reports whether s matches [A-Za-z_][A-Za-z0-9_]*.
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// describe shows a JSON value in a message: "object" or "array" for
// containers, else its text, cut to jsonx.MaxQuoted bytes (on a character
// boundary) followed by "..." when longer.
func describe(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	}
	if len(raw) <= jsonx.MaxQuoted {
		return string(raw)
	}
	cut := jsonx.MaxQuoted
	for cut > 0 && !utf8.RuneStart(raw[cut]) {
		cut--
	}
	return string(raw[:cut]) + "..."
}

// unknownMessage is the problem for an unknown property name, naming the
// nearest valid name when one is close enough to be a likely misspelling.
func unknownMessage(key string, valid []string) string {
	if near := nearest(key, valid); near != "" {
		return "unknown property; did you mean " + jsonx.Quote(near) + "?"
	}
	return "unknown property"
}

// nearest returns the name in valid closest to key by case-insensitive
// Levenshtein distance, if that distance is at most max(1, len(key)/3)
// characters; else "". The first of equally near names wins.
func nearest(key string, valid []string) string {
	k := []rune(strings.ToLower(key))
	limit := max(1, len(k)/3)
	best, bestDist := "", limit+1
	for _, name := range valid {
		n := []rune(strings.ToLower(name))
		if abs(len(n)-len(k)) >= bestDist {
			continue // the distance is at least the difference in length
		}
		if dist := levenshtein(k, n); dist < bestDist {
			best, bestDist = name, dist
		}
	}
	return best
}

// levenshtein returns the edit distance between a and b (insertions,
// deletions and substitutions of one character each cost 1), keeping one
// row of the usual dynamic-programming table.
func levenshtein(a, b []rune) int {
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		diag := row[0] // the cell above-left of row[j]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			above := row[j]
			row[j] = min(row[j]+1, row[j-1]+1, diag+cost)
			diag = above
		}
	}
	return row[len(b)]
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
