package wire

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// CallTool runs the tool's handler. Arguments over the size limit of ctx's
// [jsonx.Limits] are refused without being read. A panic in the handler does not
// escape: it is logged with its stack to slog's default logger and becomes
// a result with IsError set, so the server keeps serving and the model is
// told the call failed.
func CallTool(ctx context.Context, t *mcprt.Tool, args []byte) mcprt.Result {
	res, _ := CallToolChecked(ctx, nil, t, args)
	return res
}

// CallToolChecked is CallTool logging to log (nil: slog's default), that
// also returns what the handler panicked with, or nil: a task whose
// handler panicked failed, where a call that did is a failed result.
func CallToolChecked(ctx context.Context, log *slog.Logger, t *mcprt.Tool, args []byte) (res mcprt.Result, panicked any) {
	if err := checkSize(ctx, args); err != nil {
		return mcprt.ErrorResult(err), nil
	}
	defer func() {
		if v := recover(); v != nil {
			if log == nil {
				log = slog.Default()
			}
			log.Error("mcp tool panicked", "tool", t.Name, "panic", v, "stack", string(debug.Stack()))
			res, panicked = mcprt.ErrorResult(fmt.Errorf("internal error: tool %s panicked: %v", t.Name, v)), v
		}
	}()
	return t.Handler(ctx, args), nil
}

// ToolView is what one protocol revision publishes of a tool's descriptor
// beside its name, description and input schema: [ToolIn] computes it, the
// built-in server writes it ([AppendTool]) and the adapters map it onto
// their SDK's type, so that every server path trims alike.
type ToolView struct {
	Title        string            // the top-level title; "" before 2025-06-18
	OutputSchema []byte            // as the revision publishes it; nil before 2025-06-18 or when none
	Annotations  *ToolAnnotations  // nil before 2025-03-26 or with neither title nor hint
	Icons        []mcprt.Icon      // nil before 2025-11-25
	TaskSupport  mcprt.TaskSupport // optional or required, on 2025-11-25 only; else ""
}

// ToolAnnotations are a tool's annotations: its title and the hints that
// were written.
type ToolAnnotations struct {
	Title string
	Hints mcprt.Hints
}

// ToolIn returns what revision rev publishes of t: annotations from
// 2025-03-26, a top-level title and the output schema from 2025-06-18
// (wrapped as [AppendOutputSchema] says), icons from 2025-11-25 and task
// support on 2025-11-25 alone (2026-07-28 moved tasks to an extension).
func ToolIn(t *mcprt.Tool, rev Revision) ToolView {
	var v ToolView
	if rev.HasStructuredOutput() {
		v.Title = t.Title
		if len(t.OutputSchema) > 0 {
			v.OutputSchema = AppendOutputSchema(nil, t, rev)
		}
	}
	if rev.HasAnnotations() && (t.Title != "" || HintsSet(t.Hints)) {
		v.Annotations = &ToolAnnotations{Title: t.Title, Hints: t.Hints}
	}
	if rev.HasIcons() {
		v.Icons = t.Icons
	}
	if rev.HasTasks() && (t.TaskSupport == mcprt.TaskOptional || t.TaskSupport == mcprt.TaskRequired) {
		v.TaskSupport = t.TaskSupport
	}
	return v
}

