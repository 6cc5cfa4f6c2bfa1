package annotations

import (
	"fmt"
	"go/ast"
	"go/token"
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ParseDirective parses one comment line. text includes the leading "//",
// as in ast.Comment.Text, and pos is its position (ast.Comment.Slash).
//
// It returns (nil, nil) when the line is not an //mcp: directive; a space
// after the slashes ("// mcp:tool") makes an ordinary comment. Otherwise it
// returns a *Tool, *Resource, *Prompt, *Param, *Icon, *Form or *Skills together
// with every problem found. The value is returned even when there are
// errors, with the good keys filled in; it is nil only when the directive
// name is unknown.
func ParseDirective(pos token.Pos, text string) (any, []Error) {
	if !strings.HasPrefix(text, "//mcp:") {
		return nil, nil
	}
	dir, ok := ast.ParseDirective(pos, text)
	if !ok || dir.Tool != "mcp" {
		// ast.ParseDirective wants a lower-case letter or digit after the
		// colon; "//mcp:Tool" and "//mcp:" are still meant as directives.
		return nil, []Error{unknownDirective(pos, text)}
	}
	spec, ok := lookupDirective(dir.Name)
	if !ok {
		return nil, []Error{unknownDirective(pos, text)}
	}
	args, errs := lexDirective(dir.Args, func(off int) token.Pos { return dir.ArgsPos + token.Pos(off) })
	valid := spec.keyNames()
	// The table of keys.go says which directives exist; this switch says
	// how each is parsed. A test checks that every listed one has a case.
	switch dir.Name {
	case "tool":
		return parseTool(pos, args, valid, errs)
	case "resource":
		return parseResource(pos, args, valid, errs)
	case "prompt":
		return parsePrompt(pos, args, valid, errs)
	case "param":
		return parseParam(pos, args, valid, errs)
	case "icon":
		return parseIcon(pos, args, valid, errs)
	case "skills":
		sk := &Skills{Pos: pos}
		d := newDecoder(errs)
		d.apply(args, valid, func(a arg) bool {
			if a.key != "scope" {
				return false
			}
			d.scopes(a, &sk.Scopes)
			return true
		})
		return sk, d.result()
	case "form":
		for _, a := range args {
			errs = append(errs, errorf(a.pos, "//mcp:form takes no arguments; describe the form's fields with tags"))
		}
		return &Form{Pos: pos}, errs
	case "group":
		return parseGroup(pos, args, valid, errs)
	case "search":
		for _, a := range args {
			errs = append(errs, errorf(a.pos, "//mcp:search takes no arguments"))
		}
		return &Search{Pos: pos}, errs
	}
	return nil, []Error{unknownDirective(pos, text)}
}

// SpacedDirective reports whether the comment line text (with its leading
// "//") is a directive spoilt by spaces after the slashes, as in
// "// mcp:tool" (or a tab, which gofmt makes of two spaces): Go takes it
// for prose or a code block, so it would do nothing unnoticed.
// It returns the directive as it was meant, "//mcp:tool". Only a known
// directive name counts, followed by the end of the line or a space, so
// that prose mentioning "mcp:" is left alone.
func SpacedDirective(text string) (string, bool) {
	rest, ok := strings.CutPrefix(text, "//")
	trimmed := strings.TrimLeft(rest, " \t")
	if !ok || trimmed == rest {
		return "", false
	}
	rest, ok = strings.CutPrefix(trimmed, "mcp:")
	if !ok {
		return "", false
	}
	name := rest
	if i := strings.IndexAny(rest, " \t"); i >= 0 {
		name = rest[:i]
	}
	if _, known := lookupDirective(name); !known {
		return "", false
	}
	return "//mcp:" + name, true
}

// unknownDirective reports the name after "//mcp:" in text as unknown.
func unknownDirective(pos token.Pos, text string) Error {
	name := text[len("//mcp:"):]
	if i := strings.IndexFunc(name, unicode.IsSpace); i >= 0 {
		name = name[:i]
	}
	namePos := pos + token.Pos(len("//mcp:"))
	names := directiveNames()
	if s := nearest(name, names); s != "" {
		return errorf(namePos, "unknown directive //mcp:%s; did you mean //mcp:%s?", name, s)
	}
	return errorf(namePos, "unknown directive //mcp:%s (valid: %s)", name, strings.Join(names, ", "))
}

// parseTool decodes the arguments of //mcp:tool, whose keys are valid.
func parseTool(pos token.Pos, args []arg, valid []string, errs []Error) (*Tool, []Error) {
	t := &Tool{Pos: pos}
	d := newDecoder(errs)
	d.apply(args, valid, func(a arg) bool { return t.set(d, a) })
	if t.ReadOnly.Value && t.Destructive.Value {
		d.errorf(t.Destructive.Pos, "readonly and destructive contradict each other: a read-only tool cannot be destructive")
	}
	if t.Visibility.Set && !t.UI.Set {
		d.errorf(t.Visibility.Pos, "visibility= is for the tool of an MCP App: set ui=ui://... to the page that shows its results")
	}
	return t, d.result()
}

// ToolNameProblem says what is wrong with a tool name, in a form that
// completes "bad tool name %q: ", or returns "" when MCP clients accept
// it: 1 to 128 characters of A-Z, a-z, 0-9, '_', '.' and '-'. Resource
// and prompt names follow the same rule, so that every name mcpgen
// publishes is one a client can show and send back as written.
func ToolNameProblem(name string) string {
	const allowed = "A-Z, a-z, 0-9, '_', '.', '-'"
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		return "want 1 to 128 characters of " + allowed
	case n > 128:
		return fmt.Sprintf("it is %d characters long, shorten it to at most 128", n)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.' || r == '-') {
			return fmt.Sprintf("character %q is not allowed (use %s)", r, allowed)
		}
	}
	return ""
}

