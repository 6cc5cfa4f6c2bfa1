package annotations

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// URITemplate is the uri= of //mcp:resource split into its parts, so that
// later stages match and publish it without parsing it again. A URI
// without expressions is one literal part.
//
// It is the subset of RFC 6570 that a server can match as well as expand:
// {var} stands for one path segment and {+var} for any text, slashes
// included. Literal parts are never empty and never adjacent, and no two
// variables are adjacent either, so parts alternate and every variable is
// delimited by literal text on any side that is not the end of the URI.
type URITemplate struct {
	Parts []URIPart
}

// URIPart is one part of a URITemplate: literal text, or one expression
// naming one variable. Exactly one of Literal and Var is set.
type URIPart struct {
	Literal  string // literal text, as written (percent-encodings are kept)
	Var      string // the variable of {Var} or {+Var}: A-Z, a-z, 0-9 and '_'
	Reserved bool   // written {+Var}: its value may be any text, slashes included
}

// String returns the template as written, so that parsing and printing
// round-trip.
func (t URITemplate) String() string {
	var b strings.Builder
	for _, p := range t.Parts {
		b.WriteString(p.String())
	}
	return b.String()
}

// String returns the part as written: its literal text, {var} or {+var}.
func (p URIPart) String() string {
	switch {
	case p.Var == "":
		return p.Literal
	case p.Reserved:
		return "{+" + p.Var + "}"
	}
	return "{" + p.Var + "}"
}

// IsTemplate reports whether the URI has a variable, which makes its
// resource a resource template.
func (t URITemplate) IsTemplate() bool {
	for _, p := range t.Parts {
		if p.Var != "" {
			return true
		}
	}
	return false
}

// Vars returns the names of the variables, in the order written; a
// handler binds one parameter or field to each.
func (t URITemplate) Vars() []string {
	var vs []string
	for _, p := range t.Parts {
		if p.Var != "" {
			vs = append(vs, p.Var)
		}
	}
	return vs
}

// parseURITemplate splits s into parts and checks it from its text: an
// absolute URI whose expressions, if any, are {var} or {+var}. The error
// says what is wrong in a form that completes `bad value ... for key
// "uri": `; it names the first offending expression.
func parseURITemplate(s string) (URITemplate, error) {
	var t URITemplate
	seen := map[string]bool{}
	for i := 0; i < len(s); {
		if s[i] != '{' {
			lit, err := uriLiteral(s[i:])
			if err != nil {
				return URITemplate{}, err
			}
			t.Parts = append(t.Parts, URIPart{Literal: lit})
			i += len(lit)
			continue
		}
		part, n, err := uriExpression(s[i:])
		if err != nil {
			return URITemplate{}, err
		}
		if err := t.checkVar(part, seen); err != nil {
			return URITemplate{}, err
		}
		t.Parts = append(t.Parts, part)
		i += n
	}
	if err := t.checkScheme(); err != nil {
		return URITemplate{}, err
	}
	return t, nil
}

// uriLiteral returns the literal text at the start of s, up to the next
// '{' or the end, after checking each of its characters.
func uriLiteral(s string) (string, error) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '{':
			return s[:i], nil
		case c == '}':
			return "", fmt.Errorf(`"}" after %q has no matching "{"`, s[:i])
		case c == '%':
			if len(s) < i+3 || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return "", fmt.Errorf("%q is not a percent-encoded byte: want %% and two hex digits", s[i:min(i+3, len(s))])
			}
			i += 3
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return "", errors.New("it is not valid UTF-8")
		}
		if !uriChar(r) {
			return "", fmt.Errorf("character %q is not allowed in a URI; percent-encode it", r)
		}
		i += n
	}
	return s, nil
}

// uriChar reports whether r may be written as itself in the literal text
// of a URI template: RFC 6570 allows any ASCII character but controls,
// space and "'%<>\^`{|}, and non-ASCII letters and symbols (an IRI).
func uriChar(r rune) bool {
	if r < utf8.RuneSelf {
		return r > ' ' && r < 0x7f && !strings.ContainsRune("\"'%<>\\^`{|}", r)
	}
	return !unicode.IsControl(r) && !unicode.IsSpace(r)
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// uriVarName is the name of a template variable.
var uriVarName = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// uriExpression parses the expression at the start of s, which starts
// with '{', and returns it with its length.
func uriExpression(s string) (URIPart, int, error) {
	end := strings.IndexAny(s[1:], "{}")
	if end < 0 || s[1+end] == '{' {
		open := s
		if end >= 0 {
			open = s[:1+end]
		}
		return URIPart{}, 0, fmt.Errorf(`expression %q is not closed by "}"`, open)
	}
	expr := s[:end+2]
	body := expr[1 : len(expr)-1]
	var part URIPart
	if body != "" && strings.IndexByte("+#./;?&=,!@|", body[0]) >= 0 {
		if body[0] != '+' {
			return URIPart{}, 0, fmt.Errorf("expression %q uses the %c operator; only {var} and {+var} are supported", expr, body[0])
		}
		part.Reserved = true
		body = body[1:]
	}
	switch {
	case body == "":
		return URIPart{}, 0, fmt.Errorf("expression %q has no variable name", expr)
	case strings.Contains(body, ","):
		return URIPart{}, 0, fmt.Errorf("expression %q has more than one variable; write one expression per variable", expr)
	case !uriVarName.MatchString(body):
		return URIPart{}, 0, fmt.Errorf("expression %q: variable name %q may hold only A-Z, a-z, 0-9 and '_'", expr, body)
	}
	part.Var = body
	return part, len(expr), nil
}

// checkVar checks the variable part, about to be appended to t, against
// the parts before it: a name is used once, and two expressions have
// literal text between them, without which no URI could be split into
// their values.
func (t URITemplate) checkVar(part URIPart, seen map[string]bool) error {
	if n := len(t.Parts); n > 0 && t.Parts[n-1].Var != "" {
		return fmt.Errorf("expressions %q and %q have no literal text between them, so a URI cannot be split into their values", t.Parts[n-1].String(), part.String())
	}
	if seen[part.Var] {
		return fmt.Errorf("expression %q repeats the variable %q", part.String(), part.Var)
	}
	seen[part.Var] = true
	return nil
}

// uriScheme is an RFC 3986 scheme.
var uriScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*$`)

// checkScheme checks that the template starts with a scheme and a colon,
// written as literal text: a resource URI is absolute.
func (t URITemplate) checkScheme() error {
	var head string
	if len(t.Parts) > 0 {
		head = t.Parts[0].Literal
	}
	scheme, _, found := strings.Cut(head, ":")
	if !found || scheme == "" || strings.ContainsAny(scheme, "/?#") {
		return errors.New("want an absolute URI, starting with a scheme, such as file:///notes.txt or kb://articles/{id}")
	}
	if !uriScheme.MatchString(scheme) {
		return fmt.Errorf("scheme %q must be a letter followed by letters, digits, '+', '-' or '.'", scheme)
	}
	return nil
}
