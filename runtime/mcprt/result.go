package mcprt

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
)

// Result is what a tool call returns to the client.
type Result struct {
	// Content is the unstructured result: text, images, audio, links and
	// embedded resources.
	Content []Content
	// StructuredContent is the structured result as JSON, or nil. It is sent
	// only on revisions that have structured output; Content should carry the
	// same data as text for older clients.
	StructuredContent []byte
	// WrapStructured marks structured content that is not an object: it is
	// sent as it is on 2026-07-28 and as {"result": ...} on 2025-06-18 and
	// 2025-11-25 (see Tool.WrapOutput).
	WrapStructured bool
	// IsError marks a failed call. The content tells the model what went
	// wrong, so it can correct itself.
	IsError bool
	// Meta is the result's _meta object as JSON, or nil.
	Meta []byte
}

// TextResult returns a result of one text block.
func TextResult(text string) Result {
	return Result{Content: []Content{Text(text)}}
}

// ErrorResult returns a failed result whose text is err's message.
func ErrorResult(err error) Result {
	return Result{Content: []Content{Text(err.Error())}, IsError: true}
}

// Errorf returns a failed result with a formatted message.
func Errorf(format string, args ...any) Result {
	return ErrorResult(fmt.Errorf(format, args...))
}

// StructuredResult returns a result whose structured content is js (a JSON
// value) and whose single text block holds the same JSON, for clients that
// read only text.
func StructuredResult(js []byte) Result {
	return Result{Content: []Content{Text(string(js))}, StructuredContent: js}
}

// JSONResult marshals v with encoding/json into a structured result. It is
// the general path for results whose type has no generated encoder.
func JSONResult(v any) Result {
	js, err := json.Marshal(v)
	if err != nil {
		return ErrorResult(fmt.Errorf("encoding the result: %w", err))
	}
	return StructuredResult(js)
}

// JSONTextResult marshals v with encoding/json into a single text block,
// without structured content.
func JSONTextResult(v any) Result {
	js, err := json.Marshal(v)
	if err != nil {
		return ErrorResult(fmt.Errorf("encoding the result: %w", err))
	}
	return TextResult(string(js))
}

