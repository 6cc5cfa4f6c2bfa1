package annotations

import (
	"slices"
	"strings"
)

// Key is one key of a directive or of the mcp struct tag.
//
// The tables in this file are the one statement of the language's names.
// The parsers accept exactly the directives and keys listed, name them in
// "valid" messages and suggest among them in list order; mcpgen -h prints
// them, and a test holds docs/reference.md's tables to them. Adding a key is a
// row here and a case in the setter that stores its value; adding a
// directive is a row in directives and a case in ParseDirective.
type Key struct {
	Name  string // as written, before any "="
	Value string // what follows "=", by kind (TEXT, NUMBER, INT, FILE, a|b); "" for a boolean, which a bare key sets to true
	Doc   string // what the key does, in one line
}

// Usage returns the key as the manual writes it: "task=forbidden|optional|required",
// or the bare name of a boolean.
func (k Key) Usage() string {
	if k.Value == "" {
		return k.Name
	}
	return k.Name + "=" + k.Value
}

// Directive is one //mcp:NAME directive.
type Directive struct {
	Name    string // NAME in //mcp:NAME
	Args    string // what follows the name, as the manual writes it
	Doc     string // where the directive goes and what it does, in one line
	TagKeys bool   // it takes the keys of the mcp tag, before its own Keys
	Keys    []Key  // its own keys
}

// Usage returns the directive's grammar line, "//mcp:NAME ARGS".
func (d Directive) Usage() string {
	return strings.TrimSpace("//mcp:" + d.Name + " " + d.Args)
}

// Directives returns the directives of the language with their keys, in
// the order of the manual. The result is a copy: changing it changes
// nothing that is parsed.
func Directives() []Directive {
	ds := slices.Clone(directives)
	for i := range ds {
		ds[i].Keys = slices.Clone(ds[i].Keys)
	}
	return ds
}

// TagKeys returns the keys of the mcp struct tag, which //mcp:param takes
// too, in the order of the manual. The result is a copy.
func TagKeys() []Key { return slices.Clone(tagKeys) }

// directives are the directives, in the order of the manual and of
// suggestions for a misspelt name.
var directives = []Directive{
	{Name: "tool", Args: "[key[=value]]...", Keys: toolKeys,
		Doc: "on a func or method: it is a tool"},
	{Name: "resource", Args: "uri=URI-OR-TEMPLATE [key[=value]]...", Keys: resourceKeys,
		Doc: "on a func or method: it serves a resource, or a resource template when uri has a {var}"},
	{Name: "prompt", Args: "[key[=value]]...", Keys: promptKeys,
		Doc: "on a func or method: it is a prompt"},
	{Name: "param", Args: "NAME [key[=value]]...", TagKeys: true, Keys: paramKeys,
		Doc: "on a tool with positional parameters: describes parameter NAME with the mcp tag keys"},
	{Name: "icon", Args: "src=URL [mime=TYPE] [sizes=WxH[,WxH]] [theme=light|dark]", Keys: iconKeys,
		Doc: "on a tool: an icon clients may show for it; one directive per icon"},
	{Name: "form", Doc: "on a struct type: a form a tool can ask the user to fill in (mcprt.ElicitForm); no keys"},
	{Name: "skills", Args: "[scope=SCOPES]", Keys: skillsKeys,
		Doc: "on an embed.FS var with one //go:embed DIR: every directory below DIR holding a SKILL.md is an Agent Skill (MCPSkills)"},
	{Name: "group", Args: "NAME [title=TEXT] [description=TEXT]", Keys: packageGroupKeys,
		Doc: "in a package's doc comment: every tool, prompt and resource of the package belongs to group NAME"},
	{Name: "search", Doc: "in a package's doc comment: generate MCPSearchIndex, the index of the package's tools for tool search; no keys"},
}

// Values of the keys that take one of a few words, shared by the tables
// and the setters.
var (
	taskChoices     = []string{"forbidden", "optional", "required"}
	themeChoices    = []string{"light", "dark"}
	audienceChoices = []string{"user", "assistant", "user|assistant"}
	// visibilityWords and permissionWords are the words of visibility=
	// and permissions=, each written once in any order.
	visibilityWords = []string{"model", "app"}
	permissionWords = []string{"camera", "microphone", "geolocation", "clipboardWrite"}
)

