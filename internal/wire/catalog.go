package wire

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// This file holds what the adapters keep beside an SDK server, and run in
// the SDK's handlers, to serve prompts, resources and completions as the
// built-in server does: the SDKs keep descriptors and handlers, but cannot
// say which completer a completion request names, nor try templates in the
// order they were added.

// MaxCompletions is how many values one completion result may carry.
const MaxCompletions = 100

// Catalog holds the prompts, resources and resource templates an adapter
// added to one SDK server. It is safe for concurrent use.
type Catalog struct {
	mu         sync.RWMutex
	prompts    map[string]*mcprt.Prompt
	resources  map[string]*mcprt.Resource
	templates  []*mcprt.Resource   // in the order added
	toolScopes map[string][]string // the Scopes of the tools added, by name
}

// AddToolScopes keeps the scopes of tools, by name, for ScopesOf; a tool
// without any forgets those of an earlier one of its name.
func (c *Catalog) AddToolScopes(tools []mcprt.Tool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range tools {
		t := &tools[i]
		if len(t.Scopes) == 0 {
			delete(c.toolScopes, t.Name)
			continue
		}
		if c.toolScopes == nil {
			c.toolScopes = make(map[string][]string)
		}
		c.toolScopes[t.Name] = slices.Clone(t.Scopes)
	}
}

// ScopesOf returns the scopes an operation declares: those of the tool
// called, the prompt got, or the resource read (for a URI no resource
// has, those of every template that matches it, as match says).
func (c *Catalog) ScopesOf(method, name, uri string, match func(template, uri string) bool) []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	switch method {
	case "tools/call":
		return c.toolScopes[name]
	case "prompts/get":
		if p := c.prompts[name]; p != nil {
			return p.Scopes
		}
	case "resources/read":
		if r := c.resources[uri]; r != nil {
			return r.Scopes
		}
		var need []string
		for _, t := range c.templates {
			if len(t.Scopes) > 0 && match(t.URI, uri) {
				for _, s := range t.Scopes {
					if !slices.Contains(need, s) {
						need = append(need, s)
					}
				}
			}
		}
		return need
	}
	return nil
}

// AllScopes returns every scope of the tools, prompts and resources
// added, each once.
func (c *Catalog) AllScopes() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []string
	add := func(list []string) {
		for _, s := range list {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	for _, s := range c.toolScopes {
		add(s)
	}
	for _, p := range c.prompts {
		add(p.Scopes)
	}
	for _, r := range c.resources {
		add(r.Scopes)
	}
	for _, t := range c.templates {
		add(t.Scopes)
	}
	slices.Sort(out) // the maps' order is random; the metadata's is not
	return out
}

// AddPrompts adds prompts, replacing those of the same names, and returns
// the stored copies, which the SDK's handlers use; the copies have no
// groups.
func (c *Catalog) AddPrompts(prompts []mcprt.Prompt) []*mcprt.Prompt {
	out := make([]*mcprt.Prompt, len(prompts))
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.prompts == nil {
		c.prompts = make(map[string]*mcprt.Prompt)
	}
	for i := range prompts {
		p := prompts[i]
		p.Groups = nil // the SDKs have no hook for groups/list: groups are not served
		c.prompts[p.Name] = &p
		out[i] = &p
	}
	return out
}

// AddResources adds resources and templates ([IsTemplate]), replacing
// those of the same URIs; a replaced template keeps its place in the
// order. It returns the stored copies, which the SDK's handlers use.
func (c *Catalog) AddResources(resources []mcprt.Resource) []*mcprt.Resource {
	out := make([]*mcprt.Resource, len(resources))
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.resources == nil {
		c.resources = make(map[string]*mcprt.Resource)
	}
	for i := range resources {
		r := resources[i]
		r.Groups = nil // as for prompts
		out[i] = &r
		if !IsTemplate(r.URI) {
			c.resources[r.URI] = &r
			continue
		}
		if j := c.templateIndex(r.URI); j >= 0 {
			c.templates[j] = &r
		} else {
			c.templates = append(c.templates, &r)
		}
	}
	return out
}

// templateIndex is the index of the template of uri, or -1; c.mu is held.
func (c *Catalog) templateIndex(uri string) int {
	for i, t := range c.templates {
		if t.URI == uri {
			return i
		}
	}
	return -1
}

// Completer finds the completer a completion request's ref names: a
// prompt by name, or a template (by its template, as listed) or resource
// by URI. kind and key name it in a panic's message. An unknown prompt,
// resource or ref type is an error the server answers as invalid params;
// a known one may have no completer (nil), which completes nothing.
func (c *Catalog) Completer(refType, name, uri string) (kind, key string, comp mcprt.Completer, err error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	switch refType {
	case "ref/prompt":
		if p := c.prompts[name]; p != nil {
			return "prompt", name, p.Complete, nil
		}
		return "", "", nil, errors.New("invalid params: unknown prompt " + strconv.Quote(name))
	case "ref/resource":
		if i := c.templateIndex(uri); i >= 0 {
			return "resource", uri, c.templates[i].Complete, nil
		}
		if r := c.resources[uri]; r != nil {
			return "resource", uri, r.Complete, nil
		}
		return "", "", nil, errors.New("invalid params: unknown resource " + strconv.Quote(uri))
	}
	return "", "", nil, errors.New("invalid params: unknown ref type " + strconv.Quote(refType) + "; want ref/prompt or ref/resource")
}

// ReadTemplate reads uri from the first template, in the order added,
// whose Read returns something other than an error wrapping
// [mcprt.ErrNotFound], and returns that template too. A template's Read
// matches the URI itself; when none answers, the error wraps ErrNotFound.
func (c *Catalog) ReadTemplate(ctx context.Context, uri string) ([]mcprt.ResourceContents, *mcprt.Resource, error) {
	c.mu.RLock()
	templates := slices.Clone(c.templates) // AddResources replaces in place
	c.mu.RUnlock()
	for _, t := range templates {
		if t.Read == nil || !granted(ctx, t.Scopes) {
			continue
		}
		contents, err := ReadResource(ctx, nil, t, uri)
		if !errors.Is(err, mcprt.ErrNotFound) {
			return contents, t, err
		}
	}
	return nil, nil, fmt.Errorf("%w: %s", mcprt.ErrNotFound, uri)
}

// granted reports whether the verified token of ctx, if there is one,
// grants every scope of scopes; a template it does not is not tried, so
// that its Read never runs for a token without its scopes.
func granted(ctx context.Context, scopes []string) bool {
	t, ok := mcprt.Token(ctx)
	if !ok {
		return true
	}
	for _, s := range scopes {
		if !t.HasScope(s) {
			return false
		}
	}
	return true
}

// RenderPrompt runs p.Get. A panic does not escape: it is logged to log
// (nil: slog's default) and becomes an internal error, so the server
// keeps serving. Errors are as
// Get returned them: [IsArgumentError] tells invalid params from internal
// errors.
func RenderPrompt(ctx context.Context, log *slog.Logger, p *mcprt.Prompt, args map[string]string) (res mcprt.PromptResult, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = errors.New(HandlerPanicked(log, "prompt", p.Name, v))
		}
	}()
	if p.Get == nil {
		return res, errors.New("internal error: prompt " + strconv.Quote(p.Name) + " has no Get function")
	}
	if args == nil {
		args = map[string]string{}
	}
	return p.Get(ctx, args)
}

