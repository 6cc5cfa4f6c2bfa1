package gosdk

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/mrtr"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// AddResources adds resources and resource templates to s: a resource
// with the SDK's AddResource, a template (a URI holding an expression,
// [wire.IsTemplate]) with its AddResourceTemplate. Read runs with a
// [mcprt.Caller] in its context. A second resource of one URI, or
// template of one URI template, panics and adds none, as [AddTools] says.
func AddResources(s *mcp.Server, resources ...mcprt.Resource) {
	reg := registryOf(s)
	added, err := reg.AddResources(resources)
	if err != nil {
		panic("gosdk: AddResources: " + err.Error())
	}
	for _, r := range added {
		if wire.IsTemplate(r.URI) {
			d := templateDescriptor(r)
			reg.lists.add(kindTemplates, r.URI, d, wire.NewDescriptors(r, wire.AppendResourceTemplate, 0))
			s.AddResourceTemplate(d, templateHandler(reg))
		} else {
			d := resourceDescriptor(r)
			reg.lists.add(kindResources, r.URI, d, wire.NewDescriptors(r, wire.AppendResource, 0))
			s.AddResource(d, resourceHandler(r, reg))
		}
	}
}

// ResourceUpdated tells the sessions subscribed to uri that the resource
// changed, with the SDK's own Server.ResourceUpdated, which keeps the
// table of subscribers: notifications/resources/updated goes to each
// session that subscribed with resources/subscribe, or on 2026-07-28 to
// each subscriptions/listen stream that asked for uri, and to no other.
// Only a server made by [NewServer] with EnableResourceSubscriptions takes
// subscriptions.
func ResourceUpdated(s *mcp.Server, uri string) {
	_ = s.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: uri}) // never fails
}

// resourceDescriptor maps a resource's descriptor onto the SDK's type, as
// the latest revision publishes it; clients are sent the adapter's
// descriptor for their revision (see lists.go).
func resourceDescriptor(r *mcprt.Resource) *mcp.Resource {
	return &mcp.Resource{
		URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType,
		Size:        max(r.Size, 0),
		Annotations: annotations(wire.AnnotationsIn(r.Annotations, wire.LatestRevision)),
		Icons:       icons(r.Icons),
	}
}

// templateDescriptor maps a template's descriptor onto the SDK's type.
func templateDescriptor(r *mcprt.Resource) *mcp.ResourceTemplate {
	return &mcp.ResourceTemplate{
		URITemplate: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType,
		Annotations: annotations(wire.AnnotationsIn(r.Annotations, wire.LatestRevision)),
		Icons:       icons(r.Icons),
	}
}

// resourceHandler reads the static resource r for the SDK.
func resourceHandler(r *mcprt.Resource, reg *registry) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return reg.read(ctx, req, func(ctx context.Context, uri string) ([]mcprt.ResourceContents, *mcprt.Resource, error) {
			contents, err := wire.ReadResource(ctx, reg.logger(), r, uri)
			return contents, r, err
		})
	}
}

// templateHandler reads a URI that the SDK matched to one of reg's
// templates. Every template of reg is tried, in the order added, as the
// built-in server tries them: the one the SDK matched may answer "not
// found" for a URI that a later one serves.
func templateHandler(reg *registry) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return reg.read(ctx, req, reg.ReadTemplate)
	}
}

// read answers req with what read reads, run with a [mcprt.Caller] on the
// request's session in its context. On 2026-07-28 the read may ask the
// client, as a tool does.
func (reg *registry) read(ctx context.Context, req *mcp.ReadResourceRequest, read func(context.Context, string) ([]mcprt.ResourceContents, *mcprt.Resource, error)) (*mcp.ReadResourceResult, error) {
	uri, rev := req.Params.URI, revision(req.ProtocolVersion())
	c := newCaller(req.Session, req, req.Params, reg.sw, rev)
	var rd *mrtr.Run
	if rev.Stateless() {
		var err error
		if rd, err = reg.startRound(ctx, c, "resources/read", uri, req.Params.RequestState, req.Params.InputResponses); err != nil {
			return nil, err
		}
	}
	contents, r, err := read(mcprt.WithCaller(ctx, c), uri)
	if rd != nil {
		if err != nil {
			rd.Ask.RequirePages(err)
		}
		switch reqs, state, rerr := endRound(rd, mrtr.CouldNotAsk(err)); {
		case rerr != nil:
			return nil, rerr
		case reqs != nil:
			return &mcp.ReadResourceResult{InputRequests: reqs, RequestState: state}, nil
		}
	}
	return readResult(ctx, reg, contents, err, uri, r, rev)
}

// readResult answers a read of uri from resource r: an error wrapping
// mcprt.ErrNotFound is the SDK's "resource not found", with the reason
// the error gives, if any, in its message and data.reason, as on the
// built-in server; any other an internal error with its text; contents
// without a URI or MIME type get uri and r's. As on the built-in server,
// the result is private to the client. When reg masks errors, the text of
// an internal error and a handler's own reason are masked.
func readResult(ctx context.Context, reg *registry, contents []mcprt.ResourceContents, err error, uri string, r *mcprt.Resource, rev wire.Revision) (*mcp.ReadResourceResult, error) {
	mask, log := reg.mask.Load(), reg.logger()
	switch {
	case errors.Is(err, mcprt.ErrNotFound) && mask:
		reason := wire.MaskReason(ctx, log, uri, err)
		if reason == wire.NotFoundReason(err) {
			wire.LogNotFound(ctx, log, uri, reason) // not masked: a variable's problem
		}
		return nil, notFound(uri, reason)
	case errors.Is(err, mcprt.ErrNotFound):
		reason := wire.NotFoundReason(err)
		wire.LogNotFound(ctx, log, uri, reason)
		return nil, notFound(uri, reason)
	case err != nil && mask:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: wire.Mask(ctx, log, "resource", r.URI, err)}
	case err != nil:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	out := &mcp.ReadResourceResult{Contents: make([]*mcp.ResourceContents, 0, len(contents))}
	out.CacheScope = "private" // a read may depend on who asks; not to be kept (ttlMs 0)
	for i := range contents {
		c, err := resourceContents(&contents[i], uri, r.MIMEType, rev)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
		out.Contents = append(out.Contents, c)
	}
	return out, nil
}

// notFound is the SDK's "resource not found" of uri, its code as the SDK
// chooses it, with reason, when there is one, added to its message and
// data.
func notFound(uri, reason string) error {
	err := mcp.ResourceNotFoundError(uri)
	var je *jsonrpc.Error
	if reason == "" || !errors.As(err, &je) {
		return err
	}
	data, _ := json.Marshal(struct {
		URI    string `json:"uri"`
		Reason string `json:"reason"`
	}{uri, reason})
	return &jsonrpc.Error{Code: je.Code, Message: je.Message + ": " + reason, Data: data}
}

// resourceContents maps one part of a read onto the SDK's type: the blob
// when there is one (the SDK sends it as base64), else the text; _meta
// only where rev has it.
func resourceContents(c *mcprt.ResourceContents, uri, mimeType string, rev wire.Revision) (*mcp.ResourceContents, error) {
	out := &mcp.ResourceContents{URI: cmp.Or(c.URI, uri), MIMEType: cmp.Or(c.MIMEType, mimeType), Text: c.Text}
	if c.Blob != nil {
		out.Text, out.Blob = "", c.Blob
	}
	if len(c.Meta) > 0 && rev.HasStructuredOutput() {
		if err := json.Unmarshal(c.Meta, &out.Meta); err != nil {
			return nil, fmt.Errorf("_meta of %s: %w", out.URI, err)
		}
	}
	return out, nil
}