var toolKeys = []Key{
	{"name", "NAME", "tool name, 1 to 128 of A-Z a-z 0-9 _ . -; default: snake_case of the Go name"},
	{"title", "TEXT", "human-readable title, published as title and annotations.title"},
	{"description", "TEXT", "replaces the doc comment as the description"},
	{"readonly", "", "readOnlyHint: the tool changes nothing; hints are published only if written"},
	{"destructive", "", "destructiveHint: the tool may destroy or overwrite data; not with readonly"},
	{"idempotent", "", "idempotentHint: a repeated call with the same arguments changes nothing more"},
	{"openworld", "", "openWorldHint: the tool may reach outside systems, an open world"},
	{"task", strings.Join(taskChoices, "|"), "whether clients may run it as a task; forbidden, the default, publishes nothing"},
	{"input", "FILE", "a JSON Schema file (relative to the Go file) replacing the generated input schema"},
	{"output", "FILE", "the same for the output schema"},
	{"ui", "ui://URI", "an MCP App: the ui:// resource of the package whose page shows the results, published as _meta.ui.resourceUri"},
	{"visibility", "model|app", "who may call an MCP App's tool: model, app, or both (the default); with ui="},
	{"scope", "SCOPES", "OAuth scopes a call needs, space-separated (scope=\"kb:read kb:write\"), every one checked on an authorized HTTP server"},
	{"nolint", "RULE[|RULE]", "-lint says nothing of these rules on the tool itself, each written PROFILE:KEYWORD as its warnings end"},
	groupKey,
	{"pin", "", "listed beside search_tools and call_tool when the server runs tool search (Server.ToolSearch)"},
}

// groupKey is group=, which tools, prompts and resources take, once per
// group (the one key that may be repeated).
var groupKey = Key{"group", "NAME", "a group it belongs to (SEP-2084, served with Server.Groups); repeat the key for each group"}

var resourceKeys = []Key{
	{"uri", "URI-OR-TEMPLATE", "an absolute URI, or a template where {var} is one path segment and {+var} any text; required"},
	{"name", "NAME", "resource name, 1 to 128 of A-Z a-z 0-9 _ . -; default: snake_case of the Go name"},
	{"title", "TEXT", "human-readable title"},
	{"description", "TEXT", "replaces the doc comment as the description"},
	{"mime", "TYPE", "its media type, such as text/markdown; default: from the result type"},
	{"size", "INT", "its size in bytes, for a resource that is not a template"},
	{"audience", "user|assistant", "who its contents are for: user, assistant, or user|assistant for both"},
	{"priority", "NUMBER", "how much it matters, from 0 (least) to 1 (most)"},
	{"csp-connect", "ORIGIN[,ORIGIN]", "an MCP App's page (uri ui://...) may fetch from these origins: _meta.ui.csp.connectDomains"},
	{"csp-resource", "ORIGIN[,ORIGIN]", "the page may load images, scripts, styles, fonts and media from these: csp.resourceDomains"},
	{"csp-frame", "ORIGIN[,ORIGIN]", "the page may frame these origins: csp.frameDomains"},
	{"csp-base-uri", "ORIGIN[,ORIGIN]", "the page's base URI may be these origins: csp.baseUriDomains"},
	{"permissions", strings.Join(permissionWords, "|"), "browser features the page asks for, any of them: _meta.ui.permissions"},
	{"domain", "DOMAIN", "a dedicated origin for the page, in the host's format: _meta.ui.domain"},
	{"border", "", "the page wants the host's border and background (border=false: none): _meta.ui.prefersBorder"},
	{"scope", "SCOPES", "OAuth scopes a read needs, space-separated (scope=\"kb:read kb:write\"), every one checked on an authorized HTTP server"},
	groupKey,
}

var promptKeys = []Key{
	{"name", "NAME", "prompt name, 1 to 128 of A-Z a-z 0-9 _ . -; default: snake_case of the Go name"},
	{"title", "TEXT", "human-readable title"},
	{"description", "TEXT", "replaces the doc comment as the description"},
	{"scope", "SCOPES", "OAuth scopes prompts/get needs, space-separated (scope=\"kb:read kb:write\"), every one checked on an authorized HTTP server"},
	groupKey,
}

var skillsKeys = []Key{
	{"scope", "SCOPES", "OAuth scopes skills/get, resources/read and directory reads of the skills need, space-separated, every one checked on an authorized HTTP server"},
}

