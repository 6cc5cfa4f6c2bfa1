package gosdk

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// switches are the identity's switches for what a handler may ask of the
// client.
type switches struct{ logging, elicitation, sampling bool }

// caller is the [mcprt.Caller] of one call on go-sdk: the request's
// session, the switches, the request's progress token and its revision.
type caller struct {
	ss    *mcp.ServerSession
	sw    switches
	token any
	rev   wire.Revision
}

var _ mcprt.Caller = (*caller)(nil)

// Progress implements [mcprt.Caller] with the session's NotifyProgress, when
// the request had a progress token.
func (c *caller) Progress(ctx context.Context, progress, total float64, message string) error {
	if c.token == nil || c.ss == nil {
		return nil
	}
	if err := wire.CheckProgress(progress, total); err != nil {
		return err
	}
	p := &mcp.ProgressNotificationParams{ProgressToken: c.token, Progress: progress, Message: message}
	if total > 0 {
		p.Total = total
	}
	return c.ss.NotifyProgress(ctx, p)
}

// Log implements [mcprt.Caller] with the session's Log, which sends only at
// or above the level the client set (nothing before it sets one).
func (c *caller) Log(ctx context.Context, level mcprt.LogLevel, logger string, data any) error {
	if err := wire.CheckLevel(level); err != nil {
		return err
	}
	if !c.sw.logging || c.ss == nil {
		return nil
	}
	js, err := wire.LogData(data)
	if err != nil {
		return err
	}
	return c.ss.Log(ctx, &mcp.LoggingMessageParams{Level: mcp.LoggingLevel(level), Logger: logger, Data: json.RawMessage(js)})
}

// Elicit implements [mcprt.Caller] with the session's Elicit.
func (c *caller) Elicit(ctx context.Context, message string, requestedSchema []byte) (mcprt.ElicitResult, error) {
	if err := c.canAsk("elicitation", c.sw.elicitation, func(cc *mcp.ClientCapabilities) bool { return cc.Elicitation != nil }); err != nil {
		return mcprt.ElicitResult{}, err
	}
	requestedSchema = wire.RequestedSchema(requestedSchema)
	res, err := c.ss.Elicit(ctx, &mcp.ElicitParams{Message: message, RequestedSchema: json.RawMessage(requestedSchema)})
	if err != nil {
		return mcprt.ElicitResult{}, fmt.Errorf("elicitation: %w", err)
	}
	out := mcprt.ElicitResult{Action: res.Action}
	if res.Content != nil {
		if out.Content, err = json.Marshal(res.Content); err != nil {
			return mcprt.ElicitResult{}, fmt.Errorf("elicitation content: %w", err)
		}
	}
	return out, nil
}

// ElicitURL implements [mcprt.Caller] with the session's Elicit in URL
// mode, on 2025-11-25 to a client that declared elicitation.url. The id
// is recorded for [ElicitationComplete].
func (c *caller) ElicitURL(ctx context.Context, message, url string) (mcprt.ElicitResult, string, error) {
	if err := c.canAsk("elicitation.url", c.sw.elicitation, urlDeclared); err != nil {
		return mcprt.ElicitResult{}, "", err
	}
	if c.rev < wire.Rev20251125 {
		return mcprt.ElicitResult{}, "", fmt.Errorf("elicitation.url needs protocol revision %s or later; the session uses %s", wire.Rev20251125, c.rev)
	}
	id := mcprt.NewElicitationID()
	elicitations.Add(id, c.ss)
	res, err := c.ss.Elicit(ctx, &mcp.ElicitParams{Mode: "url", Message: message, URL: url, ElicitationID: id})
	if err != nil {
		return mcprt.ElicitResult{}, id, fmt.Errorf("elicitation: %w", err)
	}
	return mcprt.ElicitResult{Action: res.Action}, id, nil
}

// urlDeclared reports whether the client declared URL elicitation.
func urlDeclared(cc *mcp.ClientCapabilities) bool {
	return cc.Elicitation != nil && cc.Elicitation.URL != nil
}

// Sample implements [mcprt.Caller] with the session's CreateMessage, or
// CreateMessageWithTools for a request with tools, which needs the client's
// sampling.tools capability.
func (c *caller) Sample(ctx context.Context, req mcprt.SampleRequest) (mcprt.SampleResult, error) {
	if wire.UsesTools(&req) {
		return c.sampleWithTools(ctx, &req)
	}
	if err := c.canAsk("sampling", c.sw.sampling, func(cc *mcp.ClientCapabilities) bool { return cc.Sampling != nil }); err != nil {
		return mcprt.SampleResult{}, err
	}
	p := &mcp.CreateMessageParams{MaxTokens: int64(req.MaxTokens), SystemPrompt: req.SystemPrompt, Messages: make([]*mcp.SamplingMessage, 0, len(req.Messages))}
	for i := range req.Messages {
		m := &req.Messages[i]
		p.Messages = append(p.Messages, &mcp.SamplingMessage{Role: mcp.Role(m.Role), Content: content(&m.Content, c.rev)})
	}
	var err error
	if p.ModelPreferences, err = modelPreferences(req.ModelPreferences); err != nil {
		return mcprt.SampleResult{}, err
	}
	res, err := c.ss.CreateMessage(ctx, p)
	if err != nil {
		return mcprt.SampleResult{}, fmt.Errorf("sampling: %w", err)
	}
	return mcprt.SampleResult{Role: string(res.Role), Content: fromContent(res.Content), Model: res.Model, StopReason: res.StopReason}, nil
}

