// Package mcpgo serves mcpgen tools, prompts and resources on
// github.com/mark3labs/mcp-go.
//
// Tools are registered with their generator-made schemas as raw JSON
// (mcp.Tool's RawInputSchema and RawOutputSchema), so mcp-go infers no
// schema, and arguments are decoded by the generated decoders from the raw
// bytes of the request (CallToolParams.RawArguments), so nothing is
// marshalled again on the way in. Only a request that did not come from the
// wire (an in-process client that filled Arguments with Go values) has its
// arguments marshalled, once. Argument problems, handler errors and panics
// come back as results with isError set: a handler never returns a Go
// error, which mcp-go would send as a JSON-RPC error the model never sees
// (but for a task's panic, below). An unknown tool is answered by mcp-go
// as JSON-RPC error -32602.
//
// Tools annotated task=optional or task=required run as mcp-go's own
// tasks of 2025-11-25: [NewServer] with EnableTasks gives the server
// mcp-go's task capabilities and the tools execution.taskSupport (on a
// server the caller made, tools publish it whatever its capabilities), and
// mcp-go answers a call that carries the task param with a working task at
// once, runs the handler in the background, serves tasks/get, tasks/result
// (which waits for the end), tasks/list and tasks/cancel, and sends
// notifications/tasks/status when a task ends. The handler does not
// change: its context ends at the task's ttl and, on a server NewServer
// made, with tasks/cancel and with the end of the session, but not when
// the call is answered, as mcp-go would have it; [mcprt.Progress] reaches
// the client as notifications/progress; a panic fails the task with the
// built-in server's -32603. A task=required tool called without the task
// param is mcp-go's -32601 "tool 'name' requires task augmentation", the
// built-in server's code. What differs from the built-in server's tasks
// is listed below.
//
// Prompts, resources and resource templates go on mcp-go's own AddPrompts,
// AddResources and AddResourceTemplates ([AddPrompts], [AddResources]).
// mcp-go takes its completion providers and hooks only when a server is
// made, so [NewServer] sets them from the identity's switches, and the
// adapter keeps, per server, the prompts and templates added since, for
// completion requests to find their completer and for reads to try
// templates in the order added, and the sessions' subscriptions, which
// its hooks record for [ResourceUpdated]. A panic of a prompt, a read or a
// completer is logged and answered as an internal error, and the server
// keeps serving.
//
// Each call's context carries an [mcprt.Caller] built on mcp-go's session
// API: progress notifications, log messages, elicitation (URL mode with
// RequestURLElicitation) and sampling, with tools too. Prompts and
// resources reach it the same way. [ElicitationComplete] sends the
// completion of a URL elicitation with mcp-go's SendElicitationComplete.
//
// A server made by [NewServer] with a ui:// resource declares MCP Apps
// (io.modelcontextprotocol/ui) in the capabilities of initialize and
// server/discover, from its hooks; on a server the caller made, which has
// none, pass the extension to server.WithExtensions.
//
// A server made by [NewServer] lists tools, prompts, resources and
// templates per protocol revision, as the built-in server does: hooks that
// run after each list method put in mcp-go's page (its order and cursors
// stay) each descriptor the adapter added as the client's revision
// publishes it, mapped onto mcp-go's types from the built-in server's
// rules once, when it was added. A 2024-11-05 client is sent no
// annotations, a 2025-03-26 client no top-level title and no output
// schema, icons come with 2025-11-25 and task support (execution) with it
// alone. Results, prompt messages and read contents are trimmed per
// revision too, and a structured result is wrapped as the output schema
// its client was listed.
//
// What mcp-go's types and server cannot carry, compared with the built-in
// server (checked by TestDifferences):
//   - the annotations member is always published, as {} for a tool
//     without a title or hints, and for every tool on 2024-11-05, which
//     has no annotations: mcp-go's Tool writes it unconditionally; hints
//     themselves are published exactly as written;
//   - mcp-go takes hooks only when a server is made, so on a server the
//     caller made, descriptors are the same on every revision: the
//     2025-11-25 form, valid on every revision with structured output,
//     with structured results wrapped to match it;
//   - tools/list, prompts/list, resources/list and resources/templates/list
//     are sorted by name, not in the order added;
//   - a resource_link block always carries "description" and "mimeType",
//     empty when not set;
//   - before a client sets a log level, mcp-go's stdio session sends log
//     messages at error and above (the built-in server and go-sdk send
//     none), and a log message always carries "logger", empty when not set.
//
// For prompts, resources and completions (each is checked by
// TestDifferences, so that a change in mcp-go shows):
//   - mcp-go answers every error of a prompt handler as -32603: an argument
//     error of generated code too, with its text (the built-in server
//     answers -32602);
//   - it answers every error of a read handler as -32603 too: a resource
//     whose Read wraps mcprt.ErrNotFound, or a URI that the template mcp-go
//     matched it to and every other template refuse, is -32603 "resource
//     not found: URI" (sent as mcp-go's ErrResourceNotFound, which its error
//     hooks know); only a URI that matches no resource or template of
//     mcp-go's gets its own not found, -32002 before 2026-07-28 and -32602
//     from it, as the built-in server's codes, but without data.uri;
//   - a template is read only for a URI that mcp-go's RFC 6570 matcher
//     matches too: a {var} value holding more than unreserved characters
//     and percent escapes ("a:b", "a@b") is not found, where the built-in
//     server's {var} takes any text without '/', '?' or '#';
//   - a completion request naming an unknown prompt or resource is -32603
//     (mcp-go answers every error of a completion provider so; the
//     built-in server answers -32602), and a completion result leaves out
//     total when it is 0 and hasMore when it is false;
//   - the completions capability is published on 2024-11-05 too;
//   - completions are dispatched only on a server made by NewServer: on a
//     server made by the caller, mcp-go's default providers answer every
//     completion request with no values;
//   - on 2026-07-28 mcp-go adds to every result a _meta naming the server
//     (io.modelcontextprotocol/serverInfo), which the built-in server does
//     not send (the generator's end-to-end suite checks it);
//   - on 2026-07-28 mcp-go publishes listChanged and subscribe and serves
//     subscriptions/listen, which the built-in server does not; a listen
//     stream's resourceSubscriptions are acknowledged but kept only by a
//     session that implements SessionWithResourceSubscriptions, which
//     none of mcp-go's own do, so [ResourceUpdated] reaches only sessions
//     that subscribed with resources/subscribe, and only on a server made
//     by NewServer, whose hooks record them;
//   - adding resources and templates in one call to AddResources sends
//     notifications/resources/list_changed twice, one for each.
//
// For tasks (each is checked by TestTaskDifferences, in the subtest named
// in quotes):
//   - a result with isError completes the task, and tasks/result answers
//     it; 2025-11-25 and the built-in server fail the task and answer the
//     same result. mcp-go fails a task only for a handler's Go error, and
//     then drops the result, answering tasks/result with -32603 and the
//     error's text: the adapter keeps the result whole ("a tool error
//     completes the task");
//   - [mcprt.Progress] sets no status message, which mcp-go has no way to
//     set; it reaches the client only as notifications/progress, where the
//     call carried a progress token ("progress sets no status message");
//   - a question (Elicit, Sample, ListRoots) leaves the task working, not
//     input_required, and goes to the client as an ordinary request not
//     tagged with the task ("a question leaves the task working"); over
//     Streamable HTTP it goes only to the session's standalone stream, so
//     a client without one is never asked, not even through tasks/result,
//     and the handler waits until the task is cancelled or expires ("a
//     question waits without a standalone stream");
//   - the ttl is the client's, unbounded; a task without one has a null
//     ttl, no pollInterval, and is kept for ever (the built-in server
//     bounds the ttl by its TaskTTL, an hour by default) ("the ttl is the
//     client's");
//   - tasks are not bounded in number (the built-in server keeps 100 a
//     session and 10,000 in all) ("tasks are not bounded");
//   - tasks/list is ordered by task id, not by creation ("tasks/list is
//     ordered by task id");
//   - notifications/tasks/status goes to every session, not only the
//     task's, and only when a task ends ("status notifications go to every
//     session");
//   - tasks/result of a cancelled task answers a result with no content,
//     only its related-task _meta; the built-in server answers -32603 ("a
//     cancelled task's result is empty");
//   - a failed task's statusMessage is its error's text ("a failed task's
//     status message is its error");
//   - a call with the task param of a tool without task support runs as
//     an ordinary call; the built-in server answers -32601 ("a tool without
//     task support called with task runs as a call");
//   - the tasks capability is published on every revision, where the
//     built-in server publishes it only on 2025-11-25 ("the tasks
//     capability on every revision");
//   - there is no io.modelcontextprotocol/tasks extension on 2026-07-28:
//     mcp-go runs a 2026-07-28 call that carries the task param as a task
//     of 2025-11-25, and answers a task=required tool called without it
//     -32601 whatever the client declared, where the built-in server makes
//     tasks itself for clients that declare the extension and answers
//     others -32021 ("no tasks extension on 2026-07-28");
//   - on 2026-07-28 the adapter asks the client nothing, in URL mode as in
//     form mode: mcp-go refuses the request, and a handler's
//     [mcprt.URLElicitationRequired] is a failed result, where the
//     built-in server answers with input-required results
//     (TestURLElicitationOn2026, not a subtest);
//   - a handler's question (Elicit, Sample) goes to the client as an
//     ordinary request even where the client declares task-augmented
//     sampling or elicitation, since the adapter asks through mcp-go's
//     RequestSampling and RequestElicitation, which send no task param;
//     the built-in server sends it as a task and polls it (not asserted);
//   - on a server the caller made, the adapter has no hooks (mcp-go takes
//     them only when a server is made), so tasks/cancel marks a task
//     cancelled but its handler's context ends only at the task's ttl, and
//     never without one ("tasks/cancel does not reach the handler on a
//     server the caller made");
//   - without EnableTasks, NewServer publishes no execution.taskSupport,
//     which the built-in server publishes on 2025-11-25 all the same: mcp-go
//     would run calls as tasks that it could not then serve ("no task
//     support without EnableTasks");
//   - not asserted, being a race: over Streamable HTTP, mcp-go drops a
//     notification or a request to the client that a request of the same
//     session takes from the session's queue as that request ends, so what
//     a task sends while another request of its session (its own call
//     included) is being answered may be lost.
//
// # Interceptors, telemetry and CORS
//
// mcp-go's mechanisms are its Hooks (before and after each method, on
// error, on a session's registration and end) and its middleware (Use
// and WithToolHandlerMiddleware for tool calls, and the like for
// resources and prompts). The built-in server's interceptors
// (mcpserver.Interceptor) are not put on them: hooks are given only when
// a server is made, [NewServer] fills them with the adapter's own, and a
// before and an after hook cannot carry a context from one to the other or
// refuse a request; the middleware sees tool calls and nothing else. The
// mapping, for code written against mcp-go: an interceptor's work before
// next is a BeforeAny hook, its refusal a tool middleware's error result,
// its outcome OnSuccess and OnError, and OnSessionEnd OnUnregisterSession.
// For traces, mcp-go has WithTracer and its own otel module, which name
// spans and attributes in their own way ("mcp.<method>", "mcp.method"),
// not as the OpenTelemetry MCP conventions do, and measure nothing; the
// conventions' spans and metrics are those of package mcpotel on the
// built-in server and, through gosdk.Use, on go-sdk.
//
// For CORS, mcp-go's StreamableHTTPServer takes WithStreamableHTTPCORS
// (WithCORSAllowedOrigins and the rest); mcpserver.CORS.Handler in front
// of it does the same with the built-in server's rules.
// Authorization: [HTTPHandler] with a [mcpserver.Auth] puts mcpgen's gate
// in front of mcp-go, which has none of its own, so the token, the 401
// and 403 challenges, the scopes of each tool, prompt and resource this
// package added, and sessions bound to the token's principal are as on
// the built-in server (TestAuthorization runs the same scenario on both).
// The token reaches handlers through the request's context, which
// mcp-go's handlers derive theirs from, so no WithHTTPContextFunc is
// taken from the caller. What differs:
//   - 2026-07-28 lists keep cacheScope "public", as NewServer set it when
//     it made the server, where the built-in server with Auth says
//     "private" (TestAuthListsPublic);
//   - the metadata's default scopes_supported is sorted, not in the
//     order added;
//   - a tool added to the server through mcp-go itself declares no scope;
//   - there is no 2026-07-28 request state to bind to the principal, as
//     the adapter asks no questions on that revision.
package mcpgo

