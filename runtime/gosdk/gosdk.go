// Package gosdk serves mcpgen tools on the official Go SDK,
// github.com/modelcontextprotocol/go-sdk.
//
// Tools are registered with the SDK's low-level Server.AddTool: the schemas
// are the generator's, passed as raw JSON, and arguments are decoded by the
// generated decoders, so the SDK infers no schema and validates nothing a
// second time. An unknown tool is answered by the SDK as JSON-RPC error
// -32602.
//
// What the SDK's own types cannot carry differs from the built-in server:
// the SDK always publishes readOnlyHint and idempotentHint (false when not
// written), and its Tool has no execution member, so task support is not
// published.
//
// Each call's context carries an [mcprt.Caller] on the request's session:
// progress (NotifyProgress), log messages (Log, at the level the client
// set), elicitation (Elicit) and sampling (CreateMessage), the last two only
// where the identity enables them and the client declared the capability.
package gosdk

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// NewServer returns a go-sdk server described by id, with tools added.
func NewServer(id mcprt.Identity, tools ...mcprt.Tool) *mcp.Server {
	impl := &mcp.Implementation{Name: id.Name, Version: id.Version, Title: id.Title, WebsiteURL: id.WebsiteURL, Icons: icons(id.Icons)}
	opts := &mcp.ServerOptions{Instructions: id.Instructions, PageSize: id.PageSize}
	if !id.EnableToolNotifications {
		opts.Capabilities = &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: false}}
		if id.EnableLogging {
			opts.Capabilities.Logging = &mcp.LoggingCapabilities{}
		}
	}
	s := mcp.NewServer(impl, opts)
	addTools(s, switches{logging: id.EnableLogging, elicitation: id.EnableElicitation, sampling: id.EnableSampling}, tools)
	return s
}

// AddTools adds tools to s. On a server built by the caller there is no
// [mcprt.Identity]: handlers may log, elicit and sample wherever the client
// declared the capability, as the SDK's own API allows.
func AddTools(s *mcp.Server, tools ...mcprt.Tool) {
	addTools(s, switches{logging: true, elicitation: true, sampling: true}, tools)
}

func addTools(s *mcp.Server, sw switches, tools []mcprt.Tool) {
	for i := range tools {
		t := tools[i]
		s.AddTool(descriptor(&t), handler(&t, sw))
	}
}

// descriptor maps a tool's descriptor onto the SDK's type.
func descriptor(t *mcprt.Tool) *mcp.Tool {
	d := &mcp.Tool{
		Name:        t.Name,
		Title:       t.Title,
		Description: t.Description,
		InputSchema: json.RawMessage(t.InputSchema),
		Icons:       icons(t.Icons),
	}
	if len(t.OutputSchema) > 0 {
		// The SDK publishes one descriptor for every revision: the form
		// that is valid on all of them with structured output.
		d.OutputSchema = json.RawMessage(wire.AppendOutputSchema(nil, t, wire.Rev20251125))
	}
	if t.Title != "" || wire.HintsSet(t.Hints) {
		d.Annotations = &mcp.ToolAnnotations{
			Title:           t.Title,
			ReadOnlyHint:    deref(t.Hints.ReadOnly),
			DestructiveHint: t.Hints.Destructive,
			IdempotentHint:  deref(t.Hints.Idempotent),
			OpenWorldHint:   t.Hints.OpenWorld,
		}
	}
	return d
}

func deref(b *bool) bool { return b != nil && *b }

func icons(ics []mcprt.Icon) []mcp.Icon {
	var out []mcp.Icon
	for _, ic := range ics {
		out = append(out, mcp.Icon{Source: ic.Src, MIMEType: ic.MIMEType, Sizes: ic.Sizes, Theme: mcp.IconTheme(ic.Theme)})
	}
	return out
}

// handler runs a tool for the SDK with a [mcprt.Caller] on the request's
// session in its context. Argument problems, returned errors and panics all
// come back as results with IsError set, never as Go errors, which the SDK
// would turn into JSON-RPC errors the model does not see.
func handler(t *mcprt.Tool, sw switches) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		c := &caller{ss: req.Session, sw: sw, token: req.Params.GetProgressToken()}
		res := wire.CallTool(mcprt.WithCaller(ctx, c), t, req.Params.Arguments)
		return result(&res), nil
	}
}

// result maps a result onto the SDK's type.
func result(r *mcprt.Result) *mcp.CallToolResult {
	out := &mcp.CallToolResult{IsError: r.IsError, Content: make([]mcp.Content, 0, len(r.Content))}
	if len(r.StructuredContent) > 0 {
		out.StructuredContent = json.RawMessage(wire.AppendStructured(nil, r, wire.Rev20251125))
	}
	for i := range r.Content {
		out.Content = append(out.Content, content(&r.Content[i]))
	}
	return out
}

func content(c *mcprt.Content) mcp.Content {
	switch c.Type {
	case mcprt.TypeImage:
		return &mcp.ImageContent{Data: c.Data, MIMEType: c.MIMEType}
	case mcprt.TypeAudio:
		return &mcp.AudioContent{Data: c.Data, MIMEType: c.MIMEType}
	case mcprt.TypeResourceLink:
		return &mcp.ResourceLink{URI: c.URI, Name: c.Name, Description: c.Description, MIMEType: c.MIMEType}
	case mcprt.TypeResource:
		rc := &mcp.ResourceContents{URI: c.URI, MIMEType: c.MIMEType, Text: c.Text}
		if c.Data != nil {
			rc.Text, rc.Blob = "", c.Data
		}
		return &mcp.EmbeddedResource{Resource: rc}
	}
	return &mcp.TextContent{Text: c.Text}
}
