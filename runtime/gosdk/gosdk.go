// Package gosdk serves mcpgen tools, prompts and resources on the official
// Go SDK, github.com/modelcontextprotocol/go-sdk.
//
// Tools are registered with the SDK's low-level Server.AddTool: the schemas
// are the generator's, passed as raw JSON, and arguments are decoded by the
// generated decoders, so the SDK infers no schema and validates nothing a
// second time. An unknown tool is answered by the SDK as JSON-RPC error
// -32602.
//
// Prompts, resources and resource templates go on the SDK's own AddPrompt,
// AddResource and AddResourceTemplate ([AddPrompts], [AddResources]), and
// [ResourceUpdated] on its Server.ResourceUpdated, which keeps the table of
// subscribers. go-sdk takes a server's one completion handler and its
// subscription handlers only when the server is made, so [NewServer] sets
// them from the identity's switches, and the adapter keeps, per server,
// the prompts and templates added since, for completion requests to find
// their completer and for reads to try templates in the order added. A
// prompt argument error is -32602 with its text, any other failure of a
// prompt, a read or a completer -32603, and a panic is logged and answered
// the same way while the server keeps serving; a read that finds nothing
// is the SDK's "resource not found". Messages, contents and tool results
// are trimmed per revision here as the built-in server trims them.
//
// Lists are published per protocol revision, as on the built-in server: a
// receiving middleware, which the adapter adds to every server it serves
// on, lets the SDK find the page asked for (its cursors and page size
// stay) and writes that page from the descriptors the built-in server
// writes, serialized for each revision when they were added. A 2024-11-05
// client is sent no annotations, a 2025-03-26 client no top-level title
// and no output schema, and icons come with 2025-11-25; a hint is
// published only as written, and annotations.title with the title. Anything the caller added to the
// server through the SDK itself is listed as the SDK writes it. Middleware
// added after the adapter's sees list results of the adapter's types,
// which embed the SDK's (*mcp.ListToolsResult and the others) rather than
// being them.
//
// go-sdk has no tasks, so a tool annotated task=optional or task=required
// runs as an ordinary call, with or without the client's task param and
// whatever the identity enables; no task support (execution), tasks
// capability or tasks/* method is published (TestTaskToolsRunAsCalls).
//
// What differs from the built-in server (each is checked by
// TestDifferences, so that a change in the SDK shows):
//   - tools/list, prompts/list, resources/list and
//     resources/templates/list are sorted by name, URI and URI template,
//     not in the order added (the SDK's cursors are positions in that
//     order);
//   - read results carry ttlMs and cacheScope on every revision, not only
//     on 2026-07-28;
//   - "resource not found" is -32602 with data.uri on every revision, where
//     the built-in server answers -32002 before 2026-07-28 (go-sdk answers
//     -32002 on every revision under MCPGODEBUG=customresnotfounderrcode=1);
//   - a template is read only for a URI that go-sdk's RFC 6570 matcher
//     matches too: a {var} value holding more than unreserved characters
//     and percent escapes ("a:b", "a@b") is not found, where the built-in
//     server's {var} takes any text without '/', '?' or '#';
//   - an annotation priority of 0 is not published in content blocks (the
//     SDK's priority is a plain number, left out when zero);
//   - an empty text, read or embedded, is sent without its "text" member;
//   - a completion result leaves out total when it is 0 and hasMore when
//     it is false;
//   - the prompts and resources capabilities are published from the start,
//     whether there are any or not (go-sdk could otherwise publish them only
//     with listChanged), and completions on 2024-11-05 too;
//   - on 2026-07-28 the SDK publishes listChanged and subscribe and serves
//     subscriptions/listen, which the built-in server does not, and adds to
//     every result a _meta naming the server
//     (io.modelcontextprotocol/serverInfo), which the built-in server does
//     not send (the generator's end-to-end suite checks it);
//   - completion requests are answered only on a server made by NewServer
//     with EnableCompletions; on a server made by the caller they are the
//     SDK's -32601 (TestCompletionsNeedTheSwitch).
//
// Each call's context carries an [mcprt.Caller] on the request's session:
// progress (NotifyProgress), log messages (Log, at the level the client
// set), elicitation (Elicit) and sampling (CreateMessage), the last two only
// where the identity enables them and the client declared the capability.
// Prompts and resources reach it the same way. On a server made by
// NewServer, the identity says; on one made by the caller, everything the
// client declared is allowed.
//
// # Interceptors, telemetry and CORS
//
// go-sdk's own mechanism is middleware (Server.AddReceivingMiddleware and
// AddSendingMiddleware, a Middleware wrapping a MethodHandler). [Use] puts
// the built-in server's interceptors ([mcpserver.Interceptor]:
// mcpserver.RequestLog, mcpotel.New(...).Intercept) on it as one receiving
// middleware, so that both servers are watched alike. What they are told,
// compared with the built-in server:
//   - Method, Name, URI, Arguments, Meta and Params come from go-sdk's
//     typed params, marshalled again, which the built-in server does not
//     need to do;
//   - ID is nil: go-sdk's middleware does not tell the JSON-RPC id, so
//     spans carry no jsonrpc.request.id;
//   - Revision is the session's, or the MCP-Protocol-Version header of a
//     2026-07-28 request; SessionID is the session's over HTTP;
//     Transport is "http" over HTTP and empty otherwise, as go-sdk does not
//     tell stdio from its other transports;
//   - Outcome.Result is the result marshalled, IsError that of a
//     CallToolResult, Error a *jsonrpc.Error (any other error as -32603
//     with its text), Cancelled when the request's context ended;
//   - an interceptor answering without calling next can refuse (an
//     Outcome with Error); a result of its own is answered -32603, as
//     go-sdk wants results of its own types;
//   - a panic in an interceptor is logged on slog's default logger and
//     answered -32603;
//   - go-sdk tells no session's end, so there is no OnSessionEnd and no
//     mcp.server.session.duration.
//
// go-sdk's StreamableHTTPHandler sends no CORS headers: wrap it with
// [mcpserver.CORS.Handler], and, where its CrossOriginProtection is set,
// trust the same origins there (AddTrustedOrigin).
package gosdk

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// NewServer returns a go-sdk server described by id, with tools added.
// What go-sdk fixes when a server is made is set here from id's switches,
// so that prompts and resources added later with [AddPrompts] and
// [AddResources] complete and notify as id says: the capabilities, the
// completion handler (with EnableCompletions) and the subscription
// handlers (with EnableResourceSubscriptions).
func NewServer(id mcprt.Identity, tools ...mcprt.Tool) *mcp.Server {
	impl := &mcp.Implementation{Name: id.Name, Version: id.Version, Title: id.Title, WebsiteURL: id.WebsiteURL, Icons: icons(id.Icons)}
	reg := &registry{sw: switches{logging: id.EnableLogging, elicitation: id.EnableElicitation, sampling: id.EnableSampling}}
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
	addTools(s, reg, tools)
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
func AddTools(s *mcp.Server, tools ...mcprt.Tool) {
	addTools(s, registryOf(s), tools)
}

// addTools adds tools to s with the SDK's AddTool, and their descriptors
// per revision to reg, which lists them.
func addTools(s *mcp.Server, reg *registry, tools []mcprt.Tool) {
	for i := range tools {
		t := tools[i]
		t.TaskSupport = "" // go-sdk has no tasks: the tool is called as any other
		d := descriptor(&t)
		reg.lists.add(kindTools, t.Name, d, wire.NewDescriptors(&t, wire.AppendTool, 0))
		s.AddTool(d, handler(&t, reg.sw))
	}
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
// would turn into JSON-RPC errors the model does not see.
func handler(t *mcprt.Tool, sw switches) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		rev := revision(req.ProtocolVersion())
		c := &caller{ss: req.Session, sw: sw, token: req.Params.GetProgressToken(), rev: rev}
		res := wire.CallTool(mcprt.WithCaller(ctx, c), t, req.Params.Arguments)
		return result(&res, rev), nil
	}
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
