// Package mcpgo serves mcpgen tools, prompts and resources on
// github.com/mark3labs/mcp-go, for servers that already run it.
//
// Tools keep the generator's schemas, as raw JSON, and are decoded by the
// generated decoders from the request's raw bytes. Argument problems,
// handler errors and panics come back as results with isError set.
//
//	s := mcpgo.NewServer(mcprt.Identity{Name: "shop", Version: "1.0.0"}, shop.MCPTools()...)
//	mcpgo.AddPrompts(s, shop.MCPPrompts()...)
//	log.Fatal(server.ServeStdio(s))
//
// A server made by [NewServer] lists descriptors per protocol revision, as
// the built-in server does, completes prompt arguments and template
// variables, keeps resource subscriptions, and runs tools annotated
// task=optional or task=required as mcp-go's tasks when the identity
// enables them. [AddTools], [AddPrompts] and [AddResources] also work on a
// server the caller made: mcp-go takes hooks only when a server is made,
// so such a server lists one form on every revision and completes nothing.
//
// Each handler's context carries an [mcprt.Caller] on mcp-go's session:
// progress, log messages, elicitation, sampling and roots, and
// [mcprt.ClientInfo]. On 2026-07-28, where mcp-go sends the client no
// requests, a tool or a prompt asks with mcp-go's input-required result,
// and the retry runs the handler again, as on the built-in server. A
// call's log messages are written before its result. [HTTPHandler] puts the
// built-in server's authorization in front of mcp-go's Streamable HTTP.
//
// What mcp-go cannot carry, compared with the built-in server, is listed in
// docs/adapters.md at the module's root, each difference with the test
// that asserts it.
package mcpgo

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/internal/mrtr"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// NewServer returns an mcp-go server described by id, with tools added.
// Handlers may log, elicit and sample only where id enables it. What
// mcp-go fixes when a server is made is set here from id's switches, so
// that prompts and resources added later with [AddPrompts] and
// [AddResources] complete and notify as id says: the capabilities, the
// completion providers, the hooks that keep resource subscriptions for
// [ResourceUpdated] and that let tasks/cancel and the end of a session
// reach the handlers of tasks, and the caching hints of 2026-07-28 (lists
// public, reads private, as on the built-in server). Two tools of one
// name panic, as [AddTools] says.
func NewServer(id mcprt.Identity, tools ...mcprt.Tool) *server.MCPServer {
	reg := &registry{sw: switches{logging: id.EnableLogging, elicitation: id.EnableElicitation, sampling: id.EnableSampling}, taskTools: id.EnableTasks, perRevision: true}
	opts := []server.ServerOption{
		server.WithToolCapabilities(id.EnableToolNotifications),
		server.WithPromptCompletionProvider(reg),
		server.WithResourceCompletionProvider(reg),
		server.WithHooks(reg.hooks()),
		server.WithCacheHints(0, mcp.CacheScopePublic),
		server.WithMethodCacheHints(mcp.MethodResourcesRead, 0, mcp.CacheScopePrivate),
	}
	add := func(on bool, o server.ServerOption) {
		if on {
			opts = append(opts, o)
		}
	}
	add(id.Title != "", server.WithTitle(id.Title))
	add(id.Description != "", server.WithDescription(id.Description))
	add(id.WebsiteURL != "", server.WithWebsiteURL(id.WebsiteURL))
	add(len(id.Icons) > 0, server.WithIcons(icons(id.Icons)...))
	add(id.Instructions != "", server.WithInstructions(id.Instructions))
	add(id.PageSize > 0, server.WithPaginationLimit(id.PageSize))
	add(id.EnableLogging, server.WithLogging())
	add(id.EnableCompletions, server.WithCompletions())
	add(id.EnableTasks, server.WithTaskCapabilities(true, true, true))
	add(id.EnablePromptNotifications, server.WithPromptCapabilities(true))
	add(id.EnableResourceNotifications || id.EnableResourceSubscriptions,
		server.WithResourceCapabilities(id.EnableResourceSubscriptions, id.EnableResourceNotifications))
	s := server.NewMCPServer(id.Name, id.Version, opts...)
	keep(s, reg)
	addTools("NewServer", s, reg, tools)
	return s
}

// AddTools adds tools to s. Their handlers may log, elicit and sample as
// the identity of [NewServer] says; on a server built by the caller, which
// has no [mcprt.Identity], wherever the client declared the capability, as
// mcp-go's own API allows.
//
// A tool of a name this package added to s already, or that two of tools
// share, panics, naming the functions of both, and none of tools is
// added. mcp-go would replace the first without a word; two tools of one
// name are a programming error, as two handlers of one pattern are to
// net/http.ServeMux, and a panic needs no error for callers to check.
func AddTools(s *server.MCPServer, tools ...mcprt.Tool) {
	addTools("AddTools", s, registryOf(s), tools)
}

