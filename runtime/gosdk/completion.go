package gosdk

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/wire"
)

// complete is the server's completion handler, which go-sdk takes once,
// when the server is made: it dispatches a request to the completer of the
// prompt or resource template its ref names. A prompt or template without
// a completer completes nothing, which is not an error; an unknown one is
// invalid params; a completer's error or panic is an internal error.
func (r *registry) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	p := req.Params
	kind, key, comp, err := r.Completer(p.Ref.Type, p.Ref.Name, p.Ref.URI)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
	}
	var args map[string]string
	if p.Context != nil {
		args = p.Context.Arguments
	}
	values, total, more, err := wire.Complete(ctx, r.logger(), comp, kind, key, p.Argument.Name, p.Argument.Value, args)
	switch {
	case err != nil && r.mask.Load():
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: wire.Mask(ctx, r.logger(), kind+" completion", key, err)}
	case err != nil:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: total, HasMore: more}}, nil
}
