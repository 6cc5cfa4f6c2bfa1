package mcpimpl

import (
	"net/url"
	"strings"
)

// MaxTemplateURI is the length of the longest URI a template matches; a
// match takes memory in proportion to the URI's length.
const MaxTemplateURI = 64 << 10

// Template is a resource template as the generator parsed it: literal text
// and variables in order, with no two variables side by side. It matches
// URIs without regular expressions.
type Template struct {
	Parts []TemplatePart
}

// TemplatePart is a literal, or a variable: {name} stands for one path
// segment (no '/', '?' or '#', at least one character), {+name} for any
// text of at least one character, slashes included.
type TemplatePart struct {
	Literal string // set for a literal part
	Var     string // set for a variable
	Plus    bool   // the variable is {+name}
}

// Match reports whether uri is one of t's resources and returns the
// values of its variables in order, percent-decoded. Where a URI can be
// split more than one way, a {name} variable takes the shortest text and
// a {+name} variable the longest, as a backtracking regular expression
// with a lazy and a greedy group would; but the cost is linear in the
// length of uri for each part, whatever the URI, so that no request can
// make a server search at length.
func (t *Template) Match(uri string) ([]string, bool) {
	if len(uri) > MaxTemplateURI || len(t.Parts) > 0 && !strings.HasPrefix(uri, t.Parts[0].Literal) {
		return nil, false // the common case: another template's URI
	}
	ok := t.reachable(uri)
	if !ok[0][0] {
		return nil, false
	}
	vals := make([]string, 0, len(t.Parts)/2+1)
	at := 0
	for k, p := range t.Parts {
		if p.Var == "" {
			at += len(p.Literal)
			continue
		}
		end := t.end(uri, k, at, ok[k+1])
		d, err := url.PathUnescape(uri[at:end])
		if err != nil {
			return nil, false
		}
		vals = append(vals, d)
		at = end
	}
	return vals, true
}

// reachable computes, for each part k and offset i, whether uri[i:] is
// matched by the parts from k on: one pass backwards over the parts, each
// linear in the length of uri.
func (t *Template) reachable(uri string) [][]bool {
	n := len(uri)
	ok := make([][]bool, len(t.Parts)+1)
	ok[len(t.Parts)] = make([]bool, n+1)
	ok[len(t.Parts)][n] = true
	for k := len(t.Parts) - 1; k >= 0; k-- {
		next, cur := ok[k+1], make([]bool, n+1)
		p := t.Parts[k]
		if p.Var == "" {
			for i := 0; i+len(p.Literal) <= n; i++ {
				cur[i] = next[i+len(p.Literal)] && strings.HasPrefix(uri[i:], p.Literal)
			}
		} else {
			// cur[i]: some end e in (i, limit(i)] has next[e]. Scanning
			// backwards, seen is the nearest such e at or after i+1.
			seen := -1
			for i := n; i >= 0; i-- {
				if i < n && p.Var != "" && !p.Plus && isStop(uri[i]) {
					seen = -1 // a {name} value cannot run past a stop
				}
				if i < n && next[i+1] && (p.Plus || !isStop(uri[i])) {
					seen = i + 1
				}
				cur[i] = seen >= 0
			}
		}
		ok[k] = cur
	}
	return ok
}

// end returns where the variable of part k, starting at at, ends: the
// nearest end from which the rest matches for {name}, the farthest for
// {+name}.
func (t *Template) end(uri string, k, at int, rest []bool) int {
	limit := len(uri)
	if !t.Parts[k].Plus {
		if i := strings.IndexAny(uri[at:], "/?#"); i >= 0 {
			limit = at + i
		}
	}
	if t.Parts[k].Plus {
		for e := limit; e > at; e-- {
			if rest[e] {
				return e
			}
		}
	}
	for e := at + 1; e <= limit; e++ {
		if rest[e] {
			return e
		}
	}
	return limit // not reached: reachable said some end exists
}

// isStop reports whether c ends a path segment.
func isStop(c byte) bool { return c == '/' || c == '?' || c == '#' }

// ParseTemplate reads a URI template as the generator writes them:
// literal text, {name} and {+name}, with no two variables side by side.
// It reports false for any other text.
func ParseTemplate(s string) (*Template, bool) {
	t := &Template{}
	for s != "" {
		open := strings.IndexByte(s, '{')
		if open != 0 {
			lit := s
			if open > 0 {
				lit = s[:open]
			}
			if strings.IndexByte(lit, '}') >= 0 {
				return nil, false
			}
			t.Parts = append(t.Parts, TemplatePart{Literal: lit})
			s = s[len(lit):]
			continue
		}
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return nil, false
		}
		p := TemplatePart{Var: s[1:end]}
		if p.Plus = strings.HasPrefix(p.Var, "+"); p.Plus {
			p.Var = p.Var[1:]
		}
		if p.Var == "" || strings.ContainsAny(p.Var, "{+") || len(t.Parts) > 0 && t.Parts[len(t.Parts)-1].Var != "" {
			return nil, false
		}
		t.Parts = append(t.Parts, p)
		s = s[end+1:]
	}
	return t, true
}

// TemplateMatches reports whether uri is one of the URIs of the template
// tmpl, written as [ParseTemplate] reads it. It tells which templates'
// scopes a read needs before any of them runs, with the matcher of
// [Template.Match].
func TemplateMatches(tmpl, uri string) bool {
	t, ok := ParseTemplate(tmpl)
	if !ok || len(uri) > MaxTemplateURI {
		return false
	}
	return t.reachable(uri)[0][0]
}