// addTools adds tools to s with mcp-go's AddTools, and their descriptors
// per revision to reg, whose hooks list them. op names the function
// called, for a duplicate's panic.
func addTools(op string, s *server.MCPServer, reg *registry, tools []mcprt.Tool) {
	if err := reg.AddTools(tools); err != nil {
		panic("mcpgo: " + op + ": " + err.Error())
	}
	st := make([]server.ServerTool, len(tools))
	tools = slices.Clone(tools)
	for i := range tools {
		t := &tools[i]
		t.Groups = nil // mcp-go has no hook for groups/list: groups are not served
		reg.lists.tools.add(t.Name, func(rev wire.Revision) mcp.Tool { return descriptor(t, rev, reg.taskTools) })
		d := descriptor(t, registeredRevision, reg.taskTools)
		st[i] = server.ServerTool{Tool: d, Handler: handler(s, reg, *t, d.Execution != nil)}
		if d.Execution != nil {
			reg.tasks.added(t.Name)
		}
	}
	s.AddTools(st...)
	reg.search.Add(tools)
}

// descriptor maps a tool's descriptor as revision rev publishes it onto
// mcp-go's type, with the schemas as the generator serialized them. All
// revisions share the input schema's bytes, by which a listed tool is
// known to be the adapter's. mcp-go writes the annotations member always,
// as {} when there is nothing in it. Task support is published only where
// tasks says, since mcp-go runs a call as a task wherever the registered
// descriptor has it.
func descriptor(t *mcprt.Tool, rev wire.Revision, tasks bool) mcp.Tool {
	v := wire.ToolIn(t, rev)
	d := mcp.NewToolWithRawSchema(t.Name, t.Description, json.RawMessage(t.InputSchema))
	d.Title = v.Title
	if v.OutputSchema != nil {
		d.RawOutputSchema = json.RawMessage(v.OutputSchema)
	}
	if a := v.Annotations; a != nil {
		d.Annotations = mcp.ToolAnnotation{
			Title:           a.Title,
			ReadOnlyHint:    a.Hints.ReadOnly,
			DestructiveHint: a.Hints.Destructive,
			IdempotentHint:  a.Hints.Idempotent,
			OpenWorldHint:   a.Hints.OpenWorld,
		}
	}
	d.Icons = icons(v.Icons)
	if tasks && v.TaskSupport != "" {
		d.Execution = &mcp.ToolExecution{TaskSupport: mcp.TaskSupport(v.TaskSupport)}
	}
	d.Meta = metaOf(wire.ToolMeta(t), rev)
	return d
}

// metaOf maps a descriptor's _meta onto mcp-go's type, where revision rev
// publishes it (2025-06-18 on); nil for none.
func metaOf(js []byte, rev wire.Revision) *mcp.Meta {
	if len(js) == 0 || !rev.HasStructuredOutput() {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(js, &m) != nil {
		return nil
	}
	return mcp.NewMetaFromMap(m)
}

func icons(ics []mcprt.Icon) []mcp.Icon {
	var out []mcp.Icon
	for _, ic := range ics {
		out = append(out, mcp.Icon{Src: ic.Src, MIMEType: ic.MIMEType, Sizes: ic.Sizes, Theme: mcp.IconTheme(ic.Theme)})
	}
	return out
}

// handler runs a tool for mcp-go with a [mcprt.Caller] in its context; as
// a task where mcp-go runs the call as one (taskSupport says the
// descriptor publishes task support). It returns a Go error only for a
// task whose handler panicked, which mcp-go then marks failed, and for
// [mcprt.URLElicitationRequired] on 2025-11-25 to a client that declared
// elicitation.url, which mcp-go answers as -32042.
func handler(s *server.MCPServer, reg *registry, t mcprt.Tool, taskSupport bool) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		rev := revision(ctx)
		args, err := rawArguments(&req)
		if err != nil {
			return result(mcprt.ErrorResult(err), rev, rev), nil
		}
		c := newCaller(ctx, s, reg.sw, req.Params.Meta)
		if runsAsTask(taskSupport, &req) {
			return reg.tasks.runTask(mcprt.WithCaller(ctx, c), &req, &t, args, reg.listRevision(rev), reg.mask.Load(), reg.logger())
		}
		var rd *mrtr.Run
		if rev.Stateless() {
			if rd, err = reg.startRound(ctx, c, "tools/call", req.Params.Name, &req.Params.MultiRoundTripParams); err != nil {
				return nil, err
			}
		}
		res, panicked := wire.CallToolChecked(mcprt.WithCaller(ctx, c), reg.logger(), &t, args)
		c.notes.flush(ctx)
		if rd != nil {
			if res.IsError && res.Err != nil {
				rd.Ask.RequirePages(res.Err)
			}
			switch reqs, state, err := endRound(rd); {
			case err != nil:
				return nil, err
			case reqs != nil:
				return &mcp.CallToolResult{Result: mcp.Result{ResultType: mcp.ResultTypeInputRequired}, MultiRoundTripResult: mcp.MultiRoundTripResult{InputRequests: reqs, RequestState: state}}, nil
			}
		}
		if err := urlElicitationError(ctx, &res, reg.sw, rev); err != nil {
			return nil, err
		}
		if reg.mask.Load() {
			res = wire.MaskTool(ctx, reg.logger(), t.Name, res, panicked)
		}
		return result(res, rev, reg.listRevision(rev)), nil
	}
}

