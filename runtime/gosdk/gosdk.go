// Package gosdk serves mcpgen tools, prompts and resources on the official
// Go SDK, github.com/modelcontextprotocol/go-sdk, for servers that already
// run it.
//
// Tools are registered with the SDK's low-level Server.AddTool. The schemas
// are the generator's, as raw JSON, and arguments are decoded by the
// generated decoders, so the SDK infers no schema and validates nothing a
// second time.
//
//	s := gosdk.NewServer(mcprt.Identity{Name: "shop", Version: "1.0.0"}, shop.MCPTools()...)
//	gosdk.AddResources(s, shop.MCPResources()...)
//	log.Fatal(s.Run(ctx, &mcp.StdioTransport{}))
//
// Every server the adapter serves on lists descriptors per protocol
// revision, as the built-in server does. A server made by [NewServer] also
// completes prompt arguments and template variables and takes resource
// subscriptions, as the identity enables them. go-sdk has no tasks, so a
// tool annotated task=optional or task=required runs as an ordinary call.
//
// Each handler's context carries an [mcprt.Caller] on the request's
// session: progress, log messages, elicitation, sampling and roots, and
// [mcprt.ClientInfo]. On 2026-07-28, where go-sdk sends the client no
// requests, a question is asked with go-sdk's input-required result, and
// the retry runs the handler again, as on the built-in server. [Use] puts the
// built-in server's interceptors (request logs, OpenTelemetry) on go-sdk,
// and [HTTPHandler] the built-in server's authorization in front of it.
//
// What differs from the built-in server is listed in docs/adapters.md at
// the module's root, each difference with the test that asserts it.
package gosdk

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/mrtr"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// NewServer returns a go-sdk server described by id, with tools added.
// Two tools of one name panic, as [AddTools] says.
// What go-sdk fixes when a server is made is set here from id's switches,
// so that prompts and resources added later with [AddPrompts] and
// [AddResources] complete and notify as id says: the capabilities, the
// completion handler (with EnableCompletions) and the subscription
// handlers (with EnableResourceSubscriptions).
func NewServer(id mcprt.Identity, tools ...mcprt.Tool) *mcp.Server {
	impl := &mcp.Implementation{Name: id.Name, Version: id.Version, Title: id.Title, WebsiteURL: id.WebsiteURL, Icons: icons(id.Icons)}
	reg := &registry{sw: switches{logging: id.EnableLogging, elicitation: id.EnableElicitation, sampling: id.EnableSampling}, pageSize: id.PageSize}
	opts := &mcp.ServerOptions{Instructions: id.Instructions, PageSize: id.PageSize, Capabilities: capabilities(&id)}
	if id.EnableCompletions {
		opts.CompletionHandler = reg.complete
	}
	if id.EnableResourceSubscriptions {
		// The SDK keeps the table of subscribers; any URI may be
		// subscribed to, as on the built-in server.
		opts.SubscribeHandler = func(context.Context, *mcp.SubscribeRequest) error { return nil }
		opts.UnsubscribeHandler = func(context.Context, *mcp.UnsubscribeRequest) error { return nil }
	}
	s := mcp.NewServer(impl, opts)
	keep(s, reg)
	addTools("NewServer", s, reg, tools)
	return s
}

// capabilities are the capabilities id publishes. go-sdk lets a server
// leave listChanged out only by setting a capability for its whole life,
// so tools, prompts and resources are published from the start, with
// listChanged and subscribe as id's switches say.
func capabilities(id *mcprt.Identity) *mcp.ServerCapabilities {
	c := &mcp.ServerCapabilities{
		Tools:     &mcp.ToolCapabilities{ListChanged: id.EnableToolNotifications},
		Prompts:   &mcp.PromptCapabilities{ListChanged: id.EnablePromptNotifications},
		Resources: &mcp.ResourceCapabilities{ListChanged: id.EnableResourceNotifications, Subscribe: id.EnableResourceSubscriptions},
	}
	if id.EnableLogging {
		c.Logging = &mcp.LoggingCapabilities{}
	}
	return c
}

