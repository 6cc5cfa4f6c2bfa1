// Package model is the typed intermediate form of the generator: what the
// analysis found in a Go package, with a position for everything a
// diagnostic may point at. The schema and emit stages read only this model;
// it imports no go/ast, go/types or go/packages.
package model

import "go/token"

// ToolName is the name a client calls a tool by, as opposed to the Go
// identifiers of the function implementing it.
type ToolName string

// Package is one Go package with at least one annotated tool, prompt,
// resource or form.
type Package struct {
	Name      string // Go package name
	Path      string // import path
	Dir       string // directory holding the package
	GenFile   string // path of the generated file
	Tools     []*Tool
	Prompts   []*Prompt
	Resources []*Resource // static resources and templates, in source order
	Forms     []*Form
	Skills    *Skills // the package's //mcp:skills, nil for none
	// Groups are the groups of SEP-2084 the package's declarations belong
	// to: those its doc comment declares, then those only group= names,
	// in the order first named.
	Groups []*Group
	// Search says the package's doc comment asks for the tool search
	// index (//mcp:search).
	Search bool
	// Scope holds the package-level identifiers of the user's files: the
	// generated file's import names and the names of the parameters and
	// variables of its functions are chosen not to take them.
	Scope map[string]bool
}

// Shape is how a tool's arguments reach its function.
type Shape int

// The handler shapes of the contract.
const (
	NameKeyed  Shape = iota // one struct (or pointer to struct) parameter
	Positional              // one parameter per property
)

// OutKind classifies what a tool function returns beside its error.
type OutKind int

// The result kinds of the contract.
const (
	OutNone       OutKind = iota // only an error, or nothing
	OutString                    // a string kind: one text block
	OutInt                       // a signed integer kind
	OutUint                      // an unsigned integer kind
	OutFloat                     // a float kind
	OutBool                      // a bool kind
	OutBytes                     // []byte or json.RawMessage: one text block
	OutResult                    // mcprt.Result: sent as it is
	OutStructured                // a struct or pointer to one: structuredContent + text
	OutJSON                      // any other JSON value: one text block of JSON
)

// Hints are the behaviour hints as written; nil is not written.
type Hints struct {
	ReadOnly, Destructive, Idempotent, OpenWorld *bool
}

// Icon is one //mcp:icon directive.
type Icon struct {
	Src, MIMEType, Theme string
	Sizes                []string
}

// Receiver is the named type a method tool is declared on.
type Receiver struct {
	Name    string // the type's name, T in func (r *T) F
	Pointer bool   // the method has a pointer receiver
}

// Func is the Go function or method behind a tool, prompt or resource,
// and how what a client sends reaches its parameters: the properties of a
// tool, the arguments of a prompt or the variables of a resource template
// are the fields of Input, decoded by the same generated decoders.
type Func struct {
	FuncName string    // Go name of the function or method
	Recv     *Receiver // nil for a package-level function
	HasCtx   bool      // the first parameter is a context.Context
	Shape    Shape
	Input    *Type // a struct type: the parameter's, or the synthetic one of positional parameters
	InputPtr bool  // the name-keyed parameter is a pointer to Input
	HasError bool  // the last result is an error
}

// GoIdent is a Go identifier fragment naming the function uniquely within
// the package: F, or T_F for a method; generated names derive from it.
func (f *Func) GoIdent() string {
	if f.Recv != nil {
		return f.Recv.Name + "_" + f.FuncName
	}
	return f.FuncName
}

// Tool is one annotated function or method.
type Tool struct {
	Pos         token.Position
	Name        ToolName
	Title       string
	Description string
	Hints       Hints
	Icons       []Icon
	TaskSupport string   // "", "optional" or "required"
	UI          *ToolUI  // the MCP App whose page shows the results; nil for none
	Scopes      []string // OAuth scopes a call needs, from scope=
	Nolint      []string // -lint rules silenced on the tool itself, from nolint=
	Groups      []string // the groups it belongs to: its group= keys, then the package's
	Pin         bool     // listed beside the search tools in tool search mode

	Func
	Out     OutKind
	OutType *Type // for OutStructured, the struct type; for other kinds, the Go type
	OutPtr  bool  // OutStructured through a pointer
	// OutText says the function returns mcprt.Structured[Out]: the value
	// is its Value field, of OutType (OutPtr, Out as for Out alone), and
	// its Text field, when set, is the text block.
	OutText bool

	// InputFile and OutputFile are the schemas read from input= and
	// output= files, compacted; nil when the schema stage computes them.
	InputFile, OutputFile []byte
}

// ToolUI links a tool to an MCP App: the ui:// resource of the package
// whose page shows its results, where ui= names it, and who may call it.
type ToolUI struct {
	Pos         token.Position // of the ui= key
	ResourceURI string
	Visibility  []string // "model", "app"; nil: not published
}