// MaskErrors sets whether the handlers this package added to s, and adds
// later, keep their errors from the client, as mcpserver.Server.MaskErrors
// does: the error a tool's function returned, a panic, and an error of a
// prompt's Get, a Read or a completer reach the client as a generic
// message with a random correlation id, and are logged at Error with the
// real error and the same id, to the logger of [SetLogger]. A result the
// handler built with mcprt.Errorf or mcprt.ErrorResult goes through, and
// so do argument problems (which mcp-go answers -32603). It holds for a
// server made by [NewServer] and for one the caller made alike, tasks
// included.
func MaskErrors(s *server.MCPServer, mask bool) {
	registryOf(s).mask.Store(mask)
}

// SetLogger sets the logger of what this package logs for s: handlers'
// panics, masked errors, reads that found nothing and the refusals of
// [HTTPHandler]. Nil, the default, means slog's default logger. mcp-go's
// own logs go where its server options send them.
func SetLogger(s *server.MCPServer, l *slog.Logger) {
	registryOf(s).log.Store(l)
}

// rawArguments returns the arguments as the client sent them; nil when
// there were none. Arguments that mcp-go holds only as Go values (from an
// in-process client) are marshalled once.
func rawArguments(req *mcp.CallToolRequest) ([]byte, error) {
	raw := []byte(req.Params.RawArguments)
	if len(raw) == 0 && req.Params.Arguments != nil {
		var err error
		if raw, err = json.Marshal(req.Params.Arguments); err != nil {
			return nil, err
		}
	}
	if string(raw) == "null" {
		return nil, nil
	}
	return raw, nil
}

// revision is the protocol revision of the request in ctx; the latest when
// mcp-go does not know it (a request sent without a session).
func revision(ctx context.Context) wire.Revision {
	if r := wire.Revision(server.RequestProtocolVersion(ctx)); r.Supported() {
		return r
	}
	return wire.LatestRevision
}

// result maps a result onto mcp-go's type for revision rev: structured
// content only where rev has it, wrapped as the output schema of revision
// listed (the one the client was listed) wraps it, and blocks rev lacks
// converted as [wire.AppendContent] converts them.
func result(r mcprt.Result, rev, listed wire.Revision) *mcp.CallToolResult {
	out := &mcp.CallToolResult{IsError: r.IsError, Content: make([]mcp.Content, 0, len(r.Content))}
	if len(r.StructuredContent) > 0 && rev.HasStructuredOutput() {
		out.RawStructuredContent = json.RawMessage(wire.AppendStructured(nil, &r, listed))
		out.StructuredContent = out.RawStructuredContent
	}
	for i := range r.Content {
		out.Content = append(out.Content, content(&r.Content[i], rev))
	}
	return out
}

// content maps one block for revision rev: a block rev lacks becomes the
// text [wire.StandIn] says, and annotations are those rev publishes. A
// single switch over the block types.
func content(c *mcprt.Content, rev wire.Revision) mcp.Content {
	if text, ok := wire.StandIn(c, rev); ok {
		return mcp.TextContent{Type: "text", Text: text}
	}
	a := mcp.Annotated{Annotations: annotations(wire.AnnotationsIn(c.Annotations, rev))}
	switch {
	case c.Type == mcprt.TypeImage:
		return mcp.ImageContent{Annotated: a, Type: "image", Data: base64.StdEncoding.EncodeToString(c.Data), MIMEType: c.MIMEType}
	case c.Type == mcprt.TypeAudio:
		return mcp.AudioContent{Annotated: a, Type: "audio", Data: base64.StdEncoding.EncodeToString(c.Data), MIMEType: c.MIMEType}
	case c.Type == mcprt.TypeResourceLink:
		return mcp.ResourceLink{Annotated: a, Type: "resource_link", URI: c.URI, Name: c.Name, Description: c.Description, MIMEType: c.MIMEType}
	case c.Type == mcprt.TypeResource && c.Data != nil:
		blob := mcp.BlobResourceContents{URI: c.URI, MIMEType: c.MIMEType, Blob: base64.StdEncoding.EncodeToString(c.Data)}
		return mcp.EmbeddedResource{Annotated: a, Type: "resource", Resource: blob}
	case c.Type == mcprt.TypeResource:
		return mcp.EmbeddedResource{Annotated: a, Type: "resource", Resource: mcp.TextResourceContents{URI: c.URI, MIMEType: c.MIMEType, Text: c.Text}}
	}
	return mcp.TextContent{Annotated: a, Type: "text", Text: c.Text}
}

// annotations maps annotations onto mcp-go's type; nil for none.
func annotations(a *mcprt.Annotations) *mcp.Annotations {
	if a == nil {
		return nil
	}
	out := &mcp.Annotations{Priority: a.Priority, LastModified: a.LastModified}
	for _, r := range a.Audience {
		out.Audience = append(out.Audience, mcp.Role(r))
	}
	return out
}