// AddTools adds tools to s. Their handlers may log, elicit and sample as
// the identity of [NewServer] says; on a server built by the caller, which
// has no [mcprt.Identity], wherever the client declared the capability, as
// the SDK's own API allows.
//
// A tool of a name this package added to s already, or that two of tools
// share, panics, naming the functions of both, and none of tools is
// added. The SDK would replace the first without a word; two tools of one
// name are a programming error, as two handlers of one pattern are to
// net/http.ServeMux, and a panic needs no error for callers to check.
func AddTools(s *mcp.Server, tools ...mcprt.Tool) {
	addTools("AddTools", s, registryOf(s), tools)
}

// addTools adds tools to s with the SDK's AddTool, and their descriptors
// per revision to reg, which lists them. op names the function called,
// for a duplicate's panic.
func addTools(op string, s *mcp.Server, reg *registry, tools []mcprt.Tool) {
	if err := reg.AddTools(tools); err != nil {
		panic("gosdk: " + op + ": " + err.Error())
	}
	for i := range tools {
		t := tools[i]
		t.TaskSupport = "" // go-sdk has no tasks: the tool is called as any other
		t.Groups = nil     // nor a hook for groups/list: groups are not served
		d := descriptor(&t)
		reg.lists.add(kindTools, t.Name, d, wire.NewDescriptors(&t, wire.AppendTool, 0))
		s.AddTool(d, handler(&t, reg))
	}
	reg.search.Add(tools)
}

// descriptor maps a tool's descriptor onto the SDK's type, as the latest
// revision publishes it. The SDK reads the input schema from it (for
// x-mcp-header, on 2026-07-28); what clients are sent is the adapter's
// descriptor for their revision (see lists.go).
func descriptor(t *mcprt.Tool) *mcp.Tool {
	v := wire.ToolIn(t, wire.LatestRevision)
	d := &mcp.Tool{
		Name:        t.Name,
		Title:       v.Title,
		Description: t.Description,
		InputSchema: json.RawMessage(t.InputSchema),
		Icons:       icons(v.Icons),
	}
	if v.OutputSchema != nil {
		d.OutputSchema = json.RawMessage(v.OutputSchema)
	}
	if a := v.Annotations; a != nil {
		d.Annotations = &mcp.ToolAnnotations{
			Title:           a.Title,
			ReadOnlyHint:    a.Hints.ReadOnly != nil && *a.Hints.ReadOnly,
			DestructiveHint: a.Hints.Destructive,
			IdempotentHint:  a.Hints.Idempotent != nil && *a.Hints.Idempotent,
			OpenWorldHint:   a.Hints.OpenWorld,
		}
	}
	return d
}

func icons(ics []mcprt.Icon) []mcp.Icon {
	var out []mcp.Icon
	for _, ic := range ics {
		out = append(out, mcp.Icon{Source: ic.Src, MIMEType: ic.MIMEType, Sizes: ic.Sizes, Theme: mcp.IconTheme(ic.Theme)})
	}
	return out
}

// annotations maps annotations onto the SDK's type; nil for none. The
// SDK's priority is a plain number, left out when zero.
func annotations(a *mcprt.Annotations) *mcp.Annotations {
	if a == nil {
		return nil
	}
	out := &mcp.Annotations{LastModified: a.LastModified}
	for _, r := range a.Audience {
		out.Audience = append(out.Audience, mcp.Role(r))
	}
	if a.Priority != nil {
		out.Priority = *a.Priority
	}
	return out
}

// revision is the protocol revision a request was made on (go-sdk reads
// it from the request on 2026-07-28, else from the session); the latest
// when it is none that mcpgen serves.
func revision(v string) wire.Revision {
	if r := wire.Revision(v); r.Supported() {
		return r
	}
	return wire.LatestRevision
}