// set stores one key of //mcp:tool; it is a single switch over the keys.
func (t *Tool) set(d *decoder, a arg) bool {
	switch a.key {
	case "name":
		d.name(a, &t.Name, "tool")
	case "title":
		d.str(a, &t.Title)
	case "description":
		d.str(a, &t.Description)
	case "readonly":
		d.boolean(a, &t.ReadOnly)
	case "destructive":
		d.boolean(a, &t.Destructive)
	case "idempotent":
		d.boolean(a, &t.Idempotent)
	case "openworld":
		d.boolean(a, &t.OpenWorld)
	case "task":
		d.choice(a, &t.Task, taskChoices...)
	case "input":
		d.str(a, &t.Input)
	case "output":
		d.str(a, &t.Output)
	case "ui":
		d.appURI(a, &t.UI)
	case "visibility":
		d.words(a, &t.Visibility, visibilityWords)
	case "scope":
		d.scopes(a, &t.Scopes)
	case "nolint":
		d.list(a, &t.Nolint, "|")
	case "group":
		d.group(a, &t.Groups)
	case "pin":
		d.boolean(a, &t.Pin)
	default:
		return false
	}
	return true
}

// parseParam decodes the arguments of //mcp:param: a parameter name, then
// the keys of the mcp tag and description, which are valid.
func parseParam(pos token.Pos, args []arg, valid []string, errs []Error) (*Param, []Error) {
	p := &Param{Pos: pos, Tag: Tag{Pos: pos}}
	d := newDecoder(errs)
	switch {
	case len(args) == 0 || args[0].hasValue:
		d.errorf(pos, "missing parameter name: want //mcp:param NAME [key=value]...")
	case !token.IsIdentifier(args[0].key):
		d.errorf(args[0].pos, "bad parameter name %q: want a Go identifier", args[0].key)
		args = args[1:]
	default:
		p.Name = String{Value: args[0].key, Pos: args[0].pos, Set: true}
		args = args[1:]
	}
	d.apply(args, valid, func(a arg) bool { return p.Tag.set(d, a) })
	p.Tag.check(d)
	return p, d.result()
}

// parseIcon decodes the arguments of //mcp:icon, whose keys are valid.
func parseIcon(pos token.Pos, args []arg, valid []string, errs []Error) (*Icon, []Error) {
	ic := &Icon{Pos: pos}
	d := newDecoder(errs)
	d.apply(args, valid, func(a arg) bool { return ic.set(d, a) })
	if _, ok := d.seen["src"]; !ok {
		d.errorf(pos, "//mcp:icon needs src=URL")
	}
	return ic, d.result()
}

// iconSize is one entry of sizes= other than "any".
var iconSize = regexp.MustCompile(`^[0-9]+x[0-9]+$`)

// set stores one key of //mcp:icon.
func (ic *Icon) set(d *decoder, a arg) bool {
	switch a.key {
	case "src":
		if !d.needValue(a) {
			return true
		}
		if _, err := url.Parse(a.value); err != nil {
			d.badValue(a, "want a URL")
			return true
		}
		d.str(a, &ic.Src)
	case "mime":
		d.str(a, &ic.MIME)
	case "theme":
		d.choice(a, &ic.Theme, themeChoices...)
	case "sizes":
		ic.setSizes(d, a)
	default:
		return false
	}
	return true
}

// setSizes stores sizes=WxH[,WxH]...
func (ic *Icon) setSizes(d *decoder, a arg) {
	var l List
	if !d.list(a, &l, ",") {
		return
	}
	for _, s := range l.Values {
		if s != "any" && !iconSize.MatchString(s) {
			d.badValue(a, "want sizes like 48x48, separated by ',', or any")
			return
		}
	}
	ic.Sizes = l
}
