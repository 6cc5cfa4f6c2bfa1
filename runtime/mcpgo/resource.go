package mcpgo

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// AddResources adds resources and resource templates to s: resources
// with mcp-go's AddResources, templates (a URI holding an expression,
// [wire.IsTemplate]) with its AddResourceTemplates. Read runs with a
// [mcprt.Caller] in its context. A second resource of one URI, or
// template of one URI template, panics and adds none, as [AddTools] says.
func AddResources(s *server.MCPServer, resources ...mcprt.Resource) {
	reg := registryOf(s)
	added, err := reg.AddResources(resources)
	if err != nil {
		panic("mcpgo: AddResources: " + err.Error())
	}
	var static []server.ServerResource
	var templates []server.ServerResourceTemplate
	for _, r := range added {
		if wire.IsTemplate(r.URI) {
			parsed := mcp.NewResourceTemplate(r.URI, r.Name).URITemplate // shared by the variants
			reg.lists.templates.add(r.URI, func(rev wire.Revision) mcp.ResourceTemplate { return templateDescriptor(r, parsed, rev) })
			templates = append(templates, server.ServerResourceTemplate{Template: templateDescriptor(r, parsed, registeredRevision), Handler: templateHandler(s, reg)})
		} else {
			reg.lists.resources.add(r.URI, func(rev wire.Revision) mcp.Resource { return resourceDescriptor(r, rev) })
			static = append(static, server.ServerResource{Resource: resourceDescriptor(r, registeredRevision), Handler: resourceHandler(s, r, reg)})
		}
	}
	// Each call sends its own list_changed: add nothing in vain.
	if len(static) > 0 {
		s.AddResources(static...)
	}
	if len(templates) > 0 {
		s.AddResourceTemplates(templates...)
	}
}

// ResourceUpdated tells the sessions subscribed to uri with
// resources/subscribe that the resource changed:
// notifications/resources/updated goes to each of them, and to no other.
// mcp-go's sessions do not keep subscriptions; the hooks of a server made
// by [NewServer] with EnableResourceSubscriptions do, so on any other
// server no session is subscribed.
func ResourceUpdated(s *server.MCPServer, uri string) {
	for _, id := range registryOf(s).subs.subscribers(uri) {
		// A session that ended meanwhile is no longer there to tell.
		_ = s.SendNotificationToSpecificClient(id, mcp.MethodNotificationResourceUpdated, map[string]any{"uri": uri})
	}
}

// resourceDescriptor maps a resource's descriptor as revision rev
// publishes it ([wire.ResourceIn]) onto mcp-go's type.
func resourceDescriptor(r *mcprt.Resource, rev wire.Revision) mcp.Resource {
	v := wire.ResourceIn(r, rev)
	d := mcp.Resource{URI: v.URI, Name: v.Name, Title: v.Title, Description: v.Description, MIMEType: v.MIMEType, Icons: icons(v.Icons)}
	d.Annotations = annotations(v.Annotations)
	d.Meta = metaOf(wire.ResourceMeta(r), rev)
	if v.Size > 0 {
		d.Size = &v.Size
	}
	return d
}

// templateDescriptor maps a template's descriptor as revision rev
// publishes it onto mcp-go's type, with the URI template parsed once.
func templateDescriptor(r *mcprt.Resource, parsed *mcp.URITemplate, rev wire.Revision) mcp.ResourceTemplate {
	v := wire.ResourceIn(r, rev)
	d := mcp.ResourceTemplate{URITemplate: parsed, Name: v.Name, Title: v.Title, Description: v.Description, MIMEType: v.MIMEType, Icons: icons(v.Icons)}
	d.Annotations = annotations(v.Annotations)
	d.Meta = metaOf(wire.ResourceMeta(r), rev)
	return d
}

// resourceHandler reads the static resource r for mcp-go.
func resourceHandler(s *server.MCPServer, r *mcprt.Resource, reg *registry) server.ResourceHandlerFunc {
	return func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		uri, c := req.Params.URI, newCaller(ctx, s, reg.sw, req.Params.Meta)
		contents, err := wire.ReadResource(mcprt.WithCaller(ctx, c), reg.logger(), r, uri)
		c.notes.flush(ctx)
		return readResult(ctx, reg, contents, err, uri, r, revision(ctx))
	}
}

// templateHandler reads a URI that mcp-go matched to one of reg's
// templates. Every template of reg is tried, in the order added, as the
// built-in server tries them: the one mcp-go matched (it tries them in no
// set order) may answer "not found" for a URI that another serves.
func templateHandler(s *server.MCPServer, reg *registry) server.ResourceTemplateHandlerFunc {
	return func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		uri, c := req.Params.URI, newCaller(ctx, s, reg.sw, req.Params.Meta)
		contents, t, err := reg.ReadTemplate(mcprt.WithCaller(ctx, c), uri)
		c.notes.flush(ctx)
		return readResult(ctx, reg, contents, err, uri, t, revision(ctx))
	}
}

// readResult answers a read of uri from resource r. mcp-go answers every
// error of a read handler as an internal error with its text; one wrapping
// mcprt.ErrNotFound is sent as mcp-go's own ErrResourceNotFound, which its
// error hooks know, followed by the reason the error gives, if any, which
// is logged to the logger of [SetLogger] (mcp-go sends no data). When reg
// masks errors, the text of any other error and a handler's own reason
// are masked. Contents without a URI or MIME type get uri and r's.
func readResult(ctx context.Context, reg *registry, contents []mcprt.ResourceContents, err error, uri string, r *mcprt.Resource, rev wire.Revision) ([]mcp.ResourceContents, error) {
	mask, log := reg.mask.Load(), reg.logger()
	switch {
	case errors.Is(err, mcprt.ErrNotFound):
		reason := wire.NotFoundReason(err)
		if mask {
			reason = wire.MaskReason(ctx, log, uri, err) // logs what it masks
		}
		if reason == "" {
			return nil, fmt.Errorf("%w: %s", server.ErrResourceNotFound, uri)
		}
		if reason == wire.NotFoundReason(err) {
			wire.LogNotFound(ctx, log, uri, reason)
		}
		return nil, fmt.Errorf("%w: %s: %s", server.ErrResourceNotFound, uri, reason)
	case err != nil && mask:
		return nil, errors.New(wire.Mask(ctx, log, "resource", r.URI, err))
	case err != nil:
		return nil, err
	}
	out := make([]mcp.ResourceContents, 0, len(contents))
	for i := range contents {
		c, err := resourceContents(&contents[i], uri, r.MIMEType, rev)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// resourceContents maps one part of a read onto mcp-go's types: a blob, as
// base64, when there is one, else the text; _meta only where rev has it.
func resourceContents(c *mcprt.ResourceContents, uri, mimeType string, rev wire.Revision) (mcp.ResourceContents, error) {
	uri, mimeType = cmp.Or(c.URI, uri), cmp.Or(c.MIMEType, mimeType)
	var meta map[string]any
	if len(c.Meta) > 0 && rev.HasStructuredOutput() {
		if err := json.Unmarshal(c.Meta, &meta); err != nil {
			return nil, fmt.Errorf("_meta of %s: %w", uri, err)
		}
	}
	if c.Blob != nil {
		return mcp.BlobResourceContents{URI: uri, MIMEType: mimeType, Blob: base64.StdEncoding.EncodeToString(c.Blob), Meta: meta}, nil
	}
	return mcp.TextResourceContents{URI: uri, MIMEType: mimeType, Text: c.Text, Meta: meta}, nil
}