// AppendTool appends the JSON descriptor of t as a tools/list entry of
// revision rev: only what that revision has is written ([ToolIn]).
func AppendTool(dst []byte, t *mcprt.Tool, rev Revision) []byte {
	v := ToolIn(t, rev)
	dst = append(dst, `{"name":`...)
	dst = jsonx.AppendString(dst, t.Name)
	if v.Title != "" {
		dst = append(dst, `,"title":`...)
		dst = jsonx.AppendString(dst, v.Title)
	}
	if t.Description != "" {
		dst = append(dst, `,"description":`...)
		dst = jsonx.AppendString(dst, t.Description)
	}
	dst = append(dst, `,"inputSchema":`...)
	dst = append(dst, t.InputSchema...)
	if v.OutputSchema != nil {
		dst = append(append(dst, `,"outputSchema":`...), v.OutputSchema...)
	}
	if v.Annotations != nil {
		dst = appendToolAnnotations(append(dst, `,"annotations":`...), v.Annotations)
	}
	if len(v.Icons) > 0 {
		dst = AppendIcons(append(dst, `,"icons":`...), v.Icons)
	}
	if v.TaskSupport != "" {
		dst = append(dst, `,"execution":{"taskSupport":"`...)
		dst = append(dst, v.TaskSupport...)
		dst = append(dst, `"}`...)
	}
	return appendMeta(dst, ToolMeta(t), rev)
}

// appendMeta appends the member _meta, when there is one and revision rev
// publishes it on descriptors (2025-06-18 on), and closes the object.
func appendMeta(dst, meta []byte, rev Revision) []byte {
	if len(meta) > 0 && rev.HasStructuredOutput() {
		dst = append(append(dst, `,"_meta":`...), meta...)
	}
	return append(dst, '}')
}

// AppendOutputSchema appends the output schema as revision rev publishes
// it: before 2026-07-28, when WrapOutput is set, as the property "result"
// of an object schema, with its $defs at the root of the wrapper, where
// its references point (see appendWrapped).
func AppendOutputSchema(dst []byte, t *mcprt.Tool, rev Revision) []byte {
	if !t.WrapOutput || rev >= Rev20260728 {
		return append(dst, t.OutputSchema...)
	}
	return appendWrapped(dst, t.OutputSchema)
}

// appendToolAnnotations appends a's title, if any, and the hints written.
func appendToolAnnotations(dst []byte, a *ToolAnnotations) []byte {
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
	if a.Title != "" {
		field("title")
		dst = jsonx.AppendString(dst, a.Title)
	}
	for _, h := range [...]struct {
		name string
		v    *bool
	}{
		{"readOnlyHint", a.Hints.ReadOnly},
		{"destructiveHint", a.Hints.Destructive},
		{"idempotentHint", a.Hints.Idempotent},
		{"openWorldHint", a.Hints.OpenWorld},
	} {
		if h.v != nil {
			field(h.name)
			dst = jsonx.AppendBool(dst, *h.v)
		}
	}
	return append(dst, '}')
}

// AppendIcons appends icons as a JSON array of icon objects.
func AppendIcons(dst []byte, icons []mcprt.Icon) []byte {
	dst = append(dst, '[')
	for i, ic := range icons {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"src":`...)
		dst = jsonx.AppendString(dst, ic.Src)
		if ic.MIMEType != "" {
			dst = jsonx.AppendString(append(dst, `,"mimeType":`...), ic.MIMEType)
		}
		if len(ic.Sizes) > 0 {
			dst = append(dst, `,"sizes":[`...)
			for j, s := range ic.Sizes {
				if j > 0 {
					dst = append(dst, ',')
				}
				dst = jsonx.AppendString(dst, s)
			}
			dst = append(dst, ']')
		}
		if ic.Theme != "" {
			dst = jsonx.AppendString(append(dst, `,"theme":`...), ic.Theme)
		}
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// HintsSet reports whether any hint of h is written.
func HintsSet(h mcprt.Hints) bool {
	return h.ReadOnly != nil || h.Destructive != nil || h.Idempotent != nil || h.OpenWorld != nil
}

// checkSize reports arguments over the size limit, naming the limit.
func checkSize(ctx context.Context, args []byte) error {
	if max := jsonx.LimitsFrom(ctx).MaxArgumentBytes; len(args) > max {
		msg := fmt.Sprintf("arguments are %d bytes, more than the limit of %d bytes (MaxArgumentBytes)", len(args), max)
		return &mcpimpl.ArgumentError{Problems: []mcpimpl.Problem{{Message: msg}}}
	}
	return nil
}
