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
// [Limits] are refused without being read. A panic in the handler does not
// escape: it is logged with its stack and becomes a result with IsError
// set, so the server keeps serving and the model is told the call failed.
func CallTool(ctx context.Context, t *mcprt.Tool, args []byte) mcprt.Result {
	res, _ := CallToolChecked(ctx, t, args)
	return res
}

// CallToolChecked is CallTool that also returns what the handler panicked
// with, or nil: a task whose handler panicked failed, where a call that
// did is a failed result.
func CallToolChecked(ctx context.Context, t *mcprt.Tool, args []byte) (res mcprt.Result, panicked any) {
	if err := checkSize(ctx, args); err != nil {
		return mcprt.ErrorResult(err), nil
	}
	defer func() {
		if v := recover(); v != nil {
			slog.Error("mcp tool panicked", "tool", t.Name, "panic", v, "stack", string(debug.Stack()))
			res, panicked = mcprt.ErrorResult(fmt.Errorf("internal error: tool %s panicked: %v", t.Name, v)), v
		}
	}()
	return t.Handler(ctx, args), nil
}

// AppendTool appends the JSON descriptor of t as a tools/list entry of
// revision rev: only what that revision has is written.
func AppendTool(dst []byte, t *mcprt.Tool, rev Revision) []byte {
	dst = append(dst, `{"name":`...)
	dst = jsonx.AppendString(dst, t.Name)
	if t.Title != "" && rev.HasStructuredOutput() {
		dst = append(dst, `,"title":`...)
		dst = jsonx.AppendString(dst, t.Title)
	}
	if t.Description != "" {
		dst = append(dst, `,"description":`...)
		dst = jsonx.AppendString(dst, t.Description)
	}
	dst = append(dst, `,"inputSchema":`...)
	dst = append(dst, t.InputSchema...)
	if len(t.OutputSchema) > 0 && rev.HasStructuredOutput() {
		dst = AppendOutputSchema(append(dst, `,"outputSchema":`...), t, rev)
	}
	if rev.HasAnnotations() && (t.Title != "" || HintsSet(t.Hints)) {
		dst = appendToolAnnotations(append(dst, `,"annotations":`...), t)
	}
	if len(t.Icons) > 0 && rev.HasIcons() {
		dst = AppendIcons(append(dst, `,"icons":`...), t.Icons)
	}
	if rev.HasTasks() && (t.TaskSupport == mcprt.TaskOptional || t.TaskSupport == mcprt.TaskRequired) {
		dst = append(dst, `,"execution":{"taskSupport":"`...)
		dst = append(dst, t.TaskSupport...)
		dst = append(dst, `"}`...)
	}
	return append(dst, '}')
}

// AppendOutputSchema appends the output schema as revision rev publishes
// it: wrapped in an object before 2026-07-28 when WrapOutput is set.
func AppendOutputSchema(dst []byte, t *mcprt.Tool, rev Revision) []byte {
	if !t.WrapOutput || rev >= Rev20260728 {
		return append(dst, t.OutputSchema...)
	}
	dst = append(dst, `{"type":"object","properties":{"result":`...)
	dst = append(dst, t.OutputSchema...)
	return append(dst, `},"required":["result"]}`...)
}

func appendToolAnnotations(dst []byte, t *mcprt.Tool) []byte {
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
		dst = jsonx.AppendString(dst, t.Title)
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