// handler runs a tool for the SDK with a [mcprt.Caller] on the request's
// session in its context. Argument problems, returned errors and panics all
// come back as results with IsError set, never as Go errors, which the SDK
// would turn into JSON-RPC errors the model does not see; the one exception
// is [mcprt.URLElicitationRequired], a protocol error (-32042) on
// 2025-11-25 to a client that declared elicitation.url. On 2026-07-28 a
// question without an answer makes the result an input-required one
// (see ask.go).
func handler(t *mcprt.Tool, reg *registry) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		rev := revision(req.ProtocolVersion())
		c := newCaller(req.Session, req, req.Params, reg.sw, rev)
		var rd *mrtr.Run
		if rev.Stateless() {
			var err error
			if rd, err = reg.startRound(ctx, c, "tools/call", req.Params.Name, req.Params.RequestState, req.Params.InputResponses); err != nil {
				return nil, err
			}
		}
		res, panicked := wire.CallToolChecked(mcprt.WithCaller(ctx, c), reg.logger(), t, req.Params.Arguments)
		if rd != nil {
			if res.IsError && res.Err != nil {
				rd.Ask.RequirePages(res.Err)
			}
			switch reqs, state, err := endRound(rd, res.IsError && mrtr.CouldNotAsk(res.Err)); {
			case err != nil:
				return nil, err
			case reqs != nil:
				return &mcp.CallToolResult{InputRequests: reqs, RequestState: state}, nil
			}
		}
		if err := urlElicitationError(&res, req.Session, reg.sw, rev); err != nil {
			return nil, err
		}
		if reg.mask.Load() {
			res = wire.MaskTool(ctx, reg.logger(), t.Name, res, panicked)
		}
		return result(&res, rev), nil
	}
}

// MaskErrors sets whether the handlers this package added to s, and adds
// later, keep their errors from the client, as mcpserver.Server.MaskErrors
// does: the error a tool's function returned, a panic, and an error of a
// prompt's Get, a Read or a completer reach the client as a generic
// message with a random correlation id, and are logged at Error with the
// real error and the same id, to the logger of [SetLogger]. A result the
// handler built with mcprt.Errorf or mcprt.ErrorResult goes through, and
// so do argument problems. It holds for a server made by [NewServer] and
// for one the caller made alike.
func MaskErrors(s *mcp.Server, mask bool) {
	registryOf(s).mask.Store(mask)
}

// SetLogger sets the logger of what this package logs for s: handlers'
// panics, masked errors, reads that found nothing, interceptors' panics
// and the refusals of [HTTPHandler]. Nil, the default, means slog's
// default logger. go-sdk's own logs go to its ServerOptions.Logger.
func SetLogger(s *mcp.Server, l *slog.Logger) {
	registryOf(s).log.Store(l)
}

// result maps a result onto the SDK's type for revision rev: structured
// content only where rev has it, wrapped where rev wraps the output schema,
// and content blocks as [content] maps them.
func result(r *mcprt.Result, rev wire.Revision) *mcp.CallToolResult {
	out := &mcp.CallToolResult{IsError: r.IsError, Content: make([]mcp.Content, 0, len(r.Content))}
	if len(r.StructuredContent) > 0 && rev.HasStructuredOutput() {
		out.StructuredContent = json.RawMessage(wire.AppendStructured(nil, r, rev))
	}
	for i := range r.Content {
		out.Content = append(out.Content, content(&r.Content[i], rev))
	}
	return out
}

// content maps one block onto the SDK's type for revision rev: a block rev
// lacks becomes the text [wire.StandIn] says, and annotations are those rev
// publishes. A single switch over the block types.
func content(c *mcprt.Content, rev wire.Revision) mcp.Content {
	if text, ok := wire.StandIn(c, rev); ok {
		return &mcp.TextContent{Text: text}
	}
	a := annotations(wire.AnnotationsIn(c.Annotations, rev))
	switch c.Type {
	case mcprt.TypeImage:
		return &mcp.ImageContent{Data: c.Data, MIMEType: c.MIMEType, Annotations: a}
	case mcprt.TypeAudio:
		return &mcp.AudioContent{Data: c.Data, MIMEType: c.MIMEType, Annotations: a}
	case mcprt.TypeResourceLink:
		return &mcp.ResourceLink{URI: c.URI, Name: c.Name, Description: c.Description, MIMEType: c.MIMEType, Annotations: a}
	case mcprt.TypeResource:
		rc := &mcp.ResourceContents{URI: c.URI, MIMEType: c.MIMEType, Text: c.Text}
		if c.Data != nil {
			rc.Text, rc.Blob = "", c.Data
		}
		return &mcp.EmbeddedResource{Resource: rc, Annotations: a}
	}
	return &mcp.TextContent{Text: c.Text, Annotations: a}
}
