package skillfile

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Resolve gives a plain (unquoted) scalar its JSON value, as the YAML 1.2
// core schema does: null, true and false in their three spellings,
// integers (decimal, 0x hex, 0o octal), floats, and strings for the rest.
//
// Hosts read frontmatter with YAML 1.2 readers, Go programs mostly with
// go.yaml.in/yaml/v3, which keeps some YAML 1.1 readings (octal 012,
// digit separators, 0b binary, timestamps). Resolve refuses, with the
// message to show, a scalar the two read differently, so that what the
// server publishes is what every host reads; and the values JSON cannot
// hold: .inf, .nan, and integers beyond 2^53, which a JSON reader rounds.
func Resolve(s string, line, col int) (*Node, *Problem) {
	n := &Node{Line: line, Col: col}
	core, lib := coreValue(s), libValue(s)
	bad := func(why string) (*Node, *Problem) {
		return nil, &Problem{Line: line, Col: col, Msg: "the value " + strconv.Quote(s) + " " + why + ": quote it if it is text"}
	}
	if core != lib {
		switch {
		case lib.kind == tsKind:
			return bad("is a date or time, which YAML readers read differently")
		case strings.Contains(s, "_"):
			return bad("has a digit separator, which YAML readers read differently")
		case core.kind == Int && lib.kind == Int:
			return bad("has a leading zero, which YAML readers read as octal or decimal")
		}
		return bad("is a number some YAML readers read and others do not")
	}
	switch v := core; v.kind {
	case Null:
		n.Kind = Null
	case Bool:
		n.Kind, n.Bool = Bool, v.b
	case Int:
		if v.i > 1<<53 || v.i < -(1<<53) {
			return bad("is too large for a JSON number")
		}
		n.Kind, n.Int = Int, v.i
	case Float:
		if math.IsInf(v.f(), 0) || math.IsNaN(v.f()) {
			return bad("is not a JSON number")
		}
		n.Kind, n.Float = Float, v.f()
	default:
		n.Kind, n.Str = String, s
	}
	return n, nil
}

// value is a scalar's reading by one schema, comparable with ==.
type value struct {
	kind Kind // or tsKind
	b    bool
	i    int64
	bits uint64 // a float's bits, so that NaN equals NaN
}

func (v value) f() float64 { return math.Float64frombits(v.bits) }

// tsKind is the kind of a YAML 1.1 timestamp, which JSON has not.
const tsKind Kind = -1

var (
	coreInt   = regexp.MustCompile(`^[-+]?[0-9]+$`)
	coreOct   = regexp.MustCompile(`^0o[0-7]+$`)
	coreHex   = regexp.MustCompile(`^0x[0-9a-fA-F]+$`)
	coreFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
)

// coreValue reads s by the YAML 1.2 core schema. An integer outside int64
// is read as a float, as a JSON reader would.
func coreValue(s string) value {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return value{kind: Null}
	case "true", "True", "TRUE":
		return value{kind: Bool, b: true}
	case "false", "False", "FALSE":
		return value{kind: Bool}
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return floatValue(math.Inf(1))
	case "-.inf", "-.Inf", "-.INF":
		return floatValue(math.Inf(-1))
	case ".nan", ".NaN", ".NAN":
		return floatValue(math.NaN())
	}
	switch {
	case coreInt.MatchString(s):
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return value{kind: Int, i: i}
		}
		f, _ := strconv.ParseFloat(s, 64)
		return floatValue(f)
	case coreOct.MatchString(s), coreHex.MatchString(s):
		base := 8
		if s[1] == 'x' {
			base = 16
		}
		if i, err := strconv.ParseInt(s[2:], base, 64); err == nil {
			return value{kind: Int, i: i}
		}
		return value{kind: String} // too large: no reader agrees on it
	case coreFloat.MatchString(s):
		f, _ := strconv.ParseFloat(s, 64)
		return floatValue(f)
	}
	return value{kind: String}
}

func floatValue(f float64) value {
	return value{kind: Float, bits: math.Float64bits(f)}
}

// libValue reads s as go.yaml.in/yaml/v3 resolves a plain scalar, which
// keeps YAML 1.1's readings of numbers and timestamps.
func libValue(s string) value {
	switch s {
	case "", "~", "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE",
		".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN":
		return coreValue(s) // the words both schemas know
	}
	switch c := s[0]; {
	case c == '.':
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return floatValue(f)
		}
	case c == '+' || c == '-' || '0' <= c && c <= '9':
		if isLibTimestamp(s) {
			return value{kind: tsKind}
		}
		plain := strings.ReplaceAll(s, "_", "")
		if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return value{kind: Int, i: i}
		}
		if u, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return floatValue(float64(u)) // beyond int64: JSON reads a float
		}
		if coreFloat.MatchString(plain) {
			if f, err := strconv.ParseFloat(plain, 64); err == nil {
				return floatValue(f)
			}
		}
		for _, p := range []struct {
			prefix string
			base   int
		}{{"0b", 2}, {"-0b", 2}, {"0o", 8}, {"-0o", 8}} {
			if digits, ok := strings.CutPrefix(plain, p.prefix); ok {
				if p.prefix[0] == '-' {
					digits = "-" + digits
				}
				if i, err := strconv.ParseInt(digits, p.base, 64); err == nil {
					return value{kind: Int, i: i}
				}
				if u, err := strconv.ParseUint(digits, p.base, 64); err == nil {
					return floatValue(float64(u))
				}
			}
		}
	}
	return value{kind: String}
}

// libTimestamps are the layouts of the timestamps go.yaml.in/yaml/v3 reads
// in a plain scalar that starts with four digits and a '-'.
var libTimestamps = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

func isLibTimestamp(s string) bool {
	if len(s) < 5 || s[4] != '-' || !coreInt.MatchString(s[:4]) || s[0] == '+' || s[0] == '-' {
		return false
	}
	for _, layout := range libTimestamps {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}