// sampleWithTools is Sample for a request with tools, on 2025-11-25 to a
// client that declared sampling.tools.
func (c *caller) sampleWithTools(ctx context.Context, req *mcprt.SampleRequest) (mcprt.SampleResult, error) {
	if err := c.canAsk("sampling.tools", c.sw.sampling, func(cc *mcp.ClientCapabilities) bool { return cc.Sampling != nil && cc.Sampling.Tools != nil }); err != nil {
		return mcprt.SampleResult{}, err
	}
	if err := wire.CheckSample(req, c.rev); err != nil {
		return mcprt.SampleResult{}, err
	}
	p := &mcp.CreateMessageWithToolsParams{MaxTokens: int64(req.MaxTokens), SystemPrompt: req.SystemPrompt, Messages: make([]*mcp.SamplingMessageV2, 0, len(req.Messages))}
	for i := range req.Messages {
		p.Messages = append(p.Messages, &mcp.SamplingMessageV2{Role: mcp.Role(req.Messages[i].Role), Content: c.blocks(&req.Messages[i])})
	}
	for i := range req.Tools {
		t := &req.Tools[i]
		p.Tools = append(p.Tools, &mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: json.RawMessage(wire.SampleToolSchema(t))})
	}
	if req.ToolChoice != "" {
		p.ToolChoice = &mcp.ToolChoice{Mode: req.ToolChoice}
	}
	var err error
	if p.ModelPreferences, err = modelPreferences(req.ModelPreferences); err != nil {
		return mcprt.SampleResult{}, err
	}
	res, err := c.ss.CreateMessageWithTools(ctx, p)
	if err != nil {
		return mcprt.SampleResult{}, fmt.Errorf("sampling: %w", err)
	}
	out := mcprt.SampleResult{Role: string(res.Role), Model: res.Model, StopReason: res.StopReason}
	for _, b := range res.Content {
		if u, ok := b.(*mcp.ToolUseContent); ok {
			input, err := json.Marshal(u.Input)
			if err != nil {
				return mcprt.SampleResult{}, fmt.Errorf("tool use input: %w", err)
			}
			out.ToolUses = append(out.ToolUses, mcprt.ToolUse{ID: u.ID, Name: u.Name, Input: input})
		} else if out.Content.Type == "" {
			out.Content = fromContent(b)
		}
	}
	return out, nil
}

// blocks maps the content of a sampling message onto the SDK's blocks: its
// content, then its tool uses and tool results.
func (c *caller) blocks(m *mcprt.SampleMessage) []mcp.Content {
	out := make([]mcp.Content, 0, wire.SampleBlocks(m))
	if m.Content.Type != "" {
		out = append(out, content(&m.Content, c.rev))
	}
	for _, u := range m.ToolUses {
		var input map[string]any
		_ = json.Unmarshal(u.Input, &input) // an input that is no object is sent as {}
		out = append(out, &mcp.ToolUseContent{ID: u.ID, Name: u.Name, Input: input})
	}
	for _, r := range m.ToolResults {
		tr := &mcp.ToolResultContent{ToolUseID: r.ToolUseID, IsError: r.IsError, Content: make([]mcp.Content, 0, len(r.Content))}
		for i := range r.Content {
			tr.Content = append(tr.Content, content(&r.Content[i], c.rev))
		}
		out = append(out, tr)
	}
	return out
}

// modelPreferences reads the JSON of a request's model preferences; nil
// for none.
func modelPreferences(js []byte) (*mcp.ModelPreferences, error) {
	if len(js) == 0 {
		return nil, nil
	}
	p := new(mcp.ModelPreferences)
	if err := json.Unmarshal(js, p); err != nil {
		return nil, fmt.Errorf("model preferences: %w", err)
	}
	return p, nil
}

// ListRoots implements [mcprt.Caller] with the session's ListRoots.
func (c *caller) ListRoots(ctx context.Context) ([]mcprt.Root, error) {
	if err := c.canAsk("roots", true, func(cc *mcp.ClientCapabilities) bool { return cc.RootsV2 != nil || cc.Roots.ListChanged }); err != nil {
		return nil, err
	}
	res, err := c.ss.ListRoots(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("roots: %w", err)
	}
	roots := make([]mcprt.Root, 0, len(res.Roots))
	for _, r := range res.Roots {
		roots = append(roots, mcprt.Root{URI: r.URI, Name: r.Name})
	}
	return roots, nil
}

// fromContent maps a sampled content block back onto mcprt's type.
func fromContent(c mcp.Content) mcprt.Content {
	switch c := c.(type) {
	case *mcp.TextContent:
		return mcprt.Text(c.Text)
	case *mcp.ImageContent:
		return mcprt.Image(c.Data, c.MIMEType)
	case *mcp.AudioContent:
		return mcprt.Audio(c.Data, c.MIMEType)
	case nil:
		return mcprt.Content{}
	}
	js, _ := json.Marshal(c)
	return mcprt.Text(string(js))
}

// canAsk checks that a request of the given kind may go to the client: the
// identity enables it and the client declared the capability when it
// initialized the session.
func (c *caller) canAsk(kind string, enabled bool, declared func(*mcp.ClientCapabilities) bool) error {
	if !enabled {
		return wire.NotEnabled(kind)
	}
	if c.ss == nil {
		return fmt.Errorf("%s needs a session", kind)
	}
	ip := c.ss.InitializeParams()
	if ip == nil || ip.Capabilities == nil || !declared(ip.Capabilities) {
		return wire.NotDeclared(kind)
	}
	return nil
}
