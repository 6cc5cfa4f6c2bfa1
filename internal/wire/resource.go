package wire

import (
	"encoding/base64"
	"strings"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// IsTemplate reports whether uri is an RFC 6570 URI template rather than a
// URI: whether it holds an expression. Templates are listed by
// resources/templates/list, the others by resources/list.
func IsTemplate(uri string) bool { return strings.Contains(uri, "{") }

// ResourceIn returns what revision rev publishes of the descriptor of r,
// a resource or a template: r without its title before 2025-06-18, with
// the annotations [AnnotationsIn] keeps, and without icons before
// 2025-11-25. The built-in server writes it ([AppendResource],
// [AppendResourceTemplate]); the adapters map it onto their SDK's type.
func ResourceIn(r *mcprt.Resource, rev Revision) mcprt.Resource {
	out := *r
	if !rev.HasStructuredOutput() {
		out.Title = ""
	}
	out.Annotations = AnnotationsIn(r.Annotations, rev)
	if !rev.HasIcons() {
		out.Icons = nil
	}
	return out
}

// AppendResource appends the JSON descriptor of r as a resources/list
// entry of revision rev, as [ResourceIn] trims it, with its size when it
// is known.
func AppendResource(dst []byte, r *mcprt.Resource, rev Revision) []byte {
	v := ResourceIn(r, rev)
	dst = jsonx.AppendString(append(dst, `{"uri":`...), v.URI)
	dst = appendResourceFields(dst, &v, rev)
	if v.Size > 0 {
		dst = jsonx.AppendInt(append(dst, `,"size":`...), v.Size)
	}
	return appendResourceIcons(dst, &v, rev)
}

// AppendResourceTemplate appends the JSON descriptor of the template r as
// a resources/templates/list entry of revision rev, as [ResourceIn] trims
// it. A template has no size.
func AppendResourceTemplate(dst []byte, r *mcprt.Resource, rev Revision) []byte {
	v := ResourceIn(r, rev)
	dst = jsonx.AppendString(append(dst, `{"uriTemplate":`...), v.URI)
	dst = appendResourceFields(dst, &v, rev)
	return appendResourceIcons(dst, &v, rev)
}

// appendResourceFields appends what resources and templates share after
// their URI: name, title, description, MIME type and annotations.
func appendResourceFields(dst []byte, r *mcprt.Resource, rev Revision) []byte {
	dst = jsonx.AppendString(append(dst, `,"name":`...), r.Name)
	if r.Title != "" {
		dst = jsonx.AppendString(append(dst, `,"title":`...), r.Title)
	}
	if r.Description != "" {
		dst = jsonx.AppendString(append(dst, `,"description":`...), r.Description)
	}
	if r.MIMEType != "" {
		dst = jsonx.AppendString(append(dst, `,"mimeType":`...), r.MIMEType)
	}
	return appendAnnotations(dst, r.Annotations, rev)
}

// appendResourceIcons appends the icons and the _meta, if any, and closes
// the descriptor.
func appendResourceIcons(dst []byte, r *mcprt.Resource, rev Revision) []byte {
	if len(r.Icons) > 0 {
		dst = AppendIcons(append(dst, `,"icons":`...), r.Icons)
	}
	return appendMeta(dst, ResourceMeta(r), rev)
}

// AppendResourceContents appends c as an element of the contents of a
// resources/read result of revision rev. uri and mimeType stand in for
// c's own when those are empty: the URI read and the resource's MIME type,
// so that every element names what it holds. Blob is sent as base64 when
// not nil, else Text; _meta only from 2025-06-18.
func AppendResourceContents(dst []byte, c *mcprt.ResourceContents, uri, mimeType string, rev Revision) []byte {
	if c.URI != "" {
		uri = c.URI
	}
	if c.MIMEType != "" {
		mimeType = c.MIMEType
	}
	dst = jsonx.AppendString(append(dst, `{"uri":`...), uri)
	if mimeType != "" {
		dst = jsonx.AppendString(append(dst, `,"mimeType":`...), mimeType)
	}
	if c.Blob != nil {
		dst = append(dst, `,"blob":"`...)
		dst = base64.StdEncoding.AppendEncode(dst, c.Blob)
		dst = append(dst, '"')
	} else {
		dst = jsonx.AppendString(append(dst, `,"text":`...), c.Text)
	}
	if len(c.Meta) > 0 && rev.HasStructuredOutput() {
		dst = append(append(dst, `,"_meta":`...), c.Meta...)
	}
	return append(dst, '}')
}
