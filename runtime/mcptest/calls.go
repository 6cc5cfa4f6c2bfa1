package mcptest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// Result is the result of a tool call as the client received it.
type Result struct {
	// Content holds the content blocks: text, images, audio, links and
	// embedded resources.
	Content []mcprt.Content
	// StructuredContent is the structured result as sent, nil when there
	// was none. On 2025-06-18 and 2025-11-25 a value that is not an
	// object (a list, a map) arrives wrapped as {"result": ...}.
	StructuredContent json.RawMessage
	// IsError marks a failed call: the arguments did not check, or the
	// tool returned an error. Content says what went wrong.
	IsError bool
	// Meta is the result's _meta object, nil when there was none.
	Meta json.RawMessage
	// Raw is the whole result as sent.
	Raw json.RawMessage

	t testing.TB
}

// Text returns the text of the result's text blocks, joined by newlines:
// for most tools, the one text block a model reads.
func (r Result) Text() string {
	var parts []string
	for _, c := range r.Content {
		if c.Type == mcprt.TypeText {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Decode decodes the structured content into v, as encoding/json does.
// It fails the test when there is none or it does not decode into v.
func (r Result) Decode(v any) {
	r.t.Helper()
	if r.StructuredContent == nil {
		r.t.Fatalf("mcptest: the result has no structured content: %s", r.Raw)
	}
	if err := json.Unmarshal(r.StructuredContent, v); err != nil {
		r.t.Fatalf("mcptest: decoding the structured content %s: %v", r.StructuredContent, err)
	}
}

// CallTool calls the tool name with args: a map, a struct (encoded as
// encoding/json does), raw JSON as json.RawMessage or []byte, or nil for
// none. A protocol error (an unknown tool, arguments that are not an
// object) fails the test; a failed call is a Result with IsError set.
func (c *Client) CallTool(name string, args any) Result {
	c.t.Helper()
	p := map[string]json.RawMessage{"name": quote(name)}
	if raw := c.encode("arguments", args); raw != nil {
		p["arguments"] = raw
	}
	params, _ := json.Marshal(p)
	raw := c.call("tools/call "+strconv.Quote(name), "tools/call", params)
	var res struct {
		Content           []json.RawMessage `json:"content"`
		StructuredContent json.RawMessage   `json:"structuredContent"`
		IsError           bool              `json:"isError"`
		Meta              json.RawMessage   `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		c.t.Fatalf("mcptest: tools/call %q: malformed result %s: %v", name, raw, err)
	}
	r := Result{StructuredContent: res.StructuredContent, IsError: res.IsError, Meta: res.Meta, Raw: raw, t: c.t}
	for _, b := range res.Content {
		content, err := parseContent(b)
		if err != nil {
			c.t.Fatalf("mcptest: tools/call %q: %v", name, err)
		}
		r.Content = append(r.Content, content)
	}
	return r
}

// Tool is a tool as tools/list describes it to the client.
type Tool struct {
	Name        string
	Title       string // the top-level title, else annotations.title
	Description string
	// InputSchema and OutputSchema are the schemas as published for the
	// client's revision; OutputSchema is nil when there is none.
	InputSchema, OutputSchema json.RawMessage
	Hints                     mcprt.Hints // from annotations
	Icons                     []mcprt.Icon
	TaskSupport               mcprt.TaskSupport // execution.taskSupport; empty when not published
	// Groups are the groups it belongs to, from _meta, on a server
	// serving groups.
	Groups []string
	// Raw is the descriptor as listed, for anything else.
	Raw json.RawMessage
}

// ListTools lists the tools the server serves, every page of them.
func (c *Client) ListTools() []Tool {
	c.t.Helper()
	var tools []Tool
	for _, raw := range c.list("tools/list", "tools") {
		tools = append(tools, c.parseTool("tools/list", raw))
	}
	return tools
}

// parseTool reads one tool descriptor that what returned.
func (c *Client) parseTool(what string, raw json.RawMessage) Tool {
	c.t.Helper()
	var d struct {
		Name         string          `json:"name"`
		Title        string          `json:"title"`
		Description  string          `json:"description"`
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema"`
		Annotations  struct {
			Title       string `json:"title"`
			ReadOnly    *bool  `json:"readOnlyHint"`
			Destructive *bool  `json:"destructiveHint"`
			Idempotent  *bool  `json:"idempotentHint"`
			OpenWorld   *bool  `json:"openWorldHint"`
		} `json:"annotations"`
		Icons     []icon `json:"icons"`
		Execution struct {
			TaskSupport mcprt.TaskSupport `json:"taskSupport"`
		} `json:"execution"`
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		c.t.Fatalf("mcptest: %s: malformed tool %s: %v", what, raw, err)
	}
	if d.Title == "" {
		d.Title = d.Annotations.Title
	}
	var groups []string
	if g, ok := d.Meta[mcprt.GroupsMetaKey]; ok && json.Unmarshal(g, &groups) != nil {
		c.t.Fatalf("mcptest: %s: malformed groups of tool %s: %s", what, d.Name, g)
	}
	a := d.Annotations
	return Tool{
		Name: d.Name, Title: d.Title, Description: d.Description,
		InputSchema: d.InputSchema, OutputSchema: d.OutputSchema,
		Hints: mcprt.Hints{ReadOnly: a.ReadOnly, Destructive: a.Destructive, Idempotent: a.Idempotent, OpenWorld: a.OpenWorld},
		Icons: icons(d.Icons), TaskSupport: d.Execution.TaskSupport, Groups: groups, Raw: raw,
	}
}

// icon is an icon as listed.
type icon struct {
	Src      string   `json:"src"`
	MIMEType string   `json:"mimeType"`
	Sizes    []string `json:"sizes"`
	Theme    string   `json:"theme"`
}

func icons(list []icon) []mcprt.Icon {
	var out []mcprt.Icon
	for _, i := range list {
		out = append(out, mcprt.Icon{Src: i.Src, MIMEType: i.MIMEType, Sizes: i.Sizes, Theme: i.Theme})
	}
	return out
}

// list returns the entries of every page of a list method.
func (c *Client) list(method, member string) []json.RawMessage {
	c.t.Helper()
	var all []json.RawMessage
	var cursor string
	for {
		var params json.RawMessage
		if cursor != "" {
			params, _ = json.Marshal(map[string]string{"cursor": cursor})
		}
		raw := c.call(method, method, params)
		var page map[string]json.RawMessage
		var entries []json.RawMessage
		if err := json.Unmarshal(raw, &page); err != nil || json.Unmarshal(page[member], &entries) != nil {
			c.t.Fatalf("mcptest: %s: malformed result %s", method, raw)
		}
		all = append(all, entries...)
		next, ok := page["nextCursor"]
		if !ok || string(next) == "null" {
			return all
		}
		if json.Unmarshal(next, &cursor) != nil || cursor == "" {
			c.t.Fatalf("mcptest: %s: malformed nextCursor %s", method, next)
		}
	}
}

// GetPrompt renders the prompt name with args.
func (c *Client) GetPrompt(name string, args map[string]string) mcprt.PromptResult {
	c.t.Helper()
	p := map[string]any{"name": name}
	if args != nil {
		p["arguments"] = args
	}
	params, _ := json.Marshal(p)
	raw := c.call("prompts/get "+strconv.Quote(name), "prompts/get", params)
	var res struct {
		Description string `json:"description"`
		Messages    []struct {
			Role    mcprt.Role      `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		c.t.Fatalf("mcptest: prompts/get %q: malformed result %s: %v", name, raw, err)
	}
	out := mcprt.PromptResult{Description: res.Description}
	for _, m := range res.Messages {
		content, err := parseContent(m.Content)
		if err != nil {
			c.t.Fatalf("mcptest: prompts/get %q: %v", name, err)
		}
		out.Messages = append(out.Messages, mcprt.PromptMessage{Role: m.Role, Content: content})
	}
	return out
}

// ReadResource reads the resource at uri. A resource not found fails the
// test; use [Client.Request] to test that it is not found.
func (c *Client) ReadResource(uri string) []mcprt.ResourceContents {
	c.t.Helper()
	params, _ := json.Marshal(map[string]string{"uri": uri})
	raw := c.call("resources/read "+strconv.Quote(uri), "resources/read", params)
	var res struct {
		Contents []resourceContents `json:"contents"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		c.t.Fatalf("mcptest: resources/read %q: malformed result %s: %v", uri, raw, err)
	}
	var out []mcprt.ResourceContents
	for _, rc := range res.Contents {
		v, err := rc.contents()
		if err != nil {
			c.t.Fatalf("mcptest: resources/read %q: %v", uri, err)
		}
		out = append(out, v)
	}
	return out
}

// Ref names what a completion is for: a prompt ([PromptRef]) or a
// resource template ([ResourceRef]).
type Ref struct {
	Type string // "ref/prompt" or "ref/resource"
	Name string // the prompt's name
	URI  string // the resource template's URI template
}

// PromptRef refers to the prompt name.
func PromptRef(name string) Ref { return Ref{Type: "ref/prompt", Name: name} }

// ResourceRef refers to the resource template uriTemplate.
func ResourceRef(uriTemplate string) Ref { return Ref{Type: "ref/resource", URI: uriTemplate} }

// Completion is what completion/complete suggests.
type Completion struct {
	Values  []string
	Total   int // how many values there are in all; 0 when the server did not say
	HasMore bool
}

// Complete asks for the values that complete the argument named argument
// of ref, which the user has typed as value; args are the arguments
// already filled in (sent as context.arguments, nil for none), as a
// [mcprt.Completer] receives them.
func (c *Client) Complete(ref Ref, argument, value string, args map[string]string) Completion {
	c.t.Helper()
	r := map[string]string{"type": ref.Type}
	if ref.Type == "ref/resource" {
		r["uri"] = ref.URI
	} else {
		r["name"] = ref.Name
	}
	p := map[string]any{"ref": r, "argument": map[string]string{"name": argument, "value": value}}
	if args != nil {
		p["context"] = map[string]any{"arguments": args}
	}
	params, _ := json.Marshal(p)
	raw := c.call("completion/complete "+strconv.Quote(argument), "completion/complete", params)
	var res struct {
		Completion struct {
			Values  []string `json:"values"`
			Total   int      `json:"total"`
			HasMore bool     `json:"hasMore"`
		} `json:"completion"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		c.t.Fatalf("mcptest: completion/complete: malformed result %s: %v", raw, err)
	}
	return Completion(res.Completion)
}

// resourceContents is one entry of contents, of a read or an embedded
// resource.
type resourceContents struct {
	URI      string          `json:"uri"`
	MIMEType string          `json:"mimeType"`
	Text     string          `json:"text"`
	Blob     *string         `json:"blob"`
	Meta     json.RawMessage `json:"_meta"`
}

func (rc resourceContents) contents() (mcprt.ResourceContents, error) {
	v := mcprt.ResourceContents{URI: rc.URI, MIMEType: rc.MIMEType, Text: rc.Text, Meta: rc.Meta}
	if rc.Blob != nil {
		b, err := base64.StdEncoding.DecodeString(*rc.Blob)
		if err != nil {
			return v, fmt.Errorf("the blob of %s is not base64: %v", rc.URI, err)
		}
		v.Blob = b
	}
	return v, nil
}

// parseContent reads a content block of any type.
func parseContent(raw json.RawMessage) (mcprt.Content, error) {
	var b struct {
		Type        mcprt.ContentType `json:"type"`
		Text        string            `json:"text"`
		Data        []byte            `json:"data"` // base64, as encoding/json reads []byte
		MIMEType    string            `json:"mimeType"`
		URI         string            `json:"uri"`
		Name        string            `json:"name"`
		Description string            `json:"description"`
		Resource    *resourceContents `json:"resource"`
		Annotations *struct {
			Audience     []string `json:"audience"`
			Priority     *float64 `json:"priority"`
			LastModified string   `json:"lastModified"`
		} `json:"annotations"`
	}
	if err := json.Unmarshal(raw, &b); err != nil || b.Type == "" {
		return mcprt.Content{}, fmt.Errorf("malformed content block %s", raw)
	}
	c := mcprt.Content{Type: b.Type, Text: b.Text, Data: b.Data, MIMEType: b.MIMEType, URI: b.URI, Name: b.Name, Description: b.Description}
	if b.Type == mcprt.TypeResource {
		if b.Resource == nil {
			return c, fmt.Errorf("malformed content block %s: an embedded resource without resource", raw)
		}
		rc, err := b.Resource.contents()
		if err != nil {
			return c, err
		}
		c.URI, c.MIMEType, c.Text, c.Data = rc.URI, rc.MIMEType, rc.Text, rc.Blob
	}
	if a := b.Annotations; a != nil {
		c.Annotations = &mcprt.Annotations{Audience: a.Audience, Priority: a.Priority, LastModified: a.LastModified}
	}
	return c, nil
}

func quote(s string) json.RawMessage {
	js, _ := json.Marshal(s)
	return js
}