// AppendJSON appends r as the JSON result of tools/call for revision rev.
// Content types that rev lacks are converted to text blocks, never sent raw.
func (r *Result) AppendJSON(dst []byte, rev Revision) []byte {
	dst = append(dst, `{"content":[`...)
	for i := range r.Content {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = r.Content[i].AppendJSON(dst, rev)
	}
	dst = append(dst, ']')
	if len(r.StructuredContent) > 0 && rev.HasStructuredOutput() {
		dst = r.AppendStructured(append(dst, `,"structuredContent":`...), rev)
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
func (r *Result) AppendStructured(dst []byte, rev Revision) []byte {
	if !r.WrapStructured || rev >= Rev20260728 {
		return append(dst, r.StructuredContent...)
	}
	dst = append(dst, `{"result":`...)
	dst = append(dst, r.StructuredContent...)
	return append(dst, '}')
}

// ContentType names a kind of content block.
type ContentType string

// The content block types of MCP.
const (
	TypeText         ContentType = "text"
	TypeImage        ContentType = "image"
	TypeAudio        ContentType = "audio"
	TypeResourceLink ContentType = "resource_link"
	TypeResource     ContentType = "resource"
)

// Content is one content block of a result. Which fields are used depends on
// Type; the constructors [Text], [Image], [Audio], [ResourceLink],
// [TextResource] and [BlobResource] fill in the right ones.
type Content struct {
	Type        ContentType
	Text        string // text; the text of an embedded text resource
	Data        []byte // image and audio data; an embedded blob (sent as base64)
	MIMEType    string
	URI         string // resource_link and embedded resources
	Name        string // resource_link
	Description string // resource_link
	// Annotations tell the client who the block is for and how much it
	// matters; nil for none. Sent from 2025-03-26 on.
	Annotations *Annotations
}

// Annotations describe a content block to the client.
type Annotations struct {
	Audience     []string // "user", "assistant"
	Priority     *float64 // 0 (least) to 1 (most important)
	LastModified string   // ISO 8601, e.g. "2026-01-02T15:04:05Z"
}

// With returns c with annotations a, for chaining onto a constructor:
// mcprt.Text("done").With(mcprt.Annotations{Audience: []string{"user"}}).
func (c Content) With(a Annotations) Content {
	c.Annotations = &a
	return c
}

// appendAnnotations appends `,"annotations":{...}` when c has any and rev
// has them.
func (c *Content) appendAnnotations(dst []byte, rev Revision) []byte {
	a := c.Annotations
	if a == nil || rev < Rev20250326 || len(a.Audience) == 0 && a.Priority == nil && a.LastModified == "" {
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
			dst = AppendString(dst, r)
		}
		dst = append(dst, ']')
		sep = ","
	}
	if a.Priority != nil {
		dst = AppendFloat(append(dst, sep+`"priority":`...), *a.Priority, 64)
		sep = ","
	}
	if a.LastModified != "" && rev >= Rev20250618 {
		dst = AppendString(append(dst, sep+`"lastModified":`...), a.LastModified)
	}
	return append(dst, '}')
}

// Text returns a text block.
func Text(s string) Content { return Content{Type: TypeText, Text: s} }

// Image returns an image block of data with its MIME type ("image/png").
func Image(data []byte, mimeType string) Content {
	return Content{Type: TypeImage, Data: data, MIMEType: mimeType}
}

// Audio returns an audio block of data with its MIME type ("audio/wav").
func Audio(data []byte, mimeType string) Content {
	return Content{Type: TypeAudio, Data: data, MIMEType: mimeType}
}

// ResourceLink returns a link to a resource the client may read.
func ResourceLink(uri, name string) Content {
	return Content{Type: TypeResourceLink, URI: uri, Name: name}
}

// TextResource returns an embedded text resource.
func TextResource(uri, mimeType, text string) Content {
	return Content{Type: TypeResource, URI: uri, MIMEType: mimeType, Text: text}
}

// BlobResource returns an embedded binary resource.
func BlobResource(uri, mimeType string, data []byte) Content {
	return Content{Type: TypeResource, URI: uri, MIMEType: mimeType, Data: data}
}

// AppendJSON appends c as a content block of revision rev. Audio before
// 2025-03-26 and resource links before 2025-06-18 do not exist: they are
// written as text blocks that say what was left out.
func (c *Content) AppendJSON(dst []byte, rev Revision) []byte {
	switch c.Type {
	case TypeImage:
		return c.appendMedia(dst, "image", rev)
	case TypeAudio:
		if !rev.HasAudio() {
			return appendText(dst, fmt.Sprintf("[audio content of type %s, %d bytes, is not supported by protocol revision %s]", c.MIMEType, len(c.Data), rev))
		}
		return c.appendMedia(dst, "audio", rev)
	case TypeResourceLink:
		if !rev.HasStructuredOutput() {
			return appendText(dst, "resource: "+c.URI)
		}
		return c.appendLink(dst, rev)
	case TypeResource:
		return c.appendResource(dst, rev)
	default:
		dst = append(dst, `{"type":"text","text":`...)
		return c.closeBlock(AppendString(dst, c.Text), rev)
	}
}

func appendText(dst []byte, text string) []byte {
	dst = append(dst, `{"type":"text","text":`...)
	return append(AppendString(dst, text), '}')
}

// closeBlock ends a content block with its annotations.
func (c *Content) closeBlock(dst []byte, rev Revision) []byte {
	return append(c.appendAnnotations(dst, rev), '}')
}

func (c *Content) appendMedia(dst []byte, typ string, rev Revision) []byte {
	dst = append(dst, `{"type":"`...)
	dst = append(dst, typ...)
	dst = append(dst, `","data":"`...)
	dst = base64.StdEncoding.AppendEncode(dst, c.Data)
	dst = append(dst, `","mimeType":`...)
	return c.closeBlock(AppendString(dst, c.MIMEType), rev)
}

func (c *Content) appendLink(dst []byte, rev Revision) []byte {
	dst = append(dst, `{"type":"resource_link","uri":`...)
	dst = AppendString(dst, c.URI)
	dst = AppendString(append(dst, `,"name":`...), c.Name)
	if c.Description != "" {
		dst = AppendString(append(dst, `,"description":`...), c.Description)
	}
	if c.MIMEType != "" {
		dst = AppendString(append(dst, `,"mimeType":`...), c.MIMEType)
	}
	return c.closeBlock(dst, rev)
}

func (c *Content) appendResource(dst []byte, rev Revision) []byte {
	dst = append(dst, `{"type":"resource","resource":{"uri":`...)
	dst = AppendString(dst, c.URI)
	if c.MIMEType != "" {
		dst = AppendString(append(dst, `,"mimeType":`...), c.MIMEType)
	}
	if c.Data != nil {
		dst = append(dst, `,"blob":"`...)
		dst = base64.StdEncoding.AppendEncode(dst, c.Data)
		dst = append(dst, '"')
	} else {
		dst = AppendString(append(dst, `,"text":`...), c.Text)
	}
	return c.closeBlock(append(dst, '}'), rev)
}
