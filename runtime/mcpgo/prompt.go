package mcpgo

import (
	"context"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/internal/mrtr"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// AddPrompts adds prompts to s with mcp-go's AddPrompts. Their
// completers answer completion requests on a server made by [NewServer]
// with EnableCompletions. Get runs with a [mcprt.Caller] in its context,
// as a tool does. A second prompt of one name panics and adds none, as
// [AddTools] says.
func AddPrompts(s *server.MCPServer, prompts ...mcprt.Prompt) {
	if len(prompts) == 0 {
		return // mcp-go would publish prompts and notify all the same
	}
	reg := registryOf(s)
	added, err := reg.AddPrompts(prompts)
	if err != nil {
		panic("mcpgo: AddPrompts: " + err.Error())
	}
	sp := make([]server.ServerPrompt, 0, len(prompts))
	for _, p := range added {
		reg.lists.prompts.add(p.Name, func(rev wire.Revision) mcp.Prompt { return promptDescriptor(p, rev) })
		sp = append(sp, server.ServerPrompt{Prompt: promptDescriptor(p, registeredRevision), Handler: promptHandler(s, p, reg)})
	}
	s.AddPrompts(sp...)
}

// promptDescriptor maps a prompt's descriptor as revision rev publishes
// it ([wire.PromptIn]) onto mcp-go's type.
func promptDescriptor(p *mcprt.Prompt, rev wire.Revision) mcp.Prompt {
	v := wire.PromptIn(p, rev)
	d := mcp.Prompt{Name: v.Name, Title: v.Title, Description: v.Description, Icons: icons(v.Icons)}
	for _, a := range v.Arguments {
		d.Arguments = append(d.Arguments, mcp.PromptArgument{Name: a.Name, Title: a.Title, Description: a.Description, Required: a.Required})
	}
	d.Meta = metaOf(wire.PromptMeta(p), rev)
	return d
}

// promptHandler renders p for mcp-go, which answers every error of a
// prompt handler as an internal error with its text: argument errors of
// generated code included, and a panic, which is logged. When reg masks
// errors, the text of any other is masked. On 2026-07-28 it may ask the
// client, as a tool does.
func promptHandler(s *server.MCPServer, p *mcprt.Prompt, reg *registry) server.PromptHandlerFunc {
	return func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		c := newCaller(ctx, s, reg.sw, req.Params.Meta)
		var rd *mrtr.Run
		if c.rev.Stateless() {
			var err error
			if rd, err = reg.startRound(ctx, c, "prompts/get", req.Params.Name, &req.Params.MultiRoundTripParams); err != nil {
				return nil, err
			}
		}
		res, err := wire.RenderPrompt(mcprt.WithCaller(ctx, c), reg.logger(), p, req.Params.Arguments)
		c.notes.flush(ctx)
		if rd != nil {
			if err != nil {
				rd.Ask.RequirePages(err)
			}
			switch reqs, state, rerr := endRound(rd); {
			case rerr != nil:
				return nil, rerr
			case reqs != nil:
				return &mcp.GetPromptResult{Result: mcp.Result{ResultType: mcp.ResultTypeInputRequired}, MultiRoundTripResult: mcp.MultiRoundTripResult{InputRequests: reqs, RequestState: state}}, nil
			}
		}
		switch {
		case err != nil && reg.mask.Load() && wire.Maskable(err):
			return nil, errors.New(wire.Mask(ctx, reg.logger(), "prompt", p.Name, err))
		case err != nil:
			return nil, err
		}
		return promptResult(&res, revision(ctx)), nil
	}
}

// promptResult maps a rendered prompt onto mcp-go's type for revision rev,
// each message's content as [content] maps it. A message without a role
// is the user's.
func promptResult(r *mcprt.PromptResult, rev wire.Revision) *mcp.GetPromptResult {
	out := &mcp.GetPromptResult{Description: r.Description, Messages: make([]mcp.PromptMessage, 0, len(r.Messages))}
	for i := range r.Messages {
		m := &r.Messages[i]
		role := m.Role
		if role == "" {
			role = mcprt.RoleUser
		}
		out.Messages = append(out.Messages, mcp.PromptMessage{Role: mcp.Role(role), Content: content(&m.Content, rev)})
	}
	return out
}
