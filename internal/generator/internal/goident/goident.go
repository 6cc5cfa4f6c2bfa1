// Package goident makes Go identifiers from the names a server publishes
// (tool names, property names, enum values) and keeps the names of one
// scope unique. Both client front ends name what they declare with it.
package goident

import (
	"go/token"
	"strconv"
	"strings"
	"unicode"
)

// initialisms are the words Go writes in one case (ID, not Id), as
// golint's list does, the common ones.
var initialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "CSV": true, "DNS": true, "EOF": true,
	"GUID": true, "HTML": true, "HTTP": true, "HTTPS": true, "ID": true, "IP": true, "JSON": true, "JWT": true,
	"LHS": true, "MCP": true, "OS": true, "QPS": true, "RAM": true, "RHS": true, "RPC": true, "SLA": true,
	"SMTP": true, "SQL": true, "SSH": true, "TCP": true, "TLS": true, "TTL": true, "UDP": true, "UI": true,
	"UID": true, "URI": true, "URL": true, "UTF8": true, "UUID": true, "VM": true, "XML": true, "XSS": true,
}

// Words splits s into words: at every character that is not a letter or
// digit, and where a lower-case letter or digit meets an upper-case one
// (maxResults: max, Results; HTTPServer: HTTP, Server).
func Words(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = nil
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if len(cur) > 0 && unicode.IsUpper(r) {
			prev := cur[len(cur)-1]
			next := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || unicode.IsUpper(prev) && next {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// Exported is s as an exported Go identifier: its words capitalized and
// joined, initialisms in upper case (user_id: UserID). A name without
// letters is "X" followed by its digits, or "X" alone.
func Exported(s string) string {
	var b strings.Builder
	for _, w := range Words(s) {
		if up := strings.ToUpper(w); initialisms[up] {
			b.WriteString(up)
			continue
		}
		rs := []rune(w)
		rs[0] = unicode.ToUpper(rs[0])
		b.WriteString(string(rs))
	}
	name := b.String()
	if name == "" || !unicode.IsLetter([]rune(name)[0]) {
		name = "X" + name
	}
	return name
}

// Names is one scope's names, each taken once.
type Names struct{ taken map[string]bool }

// New returns a scope in which reserved are taken.
func New(reserved ...string) *Names {
	n := &Names{taken: map[string]bool{}}
	for _, r := range reserved {
		n.taken[r] = true
	}
	return n
}

// Take returns name, or name with the first free number after it, and
// takes it. A keyword or the blank identifier is never returned.
func (n *Names) Take(name string) string {
	try := name
	for i := 2; n.taken[try] || token.IsKeyword(try) || try == "_"; i++ {
		try = name + strconv.Itoa(i)
	}
	n.taken[try] = true
	return try
}

// Taken reports whether name is taken.
func (n *Names) Taken(name string) bool { return n.taken[name] }

// Scope is the set of taken names, for the emitter's locals.
func (n *Names) Scope() map[string]bool { return n.taken }

// Unexported is s as an unexported Go identifier: Exported's words, the
// first in lower case (user_id: userID, URL: url). A name without letters
// is "v" followed by its digits.
func Unexported(s string) string {
	words := Words(s)
	if len(words) == 0 {
		return "v"
	}
	first := strings.ToLower(words[0])
	if !unicode.IsLetter([]rune(first)[0]) {
		first = "v" + first
	}
	if len(words) == 1 {
		return first
	}
	return first + Exported(strings.Join(words[1:], "_"))
}
