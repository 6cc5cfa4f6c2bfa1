package gosdk

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/mrtr"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// AddPrompts adds prompts to s with the SDK's AddPrompt. Their
// completers answer completion requests on a server made by [NewServer]
// with EnableCompletions. Get runs with a [mcprt.Caller] in its context,
// as a tool does. A second prompt of one name panics and adds none, as
// [AddTools] says.
func AddPrompts(s *mcp.Server, prompts ...mcprt.Prompt) {
	reg := registryOf(s)
	added, err := reg.AddPrompts(prompts)
	if err != nil {
		panic("gosdk: AddPrompts: " + err.Error())
	}
	for _, p := range added {
		d := promptDescriptor(p)
		reg.lists.add(kindPrompts, p.Name, d, wire.NewDescriptors(p, wire.AppendPrompt, 0))
		s.AddPrompt(d, promptHandler(p, reg))
	}
}

// promptDescriptor maps a prompt's descriptor onto the SDK's type.
func promptDescriptor(p *mcprt.Prompt) *mcp.Prompt {
	d := &mcp.Prompt{Name: p.Name, Title: p.Title, Description: p.Description, Icons: icons(p.Icons)}
	for _, a := range p.Arguments {
		d.Arguments = append(d.Arguments, &mcp.PromptArgument{Name: a.Name, Title: a.Title, Description: a.Description, Required: a.Required})
	}
	return d
}

// promptHandler renders p for the SDK. An argument error of generated code
// is invalid params, with its text, so that the client can name the
// argument to fix; any other error, and a panic, is an internal error,
// its text masked when reg masks errors. On 2026-07-28 it may ask the
// client, as a tool does.
func promptHandler(p *mcprt.Prompt, reg *registry) mcp.PromptHandler {
	return func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		rev := revision(req.ProtocolVersion())
		c := newCaller(req.Session, req, req.Params, reg.sw, rev)
		var rd *mrtr.Run
		if rev.Stateless() {
			var err error
			if rd, err = reg.startRound(ctx, c, "prompts/get", req.Params.Name, req.Params.RequestState, req.Params.InputResponses); err != nil {
				return nil, err
			}
		}
		res, err := wire.RenderPrompt(mcprt.WithCaller(ctx, c), reg.logger(), p, req.Params.Arguments)
		if rd != nil {
			if err != nil {
				rd.Ask.RequirePages(err)
			}
			switch reqs, state, rerr := endRound(rd, mrtr.CouldNotAsk(err)); {
			case rerr != nil:
				return nil, rerr
			case reqs != nil:
				return &mcp.GetPromptResult{InputRequests: reqs, RequestState: state}, nil
			}
		}
		switch {
		case err == nil:
		case wire.IsArgumentError(err):
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		case reg.mask.Load():
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: wire.Mask(ctx, reg.logger(), "prompt", p.Name, err)}
		default:
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
		return promptResult(&res, rev), nil
	}
}

// promptResult maps a rendered prompt onto the SDK's type for revision
// rev, each message's content as [content] maps it. A message without a
// role is the user's.
func promptResult(r *mcprt.PromptResult, rev wire.Revision) *mcp.GetPromptResult {
	out := &mcp.GetPromptResult{Description: r.Description, Messages: make([]*mcp.PromptMessage, 0, len(r.Messages))}
	for i := range r.Messages {
		m := &r.Messages[i]
		role := m.Role
		if role == "" {
			role = mcprt.RoleUser
		}
		out.Messages = append(out.Messages, &mcp.PromptMessage{Role: mcp.Role(role), Content: content(&m.Content, rev)})
	}
	return out
}
