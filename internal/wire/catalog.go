package wire

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// This file holds what the adapters keep beside an SDK server, and run in
// the SDK's handlers, to serve prompts, resources and completions as the
// built-in server does: the SDKs keep descriptors and handlers, but cannot
// say which completer a completion request names, nor try templates in the
// order they were added.

// MaxCompletions is how many values one completion result may carry.
const MaxCompletions = 100

// Catalog holds the tools, prompts, resources and resource templates an
// adapter added to one SDK server. It is safe for concurrent use.
type Catalog struct {
	mu        sync.RWMutex
	tools     map[string]*mcprt.Tool // the tools added, by name
	prompts   map[string]*mcprt.Prompt
	resources map[string]*mcprt.Resource
	templates []*mcprt.Resource // in the order added
	skillList []mcprt.Skill     // the skills added, in order (see skills.go)
	skills    *Skills           // what they serve
}

// AddTools keeps tools, by name, for ScopesOf. A name taken already, or
// by two of tools, is an error naming both ([Duplicate]), and none of
// tools is kept.
func (c *Catalog) AddTools(tools []mcprt.Tool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	seen := make(map[string]*mcprt.Tool, len(tools))
	for i := range tools {
		t := &tools[i]
		first := c.tools[t.Name]
		if first == nil {
			first = seen[t.Name]
		}
		if first != nil {
			return Duplicate("tool", t.Name, first.Handler, t.Handler)
		}
		seen[t.Name] = t
	}
	if c.tools == nil {
		c.tools = make(map[string]*mcprt.Tool)
	}
	for i := range tools {
		t := tools[i]
		t.Scopes = slices.Clone(t.Scopes)
		c.tools[t.Name] = &t
	}
	return nil
}

// ScopesOf returns the scopes an operation declares: those of the tool
// called, the prompt got, or the resource read (for a URI no resource
// has, those of every template that matches it).
func (c *Catalog) ScopesOf(method, name, uri string) []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if need, ok := c.skillScopes(method, uri); ok {
		return need
	}
	switch method {
	case "tools/call":
		if t := c.tools[name]; t != nil {
			return t.Scopes
		}
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
			if len(t.Scopes) > 0 && mcpimpl.TemplateMatches(t.URI, uri) {
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
	for _, t := range c.tools {
		add(t.Scopes)
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
	for _, s := range c.skills.AllScopes() {
		add(s)
	}
	slices.Sort(out) // the maps' order is random; the metadata's is not
	return out
}

// AddPrompts adds prompts and returns the stored copies, which the SDK's
// handlers use; the copies have no groups. A name taken already, or by
// two of prompts, is an error naming both ([Duplicate]), and none is
// added.
func (c *Catalog) AddPrompts(prompts []mcprt.Prompt) ([]*mcprt.Prompt, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	seen := make(map[string]*mcprt.Prompt, len(prompts))
	for i := range prompts {
		p := &prompts[i]
		first := c.prompts[p.Name]
		if first == nil {
			first = seen[p.Name]
		}
		if first != nil {
			return nil, Duplicate("prompt", p.Name, first.Get, p.Get)
		}
		seen[p.Name] = p
	}
	if c.prompts == nil {
		c.prompts = make(map[string]*mcprt.Prompt)
	}
	out := make([]*mcprt.Prompt, len(prompts))
	for i := range prompts {
		p := prompts[i]
		p.Groups = nil // the SDKs have no hook for groups/list: groups are not served
		c.prompts[p.Name] = &p
		out[i] = &p
	}
	return out, nil
}

// AddResources adds resources and templates ([IsTemplate]) and returns
// the stored copies, which the SDK's handlers use. A URI (or URI
// template) taken already, or by two of resources, is an error naming
// both ([Duplicate]), and none is added.
func (c *Catalog) AddResources(resources []mcprt.Resource) ([]*mcprt.Resource, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	seen := make(map[string]*mcprt.Resource, len(resources))
	for i := range resources {
		r := &resources[i]
		first, kind := seen[r.URI], "resource"
		switch {
		case IsTemplate(r.URI):
			kind = "resource template"
			if j := c.templateIndex(r.URI); j >= 0 {
				first = c.templates[j]
			}
		case c.resources[r.URI] != nil:
			first = c.resources[r.URI]
		}
		if first == nil {
			first = seen[r.URI]
		}
		if first != nil {
			return nil, Duplicate(kind, r.URI, first.Read, r.Read)
		}
		seen[r.URI] = r
	}
	if c.resources == nil {
		c.resources = make(map[string]*mcprt.Resource)
	}
	out := make([]*mcprt.Resource, len(resources))
	for i := range resources {
		r := resources[i]
		r.Groups = nil // as for prompts
		out[i] = &r
		if IsTemplate(r.URI) {
			c.templates = append(c.templates, &r)
		} else {
			c.resources[r.URI] = &r
		}
	}
	return out, nil
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
	templates := slices.Clone(c.templates) // AddResources appends while reads run
	c.mu.RUnlock()
	notFound := mcprt.ErrNotFound
	for _, t := range templates {
		if t.Read == nil || !granted(ctx, t.Scopes) {
			continue
		}
		contents, err := ReadResource(ctx, nil, t, uri)
		if !errors.Is(err, mcprt.ErrNotFound) {
			return contents, t, err
		}
		if notFound == mcprt.ErrNotFound && NotFoundReason(err) != "" {
			notFound = err // the first reason given is the one told
		}
	}
	return nil, nil, notFound
}

// NotFoundReason returns why a read found nothing, as err, which wraps
// [mcprt.ErrNotFound], says beyond "resource not found": what is wrong
// with the URI's template variables, or the handler's own words. It is
// "" when err says no more.
func NotFoundReason(err error) string {
	var ve *mcpimpl.VariableError
	if errors.As(err, &ve) {
		return ve.Err.Error()
	}
	nf := mcprt.ErrNotFound.Error()
	s := strings.TrimSuffix(strings.TrimPrefix(err.Error(), nf+": "), ": "+nf)
	if s == nf {
		return ""
	}
	return s
}

// LogNotFound logs a read of uri that found nothing for reason, at Info,
// to log (nil: slog's default); a read that gave no reason is not logged.
func LogNotFound(ctx context.Context, log *slog.Logger, uri, reason string) {
	if reason == "" {
		return
	}
	if log == nil {
		log = slog.Default()
	}
	log.LogAttrs(ctx, slog.LevelInfo, "mcp resource not found", slog.String("uri", uri), slog.String("reason", reason))
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
