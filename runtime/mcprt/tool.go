package mcprt

import (
	"context"
)

// Handler runs one call of a tool. args is the raw JSON of the call's
// arguments (nil when the call had none). Generated handlers decode args,
// call the annotated function and turn what it returned into a [Result];
// argument problems and returned errors become results with IsError set.
type Handler func(ctx context.Context, args []byte) Result

// Hints are the behaviour hints of a tool. A nil hint was not written and is
// not published; a written hint is published with its value, so an explicit
// false (openworld=false) reaches the client.
type Hints struct {
	ReadOnly    *bool
	Destructive *bool
	Idempotent  *bool
	OpenWorld   *bool
}

// Bool returns a pointer to b, for writing [Hints] literals.
//
// Deprecated: Write new(true) or new(false), which Go 1.26 allows.
func Bool(b bool) *bool { return &b }

// Icon is an image a client may show for a tool or a server.
type Icon struct {
	Src      string   // URL, or a data: URI
	MIMEType string   // optional
	Sizes    []string // optional, "48x48" or "any"
	Theme    string   // optional, "light" or "dark"
}

// TaskSupport says whether a client may or must run a tool as a task.
type TaskSupport string

// The task support levels. TaskForbidden (also the empty string) publishes
// nothing.
const (
	TaskForbidden TaskSupport = "forbidden"
	TaskOptional  TaskSupport = "optional"
	TaskRequired  TaskSupport = "required"
)

// Tool is one tool as generated code declares it: its descriptor, with the
// schemas serialized by the generator, and its handler.
//
// No schema is built or parsed when a server starts. Servers compose the
// descriptor for each protocol revision from these fields, once, when the
// tool is added.
type Tool struct {
	Name         string
	Title        string
	Description  string
	InputSchema  []byte // a JSON object schema
	OutputSchema []byte // a JSON schema, or nil
	// WrapOutput marks an output schema of a value that is not an object
	// (a list, a map): 2026-07-28 publishes it as it is; 2025-06-18 and
	// 2025-11-25, whose output schemas are objects, publish it wrapped as
	// the property "result" of an object, and results carry the value
	// wrapped the same way.
	WrapOutput  bool
	Hints       Hints
	Icons       []Icon
	TaskSupport TaskSupport
	// Scopes are the OAuth scopes a call needs, all of them, on a server
	// with authorization; they are not published in the descriptor.
	Scopes  []string
	Handler Handler
	// ChecksArguments says that Handler checks the syntax of all of args
	// before it acts on them. It fails the call (a result with IsError
	// set) when they are not JSON, as generated handlers do by reading
	// args with a [github.com/mcpgen/mcpgen/runtime/mcpimpl.Decoder]. A
	// server may then hand a call's arguments to the handler unchecked. It
	// checks them only when the call fails, to answer malformed JSON with
	// a protocol error all the same.
	ChecksArguments bool
	// UI links the tool to an MCP App, published as _meta.ui; nil for
	// none.
	UI *ToolUI
	// Meta is the tool's _meta object as JSON, for anything else a client
	// reads there; nil for none. A "ui" member gives way to UI.
	Meta []byte
	// Groups are the names of the groups the tool belongs to (SEP-2084),
	// published in _meta where a server serves groups.
	Groups []string
	// Pin lists the tool beside search_tools and call_tool on a server
	// in tool search mode.
	Pin bool
}
