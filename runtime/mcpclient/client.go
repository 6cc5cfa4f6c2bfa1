package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// wrapsUntil is the first revision on which a structured result that is
// not an object is sent as it is; earlier ones wrap it as {"result": ...}.
const wrapsUntil = "2026-07-28"

// emptyArgs are the arguments of a tool that takes none.
var emptyArgs = json.RawMessage(`{}`)

// CallTool calls the tool name with the arguments args holds, written by
// a generated encoder; nil sends {}. A result with isError set is a
// *mcprt.ToolResultError.
func CallTool(ctx context.Context, s *mcp.ClientSession, name string, args *mcpimpl.Encoder) (*ToolResult, error) {
	raw := emptyArgs
	if args != nil {
		if err := args.Err(); err != nil {
			return nil, fmt.Errorf("tool %s: the arguments do not encode: %w", name, err)
		}
		raw = args.B
	}
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: raw})
	if err != nil {
		return nil, fmt.Errorf("tool %s: %w", name, err)
	}
	r := &ToolResult{name: name, session: s, res: res}
	if res.IsError {
		return nil, &mcprt.ToolResultError{Tool: name, Result: r.Result()}
	}
	return r, nil
}

// ToolResult is a tool's successful result, read by generated code.
type ToolResult struct {
	name    string
	session *mcp.ClientSession
	res     *mcp.CallToolResult
}

// mismatch is the error of a result that does not read as the client
// expects.
func (r *ToolResult) mismatch(problems ...string) error {
	return &mcprt.MismatchError{What: "tool " + r.name, Problems: problems}
}

// Text is the text of the result's text blocks, one a line.
func (r *ToolResult) Text() string {
	var parts []string
	for _, c := range r.res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// JSON is the structured result as JSON: the structured content, or,
// from a server that sends none (revisions before 2025-06-18), the text
// block that carries the same JSON. wrapped says that the output schema
// wraps a value that is not an object as {"result": ...}, which the
// revisions before 2026-07-28 send; the value inside is returned.
func (r *ToolResult) JSON(wrapped bool) ([]byte, error) {
	sc := r.res.StructuredContent
	if sc == nil {
		if text := r.Text(); text != "" {
			return []byte(text), nil
		}
		return nil, r.mismatch("no structured content and no text")
	}
	if wrapped && wrapsResult(r.session) {
		obj, ok := sc.(map[string]any)
		inner, has := obj["result"]
		if !ok || !has {
			return nil, r.mismatch(`expected the value wrapped as {"result": ...}`)
		}
		sc = inner
	}
	return appendJSON(nil, sc, false), nil
}

// wrapsResult reports whether the session's revision wraps structured
// results that are not objects.
func wrapsResult(s *mcp.ClientSession) bool {
	ir := s.InitializeResult()
	return ir == nil || ir.ProtocolVersion < wrapsUntil
}

// Null reports whether the structured result is JSON null: what a server
// sends for a nil pointer.
func (r *ToolResult) Null() bool {
	js, err := r.JSON(false)
	return err == nil && strings.TrimSpace(string(js)) == "null"
}

// Decode decodes the structured result (see JSON) with decode, a
// generated decoder; a value that does not match is a
// *mcprt.MismatchError naming the path of each problem.
func (r *ToolResult) Decode(ctx context.Context, wrapped bool, decode func(*mcpimpl.Decoder)) error {
	js, err := r.JSON(wrapped)
	if err != nil {
		return err
	}
	return decodeJSON(ctx, "tool "+r.name, js, decode)
}

// decodeJSON runs decode on js and turns its problems into a
// *mcprt.MismatchError about what.
func decodeJSON(ctx context.Context, what string, js []byte, decode func(*mcpimpl.Decoder)) error {
	var d mcpimpl.Decoder
	d.Start(ctx, js)
	decode(&d)
	err := d.Finish()
	if err == nil {
		return nil
	}
	me := &mcprt.MismatchError{What: what}
	if ae, ok := err.(*mcpimpl.ArgumentError); ok {
		for _, p := range ae.Problems {
			if p.Path == "" {
				me.Problems = append(me.Problems, p.Message)
				continue
			}
			me.Problems = append(me.Problems, p.Path+": "+p.Message)
		}
		if ae.More > 0 {
			me.Problems = append(me.Problems, strconv.Itoa(ae.More)+" more")
		}
		return me
	}
	me.Problems = []string{err.Error()}
	return me
}

// Int parses the text result as a signed integer of bits bits.
func (r *ToolResult) Int(bits int) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(r.Text()), 10, bits)
	if err != nil {
		return 0, r.mismatch(fmt.Sprintf("expected an integer, got %q", r.Text()))
	}
	return n, nil
}

// Uint parses the text result as an unsigned integer of bits bits.
func (r *ToolResult) Uint(bits int) (uint64, error) {
	n, err := strconv.ParseUint(strings.TrimSpace(r.Text()), 10, bits)
	if err != nil {
		return 0, r.mismatch(fmt.Sprintf("expected an unsigned integer, got %q", r.Text()))
	}
	return n, nil
}

// Float parses the text result as a number of bits bits.
func (r *ToolResult) Float(bits int) (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(r.Text()), bits)
	if err != nil {
		return 0, r.mismatch(fmt.Sprintf("expected a number, got %q", r.Text()))
	}
	return f, nil
}

