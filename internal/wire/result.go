package wire

import (
	"encoding/base64"
	"fmt"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// AppendResult appends r as the JSON result of tools/call for revision rev.
// Content types that rev lacks are converted to text blocks, never sent raw.
func AppendResult(dst []byte, r *mcprt.Result, rev Revision) []byte {
	dst = append(dst, `{"content":[`...)
	for i := range r.Content {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendContent(dst, &r.Content[i], rev)
	}
	dst = append(dst, ']')
	if len(r.StructuredContent) > 0 && rev.HasStructuredOutput() {
		dst = AppendStructured(append(dst, `,"structuredContent":`...), r, rev)
	}
	if r.IsError {
		dst = append(dst, `,"isError":true`...)
	}
	if len(r.Meta) > 0 {
		dst = append(append(dst, `,"_meta":`...), r.Meta...)
	}
	return append(dst, '}')
}

// AppendStructured appends the structured content as revision rev carries
// it: wrapped as {"result": ...} before 2026-07-28 when WrapStructured is
// set.
func AppendStructured(dst []byte, r *mcprt.Result, rev Revision) []byte {
	if !r.WrapStructured || rev >= Rev20260728 {
		return append(dst, r.StructuredContent...)
	}
	dst = append(dst, `{"result":`...)
	dst = append(dst, r.StructuredContent...)
	return append(dst, '}')
}

// appendAnnotations appends `,"annotations":{...}` when a (of a content
// block or a resource) has any that rev publishes: see [AnnotationsIn].
func appendAnnotations(dst []byte, a *mcprt.Annotations, rev Revision) []byte {
	if a = AnnotationsIn(a, rev); a == nil {
		return dst
	}
	dst = append(dst, `,"annotations":{`...)
	sep := ""
	if len(a.Audience) > 0 {
		dst = append(dst, `"audience":[`...)
		for i, r := range a.Audience {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonx.AppendString(dst, r)
		}
		dst = append(dst, ']')
		sep = ","
	}
	if a.Priority != nil {
		dst = jsonx.AppendFloat(append(dst, sep+`"priority":`...), *a.Priority, 64)
		sep = ","
	}
	if a.LastModified != "" {
		dst = jsonx.AppendString(append(dst, sep+`"lastModified":`...), a.LastModified)
	}
	return append(dst, '}')
}

// AnnotationsIn returns the part of a that revision rev publishes, or nil
// when that is nothing: audience and priority from 2025-03-26,
// lastModified from 2025-06-18. The built-in server writes what it
// returns; adapters map it onto their SDK's type, so that every server
// path trims alike.
func AnnotationsIn(a *mcprt.Annotations, rev Revision) *mcprt.Annotations {
	if a == nil || rev < Rev20250326 {
		return nil
	}
	out := *a
	if rev < Rev20250618 {
		out.LastModified = ""
	}
	if len(out.Audience) == 0 && out.Priority == nil && out.LastModified == "" {
		return nil
	}
	return &out
}

// AppendContent appends c as a content block of revision rev. A block
// that rev lacks is written as the text block [StandIn] says.
func AppendContent(dst []byte, c *mcprt.Content, rev Revision) []byte {
	if text, ok := StandIn(c, rev); ok {
		return appendText(dst, text)
	}
	switch c.Type {
	case mcprt.TypeImage:
		return appendMedia(dst, c, "image", rev)
	case mcprt.TypeAudio:
		return appendMedia(dst, c, "audio", rev)
	case mcprt.TypeResourceLink:
		return appendLink(dst, c, rev)
	case mcprt.TypeResource:
		return appendResource(dst, c, rev)
	default:
		dst = append(dst, `{"type":"text","text":`...)
		return closeBlock(jsonx.AppendString(dst, c.Text), c, rev)
	}
}

// StandIn returns the text of the block that stands in for c on revision
// rev, and true, when rev has no block of c's kind: audio does not exist
// before 2025-03-26 nor resource links before 2025-06-18, so they become
// text that says what was left out rather than blocks an older client
// would refuse. Adapters whose SDK writes the blocks call it to trim as
// [AppendContent] does.
func StandIn(c *mcprt.Content, rev Revision) (string, bool) {
	switch {
	case c.Type == mcprt.TypeAudio && !rev.HasAudio():
		return fmt.Sprintf("[audio content of type %s, %d bytes, is not supported by protocol revision %s]", c.MIMEType, len(c.Data), rev), true
	case c.Type == mcprt.TypeResourceLink && !rev.HasStructuredOutput():
		return "resource: " + c.URI, true
	}
	return "", false
}

func appendText(dst []byte, text string) []byte {
	dst = append(dst, `{"type":"text","text":`...)
	return append(jsonx.AppendString(dst, text), '}')
}

// closeBlock ends a content block with its annotations.
func closeBlock(dst []byte, c *mcprt.Content, rev Revision) []byte {
	return append(appendAnnotations(dst, c.Annotations, rev), '}')
}

func appendMedia(dst []byte, c *mcprt.Content, typ string, rev Revision) []byte {
	dst = append(dst, `{"type":"`...)
	dst = append(dst, typ...)
	dst = append(dst, `","data":"`...)
	dst = base64.StdEncoding.AppendEncode(dst, c.Data)
	dst = append(dst, `","mimeType":`...)
	return closeBlock(jsonx.AppendString(dst, c.MIMEType), c, rev)
}

func appendLink(dst []byte, c *mcprt.Content, rev Revision) []byte {
	dst = append(dst, `{"type":"resource_link","uri":`...)
	dst = jsonx.AppendString(dst, c.URI)
	dst = jsonx.AppendString(append(dst, `,"name":`...), c.Name)
	if c.Description != "" {
		dst = jsonx.AppendString(append(dst, `,"description":`...), c.Description)
	}
	if c.MIMEType != "" {
		dst = jsonx.AppendString(append(dst, `,"mimeType":`...), c.MIMEType)
	}
	return closeBlock(dst, c, rev)
}

func appendResource(dst []byte, c *mcprt.Content, rev Revision) []byte {
	dst = append(dst, `{"type":"resource","resource":{"uri":`...)
	dst = jsonx.AppendString(dst, c.URI)
	if c.MIMEType != "" {
		dst = jsonx.AppendString(append(dst, `,"mimeType":`...), c.MIMEType)
	}
	if c.Data != nil {
		dst = append(dst, `,"blob":"`...)
		dst = base64.StdEncoding.AppendEncode(dst, c.Data)
		dst = append(dst, '"')
	} else {
		dst = jsonx.AppendString(append(dst, `,"text":`...), c.Text)
	}
	return closeBlock(append(dst, '}'), c, rev)
}
