package mcpgo

import (
	"context"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpgen/mcpgen/internal/wire"
)

// CompletePromptArgument implements mcp-go's PromptCompletionProvider,
// which it takes only when a server is made: it runs the completer of the
// prompt named name. A prompt without a completer completes nothing,
// which is not an error; mcp-go answers every error, an unknown prompt's
// included, as an internal error.
func (r *registry) CompletePromptArgument(ctx context.Context, name string, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	return r.completion(ctx, "ref/prompt", name, "", arg, cc)
}

// CompleteResourceArgument implements mcp-go's ResourceCompletionProvider:
// it runs the completer of the template (or resource) of uri.
func (r *registry) CompleteResourceArgument(ctx context.Context, uri string, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	return r.completion(ctx, "ref/resource", "", uri, arg, cc)
}

// completion runs the completer a ref names: at most 100 values, with the
// total and whether there were more.
func (r *registry) completion(ctx context.Context, refType, name, uri string, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	kind, key, comp, err := r.Completer(refType, name, uri)
	if err != nil {
		return nil, err
	}
	values, total, more, err := wire.Complete(ctx, r.logger(), comp, kind, key, arg.Name, arg.Value, cc.Arguments)
	switch {
	case err != nil && r.mask.Load():
		return nil, errors.New(wire.Mask(ctx, r.logger(), kind+" completion", key, err))
	case err != nil:
		return nil, err
	}
	return &mcp.Completion{Values: values, Total: total, HasMore: more}, nil
}
