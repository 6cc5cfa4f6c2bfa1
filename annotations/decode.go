package annotations

import (
	"fmt"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// decoder turns lexed arguments into typed values, collecting errors. One
// decoder serves one directive or tag.
type decoder struct {
	errs []Error
	seen map[string]token.Pos // known keys already written
}

func newDecoder(errs []Error) *decoder {
	return &decoder{errs: errs, seen: make(map[string]token.Pos)}
}

func (d *decoder) errorf(pos token.Pos, format string, a ...any) {
	d.errs = append(d.errs, errorf(pos, format, a...))
}

// apply passes every argument whose key is one of valid to set, which
// stores the value and reports whether it knows the key. apply reports
// unknown and repeated keys. valid comes from the tables of keys.go, so
// they alone decide which keys exist; set only stores.
func (d *decoder) apply(args []arg, valid []string, set func(arg) bool) {
	for _, a := range args {
		if _, dup := d.seen[a.key]; dup && a.key != groupKey.Name {
			d.errorf(a.pos, "repeated key %q", a.key)
			continue
		}
		if !slices.Contains(valid, a.key) || !set(a) {
			d.errorf(a.pos, "unknown key %q%s (valid keys: %s)", a.key, didYouMean(a.key, valid), strings.Join(valid, ", "))
			continue
		}
		d.seen[a.key] = a.pos
	}
}

// result returns the errors sorted by position, keeping the order of
// errors at the same position.
func (d *decoder) result() []Error {
	slices.SortStableFunc(d.errs, func(a, b Error) int { return int(a.Pos - b.Pos) })
	return d.errs
}

// needValue reports whether a has a value, and reports an error if not.
// An empty value counts only when quoted (title="").
func (d *decoder) needValue(a arg) bool {
	if a.hasValue && (a.value != "" || a.quoted) {
		return true
	}
	d.errorf(a.pos, "key %q needs a value", a.key)
	return false
}

func (d *decoder) badValue(a arg, want string) {
	d.errorf(a.pos, "bad value %q for key %q: %s", a.value, a.key, want)
}

func (d *decoder) str(a arg, dst *String) {
	if d.needValue(a) {
		*dst = String{Value: a.value, Pos: a.pos, Set: true}
	}
}

// name stores the name of a tool, resource or prompt (what), which must
// be a name MCP clients accept, by the rule of ToolNameProblem.
func (d *decoder) name(a arg, dst *String, what string) {
	if !d.needValue(a) {
		return
	}
	if p := ToolNameProblem(a.value); p != "" {
		d.errorf(a.pos, "bad %s name %q: %s", what, a.value, p)
		return
	}
	d.str(a, dst)
}

// ident stores a Go identifier, such as the name of a func the generator
// looks up later; keywords are not identifiers.
func (d *decoder) ident(a arg, dst *String) {
	if !d.needValue(a) {
		return
	}
	if !token.IsIdentifier(a.value) {
		d.badValue(a, "want the name of a func of the package, a Go identifier")
		return
	}
	d.str(a, dst)
}

// token stores an HTTP header name token (RFC 9110), which a header name
// is made of: letters, digits and !#$%&'*+-.^_`|~.
func (d *decoder) token(a arg, dst *String) {
	if !d.needValue(a) {
		return
	}
	if a.value == "" || strings.Trim(a.value, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~") != "" {
		d.badValue(a, "want an HTTP header name: letters, digits and !#$%&'*+-.^_`|~")
		return
	}
	d.str(a, dst)
}

// mediaType is an RFC 6838 media type, type/subtype, with parameters
// such as ;charset=utf-8 or the ;profile=mcp-app of an MCP App's page.
var mediaType = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(;[A-Za-z0-9!#$&^_.+-]+=[A-Za-z0-9!#$&^_.+-]+)*$`)

// mime stores a media type, checked for the shape type/subtype, which
// clients rely on to tell text from images and the rest.
func (d *decoder) mime(a arg, dst *String) {
	if !d.needValue(a) {
		return
	}
	if !mediaType.MatchString(a.value) {
		d.badValue(a, "want a media type, type/subtype, such as text/markdown")
		return
	}
	d.str(a, dst)
}

// boolean stores a bool: a bare key is true, and true and false may be
// written out.
func (d *decoder) boolean(a arg, dst *Bool) {
	v := true
	if a.hasValue {
		switch a.value {
		case "true":
		case "false":
			v = false
		default:
			d.badValue(a, "want true or false")
			return
		}
	}
	*dst = Bool{Value: v, Pos: a.pos, Set: true}
}

// choice stores a string that must be one of valid.
func (d *decoder) choice(a arg, dst *String, valid ...string) {
	if !d.needValue(a) {
		return
	}
	if !slices.Contains(valid, a.value) {
		d.errorf(a.pos, "bad value %q for key %q%s (valid: %s)", a.value, a.key, didYouMean(a.value, valid), strings.Join(valid, ", "))
		return
	}
	*dst = String{Value: a.value, Pos: a.pos, Set: true}
}

// jsonNumber is the JSON number grammar. Numbers must also be valid JSON
// so that Text can be published as written.
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)

// number stores a finite number written as a JSON number.
func (d *decoder) number(a arg, dst *Number) bool {
	if !d.needValue(a) {
		return false
	}
	n, ok := numberOf(a)
	if !ok {
		d.badValue(a, "want a number")
		return false
	}
	*dst = n
	return true
}

// numberOf reads the value of a as a finite JSON number. ParseFloat
// rejects numbers too large for float64; the grammar rejects NaN and Inf.
func numberOf(a arg) (Number, bool) {
	f, err := strconv.ParseFloat(a.value, 64)
	if err != nil || !jsonNumber.MatchString(a.value) {
		return Number{}, false
	}
	return Number{Value: f, Text: a.value, Pos: a.pos, Set: true}, true
}

// fraction stores a number from 0 to 1, such as a priority.
func (d *decoder) fraction(a arg, dst *Number) {
	if !d.needValue(a) {
		return
	}
	n, ok := numberOf(a)
	if !ok || n.Value < 0 || n.Value > 1 {
		d.badValue(a, "want a number from 0 to 1")
		return
	}
	*dst = n
}

// positive stores a number greater than zero.
func (d *decoder) positive(a arg, dst *Number) {
	var n Number
	if !d.number(a, &n) {
		return
	}
	if n.Value <= 0 {
		d.badValue(a, "want a number greater than 0")
		return
	}
	*dst = n
}

// count stores a non-negative integer written in decimal digits.
func (d *decoder) count(a arg, dst *Int) {
	if !d.needValue(a) {
		return
	}
	n, err := strconv.Atoi(a.value)
	if err != nil || strings.Trim(a.value, "0123456789") != "" {
		d.badValue(a, "want a non-negative integer")
		return
	}
	*dst = Int{Value: n, Pos: a.pos, Set: true}
}

// list stores a list of non-empty, distinct values separated by sep.
func (d *decoder) list(a arg, dst *List, sep string) bool {
	if !d.needValue(a) {
		return false
	}
	vs := strings.Split(a.value, sep)
	for i, v := range vs {
		if v == "" {
			d.badValue(a, fmt.Sprintf("want values separated by '%s', none empty", sep))
			return false
		}
		if slices.Contains(vs[:i], v) {
			d.badValue(a, fmt.Sprintf("%q is repeated", v))
			return false
		}
	}
	*dst = List{Values: vs, Pos: a.pos, Set: true}
	return true
}

// scopes stores scope=, OAuth scopes separated by spaces: each an RFC
// 6749 §3.3 scope token (printable ASCII but space, quote and backslash),
// none
// repeated, at least one.
func (d *decoder) scopes(a arg, dst *List) {
	if !d.needValue(a) {
		return
	}
	vs := strings.Fields(a.value)
	if len(vs) == 0 {
		d.badValue(a, "want one or more OAuth scopes separated by spaces")
		return
	}
	for i, v := range vs {
		for _, c := range v {
			if c < 0x21 || c > 0x7e || c == '"' || c == '\\' {
				d.badValue(a, fmt.Sprintf("scope %q has character %q, which RFC 6749 does not allow in a scope (printable ASCII but space, '\"' and '\\')", v, c))
				return
			}
		}
		if slices.Contains(vs[:i], v) {
			d.badValue(a, fmt.Sprintf("%q is repeated", v))
			return
		}
	}
	*dst = List{Values: vs, Pos: a.pos, Set: true}
}

// later returns the position of whichever of two keys was written last,
// where a contradiction between them is reported.
func later(a, b token.Pos) token.Pos {
	return max(a, b)
}

// appURI stores the URI of an MCP App's page, which starts with ui://.
func (d *decoder) appURI(a arg, dst *String) {
	if !d.needValue(a) {
		return
	}
	if !strings.HasPrefix(a.value, "ui://") || len(a.value) == len("ui://") {
		d.badValue(a, "want the uri of an MCP App's page, which starts with ui://, as ui://kb/viewer")
		return
	}
	d.str(a, dst)
}

// words stores a list of words separated by '|', each one of valid.
func (d *decoder) words(a arg, dst *List, valid []string) {
	var l List
	if !d.list(a, &l, "|") {
		return
	}
	for _, w := range l.Values {
		if !slices.Contains(valid, w) {
			d.errorf(a.pos, "bad value %q for key %q%s (valid: %s, separated by '|')", w, a.key, didYouMean(w, valid), strings.Join(valid, ", "))
			return
		}
	}
	*dst = l
}

// origins stores a list of origins separated by ',': a scheme, "://" and
// a host, as https://api.example.com or https://*.example.com.
func (d *decoder) origins(a arg, dst *List) {
	var l List
	if !d.list(a, &l, ",") {
		return
	}
	for _, o := range l.Values {
		scheme, host, ok := strings.Cut(o, "://")
		if !ok || scheme == "" || host == "" || strings.ContainsAny(o, " \t\"'") {
			d.badValue(a, fmt.Sprintf("%q is no origin: want scheme://host, as https://api.example.com, separated by ','", o))
			return
		}
	}
	*dst = l
}