// ResourceUI is what the page of an MCP App (a ui:// resource) asks of
// the host: origins of its content security policy, browser features,
// a dedicated domain and a border.
type ResourceUI struct {
	ConnectDomains, ResourceDomains, FrameDomains, BaseURIDomains []string
	Permissions                                                   []string
	Domain                                                        string
	PrefersBorder                                                 *bool
}

// AppMIMEType is the media type of an MCP App's page, the default of a
// ui:// resource.
const AppMIMEType = "text/html;profile=mcp-app"

// PromptOut classifies what a prompt function returns beside its error.
type PromptOut int

// The prompt result kinds of the contract.
const (
	PromptText     PromptOut = iota // a string kind: one user message with one text block
	PromptMessages                  // []mcprt.PromptMessage
	PromptResult                    // mcprt.PromptResult
)

// Prompt is one function annotated //mcp:prompt. Its arguments are the
// fields of Input; every one is a string on the wire.
type Prompt struct {
	Pos         token.Position
	Name        string
	Title       string
	Description string
	Icons       []Icon
	Scopes      []string // OAuth scopes prompts/get needs, from scope=
	Groups      []string // as a tool's
	Func
	Out     PromptOut
	OutType *Type // for PromptText, the string type
}

// ResourceOut classifies what a resource function returns beside its error.
type ResourceOut int

// The resource result kinds of the contract.
const (
	ResourceText         ResourceOut = iota // a string kind: one text content
	ResourceBlob                            // []byte: one blob content
	ResourceJSON                            // any other mapped type: its JSON as text
	ResourceContents                        // mcprt.ResourceContents
	ResourceContentsList                    // []mcprt.ResourceContents
)

// TemplatePart is literal text of a resource URI, or a variable: {Var}
// stands for one path segment, {+Var} (Plus) for any text.
type TemplatePart struct {
	Literal string
	Var     string
	Plus    bool
}

// Resource is one function annotated //mcp:resource: a static resource,
// or a template when its URI has variables. A template's variables are
// the fields of Input.
type Resource struct {
	Pos         token.Position
	URI         string
	Parts       []TemplatePart // the URI split; variables only in a template
	Name        string
	Title       string
	Description string
	MIMEType    string
	Size        int64    // 0: not published
	Audience    []string // "user", "assistant"
	Priority    string   // a number from 0 to 1 as written, or ""
	Icons       []Icon
	UI          *ResourceUI // of an MCP App's page, with a key of one written; else nil
	Scopes      []string    // OAuth scopes a read needs, from scope=
	Groups      []string    // as a tool's
	Func
	Out     ResourceOut
	OutType *Type // for ResourceText and ResourceJSON, the Go type
}

// IsTemplate reports whether the resource's URI has variables.
func (r *Resource) IsTemplate() bool {
	for _, p := range r.Parts {
		if p.Var != "" {
			return true
		}
	}
	return false
}

// Form is a struct type marked //mcp:form: a form a tool asks the user to
// fill in through elicitation.
type Form struct {
	Pos  token.Position
	Type *Type // the struct type
}

// Card is what a package says, in constants, of its Server Card (for
// mcpgen -card): the fields of its mcprt.Identity and mcpserver.Card
// literals that the card is made of.
type Card struct {
	Pos                                           token.Position // the mcpserver.Card literal
	Name, Version, Title, Description, WebsiteURL string         // the identity's
	Icons                                         []Icon
	CardName, URL, CardDescription                string // the Card's; URL is "" when set at run time
	Repository                                    *CardRepository
}

// CardRepository is a Card's repository.
type CardRepository struct {
	URL, Source, Subfolder, ID string
}

// Skills is the //mcp:skills directive of a package: the embed.FS
// variable it is on and the Agent Skills below the directory the variable
// embeds.
type Skills struct {
	Pos    token.Position // of the directive
	Var    string         // the embed.FS variable
	Root   string         // the directory it embeds, "/"-separated: "skills"
	Scopes []string       // OAuth scopes, from scope=
	List   []Skill        // by path
}

// Skill is one skill: a directory below the root holding a SKILL.md.
type Skill struct {
	Path        string // below the root, "/"-separated: "acme/billing/refunds"
	Frontmatter []byte // the SKILL.md frontmatter as JSON
	Files       []SkillFile
}

// SkillFile is one file of a skill, as go generate read it, for -list.
type SkillFile struct {
	Path string // below the skill's directory
	Data []byte
}

// Group is a group of SEP-2084: one the package's doc comment declares
// with //mcp:group, whose members are all the package's declarations, or
// one only named by group=, declared (if at all) elsewhere.
type Group struct {
	Pos         token.Position // of the directive, or of the first group= naming it
	Name        string
	Title       string
	Description string
	Declared    bool // by //mcp:group in the package's doc comment
}
