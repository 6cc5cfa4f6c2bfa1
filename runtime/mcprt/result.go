package mcprt

import (
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
	// Err is the error a failed result reports, when [ErrorResult] made
	// it, or generated code for the error its function returned. It is
	// not sent: servers look at it to answer some errors as protocol
	// errors ([URLElicitationRequired]), and to mask the function's
	// errors where asked (mcpserver.Server.MaskErrors).
	Err error
}

// TextResult returns a result of one text block.
func TextResult(text string) Result {
	return Result{Content: []Content{Text(text)}}
}

// ErrorResult returns a failed result whose text is err's message.
func ErrorResult(err error) Result {
	return Result{Content: []Content{Text(err.Error())}, IsError: true, Err: err}
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

// Structured is a tool result that chooses its own text block. A tool
// returning (Structured[Out], error) publishes Out's output schema and
// sends Value, encoded by the generated encoder, as structured content,
// as a tool returning (Out, error) does; but the text block, which models
// and clients without structured output read, is Text instead of the
// JSON. An empty Text sends the JSON, as Out alone would. Out is what a
// structured result may be: a struct, a pointer to one, a list or a map.
type Structured[Out any] struct {
	Value Out
	Text  string
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
