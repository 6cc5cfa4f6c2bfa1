package mcpgo

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/internal/mrtr"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// switches are the identity's switches for what a handler may ask of the
// client.
type switches struct{ logging, elicitation, sampling bool }

// caller is the [mcprt.Caller] of one call on mcp-go: the server, the
// switches, the request's progress token, what mcp-go knows of the
// request and its session, and on 2026-07-28 the asker of the handler's
// run.
type caller struct {
	srv     *server.MCPServer
	sw      switches
	token   mcp.ProgressToken
	info    *server.RequestProtocolInfo
	session server.ClientSession
	rev     wire.Revision
	ask     *mrtr.Asker
	// notes are the marks of the notifications the call queued, which
	// its result waits for (see notify.go).
	notes notes
}

// newCaller returns the caller of the request in ctx, whose _meta is meta.
func newCaller(ctx context.Context, s *server.MCPServer, sw switches, meta *mcp.Meta) *caller {
	c := &caller{srv: s, sw: sw, info: server.RequestProtocolInfoFromContext(ctx), session: server.ClientSessionFromContext(ctx), rev: revision(ctx)}
	if meta != nil {
		c.token = meta.ProgressToken
	}
	return c
}

// Client tells [mcprt.ClientInfo] the client of the call: as mcp-go reads
// it from the request's _meta on 2026-07-28, else from the session.
func (c *caller) Client() mcprt.Client {
	out := mcprt.Client{Revision: string(c.rev)}
	var info *mcp.Implementation
	var caps *mcp.ClientCapabilities
	if c.info != nil && c.info.Modern {
		info, caps = c.info.ClientInfo, c.info.ClientCapabilities
	} else if s, ok := c.session.(server.SessionWithClientInfo); ok {
		i, cc := s.GetClientInfo(), s.GetClientCapabilities()
		info, caps = &i, &cc
	}
	if c.session != nil && !c.rev.Stateless() {
		out.SessionID = c.session.SessionID()
	}
	if info != nil {
		out.Name, out.Version = info.Name, info.Version
	}
	if caps != nil {
		js, _ := json.Marshal(caps)
		out.Capabilities = wire.ClientCapabilities(js)
	}
	return out
}

// notHere is the error of a question on 2026-07-28 outside a tool call or
// a prompt, which alone may ask the client there on mcp-go.
func (c *caller) notHere(kind string) error {
	return wire.NotSupported("%s is not available here: on revision %s only tools and prompts may ask the client on mcp-go", kind, c.rev)
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
	js, err := json.Marshal(progress)
	if err != nil {
		return err
	}
	v, m := newMarked(js)
	p := map[string]any{"progressToken": c.token, "progress": v}
	if total > 0 {
		p["total"] = total
	}
	if message != "" {
		p["message"] = message
	}
	if err := c.srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), p); err != nil {
		return err
	}
	if writesLater(c.session) {
		c.notes.queued(m, overStdio(c.session))
	}
	return nil
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
	v, m := newMarked(js)
	n := mcp.NewLoggingMessageNotification(mcp.LoggingLevel(level), logger, v)
	if err := c.srv.SendLogMessageToClient(ctx, n); err != nil {
		return err
	}
	if writesLater(c.session) && c.sendsLog(mcp.LoggingLevel(level)) {
		c.notes.queued(m, overStdio(c.session))
	}
	return nil
}

// Elicit implements [mcprt.Caller] with mcp-go's RequestElicitation.
func (c *caller) Elicit(ctx context.Context, message string, requestedSchema []byte) (mcprt.ElicitResult, error) {
	if c.rev.Stateless() {
		if c.ask == nil {
			return mcprt.ElicitResult{}, c.notHere("elicitation")
		}
		return c.ask.Elicit(ctx, message, requestedSchema)
	}
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
	if c.rev.Stateless() {
		if c.ask == nil {
			return mcprt.ElicitResult{}, "", c.notHere("elicitation.url")
		}
		return c.ask.ElicitURL(ctx, message, url)
	}
	if err := canAsk(ctx, "elicitation.url", c.sw.elicitation, urlDeclared); err != nil {
		return mcprt.ElicitResult{}, "", err
	}
	if rev := revision(ctx); rev < wire.Rev20251125 {
		return mcprt.ElicitResult{}, "", wire.NotSupported("elicitation.url needs protocol revision %s or later; the session uses %s", wire.Rev20251125, rev)
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
	if c.rev.Stateless() {
		if c.ask == nil {
			return mcprt.SampleResult{}, c.notHere("sampling")
		}
		return c.ask.Sample(ctx, req)
	}
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
	if c.rev.Stateless() {
		if c.ask == nil {
			return nil, c.notHere("roots")
		}
		return c.ask.ListRoots(ctx)
	}
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