// Bool parses the text result as a boolean.
func (r *ToolResult) Bool() (bool, error) {
	b, err := strconv.ParseBool(strings.TrimSpace(r.Text()))
	if err != nil {
		return false, r.mismatch(fmt.Sprintf("expected a boolean, got %q", r.Text()))
	}
	return b, nil
}

// Result is the whole result as package mcprt holds one.
func (r *ToolResult) Result() mcprt.Result {
	out := mcprt.Result{IsError: r.res.IsError}
	for _, c := range r.res.Content {
		out.Content = append(out.Content, Content(c))
	}
	if r.res.StructuredContent != nil {
		out.StructuredContent = AppendJSON(nil, r.res.StructuredContent)
	}
	if len(r.res.Meta) > 0 {
		out.Meta = AppendJSON(nil, map[string]any(r.res.Meta))
	}
	return out
}

// GetPrompt renders the prompt name with args, each written as text.
func GetPrompt(ctx context.Context, s *mcp.ClientSession, name string, args map[string]string) (mcprt.PromptResult, error) {
	res, err := s.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return mcprt.PromptResult{}, fmt.Errorf("prompt %s: %w", name, err)
	}
	out := mcprt.PromptResult{Description: res.Description}
	for _, m := range res.Messages {
		out.Messages = append(out.Messages, mcprt.PromptMessage{Role: mcprt.Role(m.Role), Content: Content(m.Content)})
	}
	return out, nil
}

// Resource is what a resource read returned, read by generated code.
type Resource struct {
	URI      string
	Contents []mcprt.ResourceContents
}

// ReadResource reads the resource at uri.
func ReadResource(ctx context.Context, s *mcp.ClientSession, uri string) (*Resource, error) {
	res, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, fmt.Errorf("resource %s: %w", uri, err)
	}
	out := &Resource{URI: uri}
	for _, c := range res.Contents {
		out.Contents = append(out.Contents, resourceContents(c))
	}
	return out, nil
}

func (r *Resource) mismatch(problem string) error {
	return &mcprt.MismatchError{What: "resource " + r.URI, Problems: []string{problem}}
}

// One is the resource's one content.
func (r *Resource) One() (mcprt.ResourceContents, error) {
	if len(r.Contents) != 1 {
		return mcprt.ResourceContents{}, r.mismatch(fmt.Sprintf("expected one content, got %d", len(r.Contents)))
	}
	return r.Contents[0], nil
}

// Text is the text of the resource's one content.
func (r *Resource) Text() (string, error) {
	c, err := r.One()
	if err != nil {
		return "", err
	}
	if c.Blob != nil {
		return "", r.mismatch("expected text, got a blob")
	}
	return c.Text, nil
}

// Blob is the bytes of the resource's one content.
func (r *Resource) Blob() ([]byte, error) {
	c, err := r.One()
	if err != nil {
		return nil, err
	}
	if c.Blob == nil {
		return nil, r.mismatch("expected a blob, got text")
	}
	return c.Blob, nil
}

// Decode decodes the JSON text of the resource's one content with
// decode, a generated decoder.
func (r *Resource) Decode(ctx context.Context, decode func(*mcpimpl.Decoder)) error {
	text, err := r.Text()
	if err != nil {
		return err
	}
	return decodeJSON(ctx, "resource "+r.URI, []byte(text), decode)
}

// Content is c as package mcprt holds a content block.
func Content(c mcp.Content) mcprt.Content {
	switch c := c.(type) {
	case *mcp.TextContent:
		return mcprt.Content{Type: mcprt.TypeText, Text: c.Text, Annotations: annotations(c.Annotations)}
	case *mcp.ImageContent:
		return mcprt.Content{Type: mcprt.TypeImage, Data: c.Data, MIMEType: c.MIMEType, Annotations: annotations(c.Annotations)}
	case *mcp.AudioContent:
		return mcprt.Content{Type: mcprt.TypeAudio, Data: c.Data, MIMEType: c.MIMEType, Annotations: annotations(c.Annotations)}
	case *mcp.ResourceLink:
		return mcprt.Content{Type: mcprt.TypeResourceLink, URI: c.URI, Name: c.Name, Description: c.Description, MIMEType: c.MIMEType, Annotations: annotations(c.Annotations)}
	case *mcp.EmbeddedResource:
		out := mcprt.Content{Type: mcprt.TypeResource, Annotations: annotations(c.Annotations)}
		if c.Resource != nil {
			rc := resourceContents(c.Resource)
			out.URI, out.MIMEType, out.Text, out.Data = rc.URI, rc.MIMEType, rc.Text, rc.Blob
		}
		return out
	}
	js, _ := json.Marshal(c) // a block this package does not know: kept as text
	return mcprt.Content{Type: mcprt.TypeText, Text: string(js)}
}

func annotations(a *mcp.Annotations) *mcprt.Annotations {
	if a == nil {
		return nil
	}
	out := &mcprt.Annotations{LastModified: a.LastModified}
	for _, r := range a.Audience {
		out.Audience = append(out.Audience, string(r))
	}
	if a.Priority != 0 {
		p := a.Priority
		out.Priority = &p
	}
	return out
}

func resourceContents(c *mcp.ResourceContents) mcprt.ResourceContents {
	out := mcprt.ResourceContents{URI: c.URI, MIMEType: c.MIMEType, Text: c.Text, Blob: c.Blob}
	if len(c.Meta) > 0 {
		out.Meta = AppendJSON(nil, map[string]any(c.Meta))
	}
	return out
}
