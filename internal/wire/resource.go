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

// AppendResource appends the JSON descriptor of r as a resources/list
// entry of revision rev: title only from 2025-06-18, annotations from
// 2025-03-26 (lastModified from 2025-06-18), icons from 2025-11-25, size
// when it is known.
func AppendResource(dst []byte, r *mcprt.Resource, rev Revision) []byte {
	dst = jsonx.AppendString(append(dst, `{"uri":`...), r.URI)
	dst = appendResourceFields(dst, r, rev)
	if r.Size > 0 {
		dst = jsonx.AppendInt(append(dst, `,"size":`...), r.Size)
	}
	return appendResourceIcons(dst, r, rev)
}

// AppendResourceTemplate appends the JSON descriptor of the template r as
// a resources/templates/list entry of revision rev, with the same
// per-revision rules as [AppendResource]. A template has no size.
func AppendResourceTemplate(dst []byte, r *mcprt.Resource, rev Revision) []byte {
	dst = jsonx.AppendString(append(dst, `{"uriTemplate":`...), r.URI)
	dst = appendResourceFields(dst, r, rev)
	return appendResourceIcons(dst, r, rev)
}

// appendResourceFields appends what resources and templates share after
// their URI: name, title, description, MIME type and annotations.
func appendResourceFields(dst []byte, r *mcprt.Resource, rev Revision) []byte {
	dst = jsonx.AppendString(append(dst, `,"name":`...), r.Name)
	if r.Title != "" && rev.HasStructuredOutput() {
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

// appendResourceIcons appends the icons where rev has them and closes the
// descriptor.
func appendResourceIcons(dst []byte, r *mcprt.Resource, rev Revision) []byte {
	if len(r.Icons) > 0 && rev.HasIcons() {
		dst = AppendIcons(append(dst, `,"icons":`...), r.Icons)
	}
	return append(dst, '}')
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
