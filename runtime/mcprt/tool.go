package mcprt

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
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

// Set reports whether any hint is written.
func (h Hints) Set() bool {
	return h.ReadOnly != nil || h.Destructive != nil || h.Idempotent != nil || h.OpenWorld != nil
}

// Bool returns a pointer to b, for writing [Hints] literals.
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
// No schema is built or parsed when a server starts: servers compose the
// descriptor for each protocol revision from these fields with
// [Tool.AppendDescriptor], once, when the tool is added.
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
	Handler     Handler
	// ChecksArguments says that Handler checks the syntax of all of args
	// before it acts on them and fails the call (a result with IsError
	// set) when they are not JSON, as generated handlers do by reading
	// args with a [Decoder]. A server may then hand a call's arguments to
	// the handler unchecked, and check them only when the call fails, to
	// answer malformed JSON with a protocol error all the same.
	ChecksArguments bool
}

// Call runs the tool's handler. Arguments over the size limit of ctx's
// [Limits] are refused without being read. A panic in the handler does not
// escape: it is logged with its stack and becomes a result with IsError
// set, so the server keeps serving and the model is told the call failed.
func (t *Tool) Call(ctx context.Context, args []byte) (res Result) {
	if err := checkSize(ctx, args); err != nil {
		return ErrorResult(err)
	}
	defer func() {
		if v := recover(); v != nil {
			slog.Error("mcp tool panicked", "tool", t.Name, "panic", v, "stack", string(debug.Stack()))
			res = ErrorResult(fmt.Errorf("internal error: tool %s panicked: %v", t.Name, v))
		}
	}()
	return t.Handler(ctx, args)
}

// AppendDescriptor appends the JSON descriptor of t as a tools/list entry of
// revision rev: only what that revision has is written.
func (t *Tool) AppendDescriptor(dst []byte, rev Revision) []byte {
	dst = append(dst, `{"name":`...)
	dst = AppendString(dst, t.Name)
	if t.Title != "" && rev.HasStructuredOutput() {
		dst = append(dst, `,"title":`...)
		dst = AppendString(dst, t.Title)
	}
	if t.Description != "" {
		dst = append(dst, `,"description":`...)
		dst = AppendString(dst, t.Description)
	}
	dst = append(dst, `,"inputSchema":`...)
	dst = append(dst, t.InputSchema...)
	if len(t.OutputSchema) > 0 && rev.HasStructuredOutput() {
		dst = t.AppendOutputSchema(append(dst, `,"outputSchema":`...), rev)
	}
	if rev.HasAnnotations() && (t.Title != "" || t.Hints.Set()) {
		dst = t.appendAnnotations(append(dst, `,"annotations":`...))
	}
	if len(t.Icons) > 0 && rev.HasIcons() {
		dst = AppendIcons(append(dst, `,"icons":`...), t.Icons)
	}
	if rev.HasTasks() && (t.TaskSupport == TaskOptional || t.TaskSupport == TaskRequired) {
		dst = append(dst, `,"execution":{"taskSupport":"`...)
		dst = append(dst, t.TaskSupport...)
		dst = append(dst, `"}`...)
	}
	return append(dst, '}')
}

// AppendOutputSchema appends the output schema as revision rev publishes
// it: wrapped in an object before 2026-07-28 when WrapOutput is set.
func (t *Tool) AppendOutputSchema(dst []byte, rev Revision) []byte {
	if !t.WrapOutput || rev >= Rev20260728 {
		return append(dst, t.OutputSchema...)
	}
	dst = append(dst, `{"type":"object","properties":{"result":`...)
	dst = append(dst, t.OutputSchema...)
	return append(dst, `},"required":["result"]}`...)
}

func (t *Tool) appendAnnotations(dst []byte) []byte {
	dst = append(dst, '{')
	sep := false
	field := func(name string) {
		if sep {
			dst = append(dst, ',')
		}
		sep = true
		dst = append(dst, '"')
		dst = append(dst, name...)
		dst = append(dst, `":`...)
	}
	if t.Title != "" {
		field("title")
		dst = AppendString(dst, t.Title)
	}
	for _, h := range [...]struct {
		name string
		v    *bool
	}{
		{"readOnlyHint", t.Hints.ReadOnly},
		{"destructiveHint", t.Hints.Destructive},
		{"idempotentHint", t.Hints.Idempotent},
		{"openWorldHint", t.Hints.OpenWorld},
	} {
		if h.v != nil {
			field(h.name)
			dst = AppendBool(dst, *h.v)
		}
	}
	return append(dst, '}')
}

// AppendIcons appends icons as a JSON array of icon objects.
func AppendIcons(dst []byte, icons []Icon) []byte {
	dst = append(dst, '[')
	for i, ic := range icons {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"src":`...)
		dst = AppendString(dst, ic.Src)
		if ic.MIMEType != "" {
			dst = AppendString(append(dst, `,"mimeType":`...), ic.MIMEType)
		}
		if len(ic.Sizes) > 0 {
			dst = append(dst, `,"sizes":[`...)
			for j, s := range ic.Sizes {
				if j > 0 {
					dst = append(dst, ',')
				}
				dst = AppendString(dst, s)
			}
			dst = append(dst, ']')
		}
		if ic.Theme != "" {
			dst = AppendString(append(dst, `,"theme":`...), ic.Theme)
		}
		dst = append(dst, '}')
	}
	return append(dst, ']')
}
