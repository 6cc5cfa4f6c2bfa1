// Package annotations reads the two small languages in which mcpgen users
// describe tools, resources and prompts: the //mcp: directives in a
// function's doc comment and the mcp key of a struct field's tag.
//
// It turns them into typed values that remember the position of every key,
// so that later stages can point at the exact argument that is wrong. It
// checks everything that can be checked from the text alone (key names,
// value syntax, contradictions between keys) and nothing that needs type
// information: it does not load packages.
package annotations

import (
	"fmt"
	"go/token"
)

// Error is one positioned problem.
type Error struct {
	Pos token.Pos
	Msg string
}

// Error returns the message without the position; callers add the
// position in file:line:col form through their FileSet.
func (e Error) Error() string { return e.Msg }

func errorf(pos token.Pos, format string, a ...any) Error {
	return Error{Pos: pos, Msg: fmt.Sprintf(format, a...)}
}

// String is a string value written in a directive or tag. Set reports
// whether it was written at all; Pos is the position of its key.
type String struct {
	Value string
	Pos   token.Pos
	Set   bool
}

// Bool is a boolean value written in a directive or tag; a bare key means
// true. Set reports whether it was written at all; Pos is the position of
// its key.
type Bool struct {
	Value bool
	Pos   token.Pos
	Set   bool
}

// Int is a non-negative integer written in a directive or tag. Set reports
// whether it was written at all; Pos is the position of its key.
type Int struct {
	Value int
	Pos   token.Pos
	Set   bool
}

// Number is a finite number written in a directive or tag. Text is the
// literal as written (e.g. "0.01"), so that it can be published without
// a round trip through float64. Set reports whether it was written at
// all; Pos is the position of its key.
type Number struct {
	Value float64
	Text  string
	Pos   token.Pos
	Set   bool
}

// List is a list of values written in one key, such as enum=a|b|c. Set
// reports whether it was written at all; Pos is the position of its key.
type List struct {
	Values []string
	Pos    token.Pos
	Set    bool
}

// Tool is the //mcp:tool directive.
type Tool struct {
	Pos token.Pos // position of the "//" of the directive

	Name, Title, Description, Input, Output      String
	ReadOnly, Destructive, Idempotent, OpenWorld Bool
	Task                                         String   // "forbidden", "optional" or "required"
	UI                                           String   // a ui:// URI: the tool is an MCP App's
	Visibility                                   List     // "model", "app", or both
	Scopes                                       List     // OAuth scopes, from scope=
	Nolint                                       List     // -lint rules silenced on the tool, from nolint=
	Groups                                       []String // the groups it belongs to, one group= each
	Pin                                          Bool     // listed beside the search tools in tool search mode
}

// Resource is the //mcp:resource directive: the function serves a
// resource, or a resource template when its uri has an expression.
type Resource struct {
	Pos token.Pos // position of the "//" of the directive

	URI                            String      // as written
	Template                       URITemplate // URI split into parts; no parts when uri is missing or bad
	Name, Title, Description, MIME String
	Size                           Int      // bytes; static resources only
	Audience                       List     // "user", "assistant", or both
	Priority                       Number   // from 0 to 1
	Scopes                         List     // OAuth scopes, from scope=
	Groups                         []String // the groups it belongs to, one group= each

	// The keys of an MCP App's page, a ui:// resource: the origins of its
	// content security policy, the browser features it asks for, its
	// dedicated domain and whether it wants a border.
	CSPConnect, CSPResource, CSPFrame, CSPBaseURI List
	Permissions                                   List
	Domain                                        String
	Border                                        Bool
}

// AppKeys returns the positions of the keys of an MCP App's page that r
// sets, by key name, in the order of the key table.
func (r *Resource) AppKeys() []KeyPos {
	var out []KeyPos
	add := func(name string, set bool, pos token.Pos) {
		if set {
			out = append(out, KeyPos{name, pos})
		}
	}
	add("csp-connect", r.CSPConnect.Set, r.CSPConnect.Pos)
	add("csp-resource", r.CSPResource.Set, r.CSPResource.Pos)
	add("csp-frame", r.CSPFrame.Set, r.CSPFrame.Pos)
	add("csp-base-uri", r.CSPBaseURI.Set, r.CSPBaseURI.Pos)
	add("permissions", r.Permissions.Set, r.Permissions.Pos)
	add("domain", r.Domain.Set, r.Domain.Pos)
	add("border", r.Border.Set, r.Border.Pos)
	return out
}

// KeyPos is a key written in a directive and where.
type KeyPos struct {
	Name string
	Pos  token.Pos
}

// Prompt is the //mcp:prompt directive: the function is a prompt.
type Prompt struct {
	Pos token.Pos // position of the "//" of the directive

	Name, Title, Description String
	Scopes                   List     // OAuth scopes, from scope=
	Groups                   []String // the groups it belongs to, one group= each
}

// Param is the //mcp:param NAME [keys] directive: it describes one
// parameter of a function whose parameters are positional. Its keys are
// those of the mcp struct tag, plus description= as an alias of desc=.
type Param struct {
	Pos  token.Pos // position of the "//" of the directive
	Name String    // the first, positional word: a Go identifier
	Tag  Tag
}

// Icon is the //mcp:icon src=URL [mime=TYPE] [sizes=WxH[,WxH]]
// [theme=light|dark] directive.
type Icon struct {
	Pos              token.Pos // position of the "//" of the directive
	Src, MIME, Theme String
	Sizes            List // each "WxH" or "any"
}

// Form is the //mcp:form directive on a struct type: the type is a form a
// tool can ask the user to fill in (an elicitation). It takes no keys.
type Form struct {
	Pos token.Pos // position of the "//" of the directive
}

// Skills is the //mcp:skills directive on an embed.FS variable: the
// directories below its embedded directory that hold a SKILL.md are
// Agent Skills.
type Skills struct {
	Pos    token.Pos // position of the "//" of the directive
	Scopes List      // OAuth scopes, from scope=
}

// Tag is the `mcp:"..."` struct tag, and the keys of //mcp:param.
type Tag struct {
	Pos token.Pos // position of the mcp tag value, or of the directive

	Required, Optional, UniqueItems, NoEnum          Bool
	Enum                                             List
	Desc, Title, Default, Pattern, Format            String
	Min, Max, ExclusiveMin, ExclusiveMax, MultipleOf Number
	MinLength, MaxLength, MinItems, MaxItems         Int

	// Complete names the package func that completes the value of a
	// prompt argument or template variable. It is only checked to be a Go
	// identifier here: whether such a func exists, with the right
	// signature, takes type information.
	Complete String
	// Header is the name a client mirrors the property's value under, in
	// the HTTP header Mcp-Param-NAME (published as x-mcp-header): an HTTP
	// token, checked here; where it may stand takes type information.
	Header String
	// Nolint names the -lint rules silenced on the field. Which rules
	// exist is the generator's to check.
	Nolint List
}
