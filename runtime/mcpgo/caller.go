package mcpgo

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// switches are the identity's switches for what a handler may ask of the
// client.
type switches struct{ logging, elicitation, sampling bool }

// caller is the [mcprt.Caller] of one call on mcp-go: the server, the
// switches and the request's progress token.
type caller struct {
	srv   *server.MCPServer
	sw    switches
	token mcp.ProgressToken
}

var _ mcprt.Caller = (*caller)(nil)

// Progress implements [mcprt.Caller]: a notifications/progress for the
// request's progress token, if it had one.
func (c *caller) Progress(ctx context.Context, progress, total float64, message string) error {
	if c.token == nil {
		return nil
	}
	if err := wire.CheckProgress(progress, total); err != nil {
		return err
	}
	p := map[string]any{"progressToken": c.token, "progress": progress}
	if total > 0 {
		p["total"] = total
	}
	if message != "" {
		p["message"] = message
	}
	return c.srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), p)
}

// Log implements [mcprt.Caller]: a notifications/message when logging is
// enabled and mcp-go finds level at or above the client's level.
func (c *caller) Log(ctx context.Context, level mcprt.LogLevel, logger string, data any) error {
	if err := wire.CheckLevel(level); err != nil {
		return err
	}
	if !c.sw.logging {
		return nil
	}
	js, err := wire.LogData(data)
	if err != nil {
		return err
	}
	n := mcp.NewLoggingMessageNotification(mcp.LoggingLevel(level), logger, json.RawMessage(js))
	if err := c.srv.SendLogMessageToClient(ctx, n); err != nil {
		return err
	}
	return nil
}

// Elicit implements [mcprt.Caller] with mcp-go's RequestElicitation.
func (c *caller) Elicit(ctx context.Context, message string, requestedSchema []byte) (mcprt.ElicitResult, error) {
	if err := canAsk(ctx, "elicitation", c.sw.elicitation, func(cc *mcp.ClientCapabilities) bool { return cc.Elicitation != nil }); err != nil {
		return mcprt.ElicitResult{}, err
	}
	requestedSchema = wire.RequestedSchema(requestedSchema)
	req := mcp.ElicitationRequest{
		Request: mcp.Request{Method: string(mcp.MethodElicitationCreate)},
		Params:  mcp.ElicitationParams{Message: message, RequestedSchema: json.RawMessage(requestedSchema)},
	}
	res, err := c.srv.RequestElicitation(ctx, req)
	if err != nil {
		return mcprt.ElicitResult{}, fmt.Errorf("elicitation: %w", err)
	}
	out := mcprt.ElicitResult{Action: string(res.Action)}
	if res.Content != nil {
		if out.Content, err = json.Marshal(res.Content); err != nil {
			return mcprt.ElicitResult{}, fmt.Errorf("elicitation content: %w", err)
		}
	}
	return out, nil
}

// ElicitURL implements [mcprt.Caller] with mcp-go's RequestURLElicitation,
// on 2025-11-25 to a client that declared elicitation.url. The id is
// recorded for [ElicitationComplete].
func (c *caller) ElicitURL(ctx context.Context, message, url string) (mcprt.ElicitResult, string, error) {
	if err := canAsk(ctx, "elicitation.url", c.sw.elicitation, urlDeclared); err != nil {
		return mcprt.ElicitResult{}, "", err
	}
	if rev := revision(ctx); rev < wire.Rev20251125 {
		return mcprt.ElicitResult{}, "", fmt.Errorf("elicitation.url needs protocol revision %s or later; the session uses %s", wire.Rev20251125, rev)
	}
	session := server.ClientSessionFromContext(ctx)
	id := mcprt.NewElicitationID()
	if session != nil {
		elicitations.Add(id, session)
	}
	res, err := c.srv.RequestURLElicitation(ctx, session, id, url, message)
	if err != nil {
		return mcprt.ElicitResult{}, id, fmt.Errorf("elicitation: %w", err)
	}
	return mcprt.ElicitResult{Action: string(res.Action)}, id, nil
}

// urlDeclared reports whether the client declared URL elicitation.
func urlDeclared(cc *mcp.ClientCapabilities) bool {
	return cc.Elicitation != nil && cc.Elicitation.URL != nil
}