// ReadResource runs r.Read for uri. A panic does not escape: it is logged
// to log (nil: slog's default) and becomes an internal error. An error wrapping [mcprt.ErrNotFound] is
// "resource not found"; any other is internal. The contents of an MCP
// App's resource (r.UI set) carry its _meta.ui, unless they have their own.
func ReadResource(ctx context.Context, log *slog.Logger, r *mcprt.Resource, uri string) (contents []mcprt.ResourceContents, err error) {
	defer func() {
		if v := recover(); v != nil {
			contents, err = nil, errors.New(HandlerPanicked(log, "resource", r.URI, v))
		}
	}()
	if r.Read == nil {
		return nil, errors.New("internal error: resource " + strconv.Quote(r.URI) + " has no Read function")
	}
	contents, err = r.Read(ctx, uri)
	if r.UI != nil && len(contents) > 0 {
		contents = slices.Clone(contents) // the handler's slice stays as it was
		for i := range contents {
			contents[i].Meta = ContentsMeta(contents[i].Meta, r)
		}
	}
	return contents, err
}

// Complete runs comp, if any, and returns the values a completion result
// carries: at most [MaxCompletions], with how many there were and whether
// some were left out. A panic does not escape: it is logged to log (nil:
// slog's default) and becomes an internal error; kind and key name the
// prompt or resource.
func Complete(ctx context.Context, log *slog.Logger, comp mcprt.Completer, kind, key, argument, value string, args map[string]string) (values []string, total int, hasMore bool, err error) {
	if comp == nil {
		return []string{}, 0, false, nil
	}
	defer func() {
		if v := recover(); v != nil {
			values, total, hasMore, err = nil, 0, false, errors.New(HandlerPanicked(log, kind+" completion", key, v))
		}
	}()
	if args == nil {
		args = map[string]string{}
	}
	all, err := comp(ctx, argument, value, args)
	if err != nil {
		return nil, 0, false, err
	}
	values = all[:min(len(all), MaxCompletions)]
	if values == nil {
		values = []string{}
	}
	return values, len(all), len(all) > MaxCompletions, nil
}

// HandlerPanicked logs the panic v of the handler of a prompt, resource or
// completion (kind) named name to log (nil: slog's default), with its
// stack, and returns the message of the internal error that answers the
// request.
func HandlerPanicked(log *slog.Logger, kind, name string, v any) string {
	if log == nil {
		log = slog.Default()
	}
	log.Error("mcp "+kind+" handler panicked", kind, name, "panic", v, "stack", string(debug.Stack()))
	return fmt.Sprintf("internal error: %s %s panicked: %v", kind, strconv.Quote(name), v)
}