import (
	"context"
	"encoding/base64"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

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
// public, reads private, as on the built-in server).
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
	addTools(s, reg, tools)
	return s
}

// AddTools adds tools to s. Their handlers may log, elicit and sample as
// the identity of [NewServer] says; on a server built by the caller, which
// has no [mcprt.Identity], wherever the client declared the capability, as
// mcp-go's own API allows.
func AddTools(s *server.MCPServer, tools ...mcprt.Tool) {
	addTools(s, registryOf(s), tools)
}

// addTools adds tools to s with mcp-go's AddTools, and their descriptors
// per revision to reg, whose hooks list them.
func addTools(s *server.MCPServer, reg *registry, tools []mcprt.Tool) {
	st := make([]server.ServerTool, len(tools))
	for i := range tools {
		t := &tools[i]
		reg.lists.tools.add(t.Name, func(rev wire.Revision) mcp.Tool { return descriptor(t, rev, reg.taskTools) })
		d := descriptor(t, registeredRevision, reg.taskTools)
		st[i] = server.ServerTool{Tool: d, Handler: handler(s, reg, *t, d.Execution != nil)}
		if d.Execution != nil {
			reg.tasks.added(t.Name)
		}
	}
	s.AddTools(st...)
	reg.AddToolScopes(tools)
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
		c := &caller{srv: s, sw: reg.sw}
		if req.Params.Meta != nil {
			c.token = req.Params.Meta.ProgressToken
		}
		ctx = mcprt.WithCaller(ctx, c)
		if runsAsTask(taskSupport, &req) {
			return reg.tasks.runTask(ctx, &req, &t, args, reg.listRevision(rev))
		}
		res := wire.CallTool(ctx, &t, args)
		if err := urlElicitationError(ctx, &res, reg.sw, rev); err != nil {
			return nil, err
		}
		return result(res, rev, reg.listRevision(rev)), nil
	}
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