// Sample implements [mcprt.Caller] with mcp-go's RequestSampling.
func (c *caller) Sample(ctx context.Context, req mcprt.SampleRequest) (mcprt.SampleResult, error) {
	kind, declared := "sampling", func(cc *mcp.ClientCapabilities) bool { return cc.Sampling != nil }
	if wire.UsesTools(&req) {
		kind, declared = "sampling.tools", func(cc *mcp.ClientCapabilities) bool { return cc.Sampling != nil && cc.Sampling.Tools != nil }
	}
	if err := canAsk(ctx, kind, c.sw.sampling, declared); err != nil {
		return mcprt.SampleResult{}, err
	}
	if err := wire.CheckSample(&req, revision(ctx)); err != nil {
		return mcprt.SampleResult{}, err
	}
	params, err := sampleParams(&req, revision(ctx))
	if err != nil {
		return mcprt.SampleResult{}, err
	}
	res, err := c.srv.RequestSampling(ctx, mcp.CreateMessageRequest{
		Request:             mcp.Request{Method: string(mcp.MethodSamplingCreateMessage)},
		CreateMessageParams: params,
	})
	if err != nil {
		return mcprt.SampleResult{}, fmt.Errorf("sampling: %w", err)
	}
	content, uses, err := sampledContent(res.Content)
	if err != nil {
		return mcprt.SampleResult{}, err
	}
	return mcprt.SampleResult{Role: string(res.Role), Content: content, ToolUses: uses, Model: res.Model, StopReason: res.StopReason}, nil
}

// ListRoots implements [mcprt.Caller] with mcp-go's RequestRoots.
func (c *caller) ListRoots(ctx context.Context) ([]mcprt.Root, error) {
	if err := canAsk(ctx, "roots", true, func(cc *mcp.ClientCapabilities) bool { return cc.Roots != nil }); err != nil {
		return nil, err
	}
	res, err := c.srv.RequestRoots(ctx, mcp.ListRootsRequest{Request: mcp.Request{Method: string(mcp.MethodListRoots)}})
	if err != nil {
		return nil, fmt.Errorf("roots: %w", err)
	}
	roots := make([]mcprt.Root, 0, len(res.Roots))
	for _, r := range res.Roots {
		roots = append(roots, mcprt.Root{URI: r.URI, Name: r.Name})
	}
	return roots, nil
}

func sampleParams(req *mcprt.SampleRequest, rev wire.Revision) (mcp.CreateMessageParams, error) {
	p := mcp.CreateMessageParams{MaxTokens: req.MaxTokens, SystemPrompt: req.SystemPrompt, Messages: make([]mcp.SamplingMessage, 0, len(req.Messages))}
	for i := range req.Messages {
		m := &req.Messages[i]
		var c any = content(&m.Content, rev)
		if wire.SampleBlocks(m) != 1 || m.Content.Type == "" {
			// Tool uses and results: written as the built-in server
			// writes them, which mcp-go sends as they are.
			c = json.RawMessage(wire.AppendSampleContent(nil, m, rev))
		}
		p.Messages = append(p.Messages, mcp.SamplingMessage{Role: mcp.Role(m.Role), Content: c})
	}
	for i := range req.Tools {
		t := &req.Tools[i]
		p.Tools = append(p.Tools, mcp.Tool{Name: t.Name, Description: t.Description, RawInputSchema: json.RawMessage(wire.SampleToolSchema(t))})
	}
	if req.ToolChoice != "" {
		p.ToolChoice = &mcp.ToolChoice{Mode: mcp.ToolChoiceMode(req.ToolChoice)}
	}
	if len(req.ModelPreferences) > 0 {
		p.ModelPreferences = new(mcp.ModelPreferences)
		if err := json.Unmarshal(req.ModelPreferences, p.ModelPreferences); err != nil {
			return p, fmt.Errorf("model preferences: %w", err)
		}
	}
	return p, nil
}

// sampledContent reads the content of a sampling result, which mcp-go holds
// as whichever Go value it decoded: the tools the model asked for and its
// first other block.
func sampledContent(v any) (mcprt.Content, []mcprt.ToolUse, error) {
	js, err := json.Marshal(v)
	if err != nil {
		return mcprt.Content{}, nil, fmt.Errorf("sampling content: %w", err)
	}
	c, uses, err := wire.ParseSampled(js)
	if err != nil {
		return c, nil, err
	}
	return c, uses, nil
}

// canAsk checks that a request of the given kind may go to the client: the
// server enables it and the client declared the capability, for this
// request (2026-07-28) or at initialization.
func canAsk(ctx context.Context, kind string, enabled bool, declared func(*mcp.ClientCapabilities) bool) error {
	if !enabled {
		return wire.NotEnabled(kind)
	}
	var caps *mcp.ClientCapabilities
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		caps = info.ClientCapabilities
	} else if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		cc := s.GetClientCapabilities()
		caps = &cc
	}
	if caps == nil || !declared(caps) {
		return wire.NotDeclared(kind)
	}
	return nil
}