// paramKeys are the keys //mcp:param takes besides those of the tag:
// description, as an alias of desc, since the tool directive spells it out.
var paramKeys = []Key{
	{"description", "TEXT", "the same as desc="},
}

// packageGroupKeys are the keys of //mcp:group besides its name.
var packageGroupKeys = []Key{
	{"title", "TEXT", "human-readable title of the group"},
	{"description", "TEXT", "what the group's members are for"},
}

var iconKeys = []Key{
	{"src", "URL", "the image's URL; required"},
	{"mime", "TYPE", "its media type, such as image/png"},
	{"sizes", "WxH[,WxH]", "the sizes it fits, such as 48x48, or any"},
	{"theme", strings.Join(themeChoices, "|"), "the background it is drawn for"},
}

// tagKeys are the keys of the mcp struct tag. Keys that constrain a value
// apply to the items of a slice or array field.
var tagKeys = []Key{
	{"required", "", "the property is required, even if the field is a pointer or omitempty"},
	{"optional", "", "the property is not required"},
	{"enum", "a|b|c", "the values allowed"},
	{"noenum", "", "no enum from the constants of the field's type: any value of the type is allowed"},
	{"desc", "TEXT", "description, instead of the field's doc or line comment"},
	{"title", "TEXT", "human-readable title"},
	{"default", "VALUE", "the value used when the property is absent"},
	{"min", "NUMBER", "minimum"},
	{"max", "NUMBER", "maximum"},
	{"exclusiveMin", "NUMBER", "exclusive minimum"},
	{"exclusiveMax", "NUMBER", "exclusive maximum"},
	{"multipleOf", "NUMBER", "the value is a multiple of this number, greater than 0"},
	{"minLength", "INT", "minimum length of a string, in characters"},
	{"maxLength", "INT", "maximum length of a string, in characters"},
	{"pattern", "REGEXP", "a Go regular expression the string must match"},
	{"format", "NAME", "JSON Schema format; date-time, date, time, email, uri, uuid, ipv4, ipv6 are checked; an unknown one is a warning"},
	{"minItems", "INT", "minimum number of items of a list"},
	{"maxItems", "INT", "maximum number of items of a list"},
	{"uniqueItems", "", "the items of a list are all different JSON values (objects whatever their member order, numbers by value)"},
	{"complete", "FUNC", "a func(ctx, value string, args map[string]string) ([]string, error) completing a prompt argument or template variable; on a method, a method of its receiver may be named"},
	{"header", "NAME", "mirror a tool's top-level string, integer or bool property in the HTTP header Mcp-Param-NAME (x-mcp-header)"},
	{"nolint", "RULE[|RULE]", "-lint says nothing of these rules on this field, each written PROFILE:KEYWORD as its warnings end (nolint=anthropic-strict:minimum)"},
}

// formats are the formats JSON Schema 2020-12 defines, those decoders
// check first: the order of suggestions for a misspelt one.
var formats = []string{
	"date-time", "date", "time", "email", "uri", "uuid", "ipv4", "ipv6",
	"duration", "hostname", "idn-email", "idn-hostname", "uri-reference", "iri", "iri-reference",
	"uri-template", "json-pointer", "relative-json-pointer", "regex",
}

// Formats returns the formats JSON Schema 2020-12 defines, for format=.
// The result is a copy.
func Formats() []string { return slices.Clone(formats) }

// keyNames returns the names of the keys, in order.
func keyNames(keys []Key) []string {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.Name
	}
	return names
}

// keyNames returns the names of the keys the directive takes, in order:
// those of the tag first, when it takes them.
func (d Directive) keyNames() []string {
	if d.TagKeys {
		return append(keyNames(tagKeys), keyNames(d.Keys)...)
	}
	return keyNames(d.Keys)
}

// directiveNames returns the names of the directives, in order.
func directiveNames() []string {
	names := make([]string, len(directives))
	for i, d := range directives {
		names[i] = d.Name
	}
	return names
}

// lookupDirective returns the directive named name.
func lookupDirective(name string) (Directive, bool) {
	i := slices.IndexFunc(directives, func(d Directive) bool { return d.Name == name })
	if i < 0 {
		return Directive{}, false
	}
	return directives[i], true
}
