package wire

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// This file masks what a handler's error or panic would tell the client,
// as mcpserver.Server.MaskErrors and the adapters' MaskErrors ask: the
// client gets a generic message with a correlation id, the log the real
// error with the same id.

// Mask logs err, the error of the handler of a tool, prompt, resource or
// completion (kind) named name, at Error to log (nil: slog's default)
// with a new random correlation id, and returns the generic text the
// client is sent instead, which carries the id.
func Mask(ctx context.Context, log *slog.Logger, kind, name string, err error) string {
	if log == nil {
		log = slog.Default()
	}
	id := rand.Text()
	log.LogAttrs(ctx, slog.LevelError, "mcp handler error masked", slog.String("kind", kind), slog.String("name", name),
		slog.String("correlation_id", id), slog.String("error", err.Error()))
	return MaskedText(id)
}

// MaskedText is the generic text of a masked error of correlation id.
func MaskedText(id string) string {
	return "internal error; the server logged it with correlation id " + id
}

// MaskTool returns res, the result of tool name, with its text masked
// when it reports the function's own error ([mcpimpl.CallError]) or a
// panic (panicked, as [CallToolChecked] returns it). A result the handler
// built itself, with mcprt.ErrorResult or mcprt.Errorf, and the argument
// problems of generated code go through.
func MaskTool(ctx context.Context, log *slog.Logger, name string, res mcprt.Result, panicked any) mcprt.Result {
	var fe *mcpimpl.FuncError
	if !res.IsError || panicked == nil && !errors.As(res.Err, &fe) {
		return res
	}
	err := res.Err
	if err == nil {
		err = errors.New("the tool failed")
	}
	return mcprt.Result{Content: []mcprt.Content{mcprt.Text(Mask(ctx, log, "tool", name, err))}, IsError: true}
}

// Maskable reports whether err, returned by a prompt's Get, a resource's
// Read or a completer, is the handler's own, which masking hides: any
// error but the argument problems of generated code, which are the
// client's to fix.
func Maskable(err error) bool { return !IsArgumentError(err) }

// MaskReason returns the reason of a resource not found (see
// [NotFoundReason]), masked when it is the handler's own words: the
// reason a URI's template variables give is the client's to fix and
// goes through.
func MaskReason(ctx context.Context, log *slog.Logger, uri string, err error) string {
	reason := NotFoundReason(err)
	var ve *mcpimpl.VariableError
	if reason == "" || errors.As(err, &ve) {
		return reason
	}
	return Mask(ctx, log, "resource", uri, err)
}
