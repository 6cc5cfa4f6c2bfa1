package annotations

import (
	"go/token"
	"strings"
)

// parseResource decodes the arguments of //mcp:resource, whose keys are
// valid, and checks what the keys say together: a uri is required, and a
// template has no size.
func parseResource(pos token.Pos, args []arg, valid []string, errs []Error) (*Resource, []Error) {
	r := &Resource{Pos: pos}
	d := newDecoder(errs)
	d.apply(args, valid, func(a arg) bool { return r.set(d, a) })
	if _, ok := d.seen["uri"]; !ok {
		d.errorf(pos, "//mcp:resource needs uri=URI-OR-TEMPLATE")
	}
	if r.Size.Set && r.Template.IsTemplate() {
		d.errorf(r.Size.Pos, "key \"size\" is for a resource with one URI; uri %q is a template", r.URI.Value)
	}
	if r.URI.Set && !strings.HasPrefix(r.URI.Value, "ui://") {
		for _, k := range r.AppKeys() {
			d.errorf(k.Pos, "key %q is for the page of an MCP App, a resource whose uri starts with ui://; uri %q does not", k.Name, r.URI.Value)
		}
	}
	return r, d.result()
}

// set stores one key of //mcp:resource; it is a single switch over the
// keys.
func (r *Resource) set(d *decoder, a arg) bool {
	switch a.key {
	case "uri":
		r.setURI(d, a)
	case "name":
		d.name(a, &r.Name, "resource")
	case "title":
		d.str(a, &r.Title)
	case "description":
		d.str(a, &r.Description)
	case "mime":
		d.mime(a, &r.MIME)
	case "size":
		d.count(a, &r.Size)
	case "audience":
		r.setAudience(d, a)
	case "priority":
		d.fraction(a, &r.Priority)
	case "csp-connect":
		d.origins(a, &r.CSPConnect)
	case "csp-resource":
		d.origins(a, &r.CSPResource)
	case "csp-frame":
		d.origins(a, &r.CSPFrame)
	case "csp-base-uri":
		d.origins(a, &r.CSPBaseURI)
	case "permissions":
		d.words(a, &r.Permissions, permissionWords)
	case "domain":
		d.str(a, &r.Domain)
	case "border":
		d.boolean(a, &r.Border)
	case "scope":
		d.scopes(a, &r.Scopes)
	case "group":
		d.group(a, &r.Groups)
	default:
		return false
	}
	return true
}

// setURI stores uri= and its parts, once the text is an absolute URI or a
// template of {var} and {+var}.
func (r *Resource) setURI(d *decoder, a arg) {
	if !d.needValue(a) {
		return
	}
	t, err := parseURITemplate(a.value)
	if err != nil {
		d.badValue(a, err.Error())
		return
	}
	d.str(a, &r.URI)
	r.Template = t
}

// setAudience stores audience=, one of a few words that each name a role
// or both, as the list of the roles.
func (r *Resource) setAudience(d *decoder, a arg) {
	var s String
	d.choice(a, &s, audienceChoices...)
	if s.Set {
		r.Audience = List{Values: strings.Split(s.Value, "|"), Pos: s.Pos, Set: true}
	}
}

// parsePrompt decodes the arguments of //mcp:prompt, whose keys are
// valid.
func parsePrompt(pos token.Pos, args []arg, valid []string, errs []Error) (*Prompt, []Error) {
	pr := &Prompt{Pos: pos}
	d := newDecoder(errs)
	d.apply(args, valid, func(a arg) bool { return pr.set(d, a) })
	return pr, d.result()
}

// set stores one key of //mcp:prompt.
func (pr *Prompt) set(d *decoder, a arg) bool {
	switch a.key {
	case "name":
		d.name(a, &pr.Name, "prompt")
	case "title":
		d.str(a, &pr.Title)
	case "description":
		d.str(a, &pr.Description)
	case "scope":
		d.scopes(a, &pr.Scopes)
	case "group":
		d.group(a, &pr.Groups)
	default:
		return false
	}
	return true
}
