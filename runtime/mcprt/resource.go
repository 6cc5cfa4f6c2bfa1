package mcprt

import (
	"context"
	"errors"
)

// Resource is one resource, or one resource template, as generated code
// declares it: its descriptor and the function that reads it.
//
// A URI holding an RFC 6570 expression ("kb://articles/{id}") makes the
// resource a template: it is listed by resources/templates/list, and
// reads of every URI it matches go to Read.
type Resource struct {
	URI         string
	Name        string
	Title       string // omitted when empty (2025-06-18 on)
	Description string
	MIMEType    string
	// Size is the size in bytes of a static resource, published when
	// greater than zero.
	Size        int64
	Annotations *Annotations // audience and priority, published as they are
	Icons       []Icon
	// Scopes are the OAuth scopes a read needs, all of them, on a server
	// with authorization; they are not published.
	Scopes []string
	// Read reads the resource at uri. For a template, generated code
	// matches uri against the template and parses its variables first:
	// a uri that does not match, or whose variables do not parse, is
	// ErrNotFound. Contents without a URI or MIME type get the request's
	// URI and the resource's MIME type.
	Read func(ctx context.Context, uri string) ([]ResourceContents, error)
	// Complete suggests values for a template's variables; nil means none
	// completes.
	Complete Completer
	// UI is what the page of an MCP App (a ui:// resource) asks of the
	// host, published as the _meta.ui of the resource and of the contents
	// read; nil for none.
	UI *ResourceUI
	// Meta is the resource's _meta object as JSON, for anything else a
	// client reads there; nil for none. A "ui" member gives way to UI.
	Meta []byte
	// Groups are the names of the groups the resource belongs to, as a
	// tool's.
	Groups []string
}

// ResourceContents is the text or the bytes of a resource, or of one part
// of it.
type ResourceContents struct {
	URI      string // the URI read, when empty
	MIMEType string // the resource's MIME type, when empty
	Text     string
	Blob     []byte // when not nil, sent as base64 instead of Text
	Meta     []byte // the _meta object as JSON, or nil
}

// ErrNotFound is the error of a resource handler whose resource does not
// exist. Wrapped in the error a handler returns, it makes the server
// answer "resource not found" (-32002, or -32602 from 2026-07-28) rather
// than an internal error.
var ErrNotFound = errors.New("resource not found")
