package model

// Client is a client package to generate: a typed method for each tool,
// prompt and resource of one server, on go-sdk's client session. Both
// front ends build it: one from a package's declarations, the other from
// a server's published schemas.
type Client struct {
	Name   string // the client package's name
	Path   string // its import path, or a stand-in for one
	Source string // what it was made from, for the package doc: "package example.com/kb", "server-everything"
	// Listing is the listing the client was made from, as -list prints
	// one, for the doc file beside the client; nil for none.
	Listing   []byte
	Tools     []*ClientTool
	Prompts   []*ClientPrompt
	Resources []*ClientResource
	// Decls are the named types the client package declares, in order.
	Decls []*Decl
	// Scope holds the package-level names of the client package, so that
	// the locals of its functions take none of them.
	Scope map[string]bool
}

// ClientTool is the method calling one tool.
type ClientTool struct {
	Method string // the Go method name
	Name   ToolName
	Doc    string
	// Input is the struct of the arguments, nil for a tool that takes
	// none: the method then takes no input.
	Input   *Type
	Out     OutKind
	OutType *Type // as Tool.OutType; for OutStructured, the struct type
	OutPtr  bool  // OutStructured through a pointer
	// Wrapped says that the output schema wraps a value that is not an
	// object as {"result": ...}.
	Wrapped bool
}

// ClientPrompt is the method rendering one prompt. Every argument is a
// string on the wire; the fields of Input are written as text.
type ClientPrompt struct {
	Method string
	Name   string
	Doc    string
	Input  *Type // nil: the prompt takes no arguments
}

// ClientResource is the method reading one resource: a static one, or a
// template whose variables are the method's parameters.
type ClientResource struct {
	Method  string
	URI     string
	Doc     string
	Parts   []TemplatePart
	Vars    []*Field // a template's variables, as the method's parameters, in order
	Out     ResourceOut
	OutType *Type // for ResourceText and ResourceJSON
}

// Decl is a named type the client package declares: a struct of the
// arguments of a tool, a type the source package cannot lend (a main
// package's), or a type made from a schema.
type Decl struct {
	Type *Type // named; its Named.Path is the client package's
	Doc  string
	// Consts are the constants of an enum type, in order.
	Consts []Const
}

// Const is one constant of a declared enum type.
type Const struct {
	Name  string
	Value EnumValue
}
