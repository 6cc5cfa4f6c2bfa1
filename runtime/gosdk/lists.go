package gosdk

import (
	"context"
	"encoding/json"
	"maps"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// This file makes go-sdk list tools, prompts, resources and templates per
// protocol revision, as the built-in server does. The SDK keeps one
// descriptor of each for every revision and writes it with its own types,
// which cannot say everything (a tool's execution, hints left unwritten).
// A receiving middleware lets the SDK find the page asked for, cursors and
// all, and then answers with the same page written from the descriptors
// the built-in server writes ([wire.AppendTool] and the others), serialized
// for each revision once, when they were added.

// described is what the adapter added to the SDK under one name or URI:
// the SDK's descriptor, by which a listed one is known to be ours (the
// caller may have replaced it through the SDK since), and ours, per
// revision.
type described struct {
	sdk  any // *mcp.Tool, *mcp.Prompt, *mcp.Resource or *mcp.ResourceTemplate
	desc wire.Descriptors
}

// listings are the descriptors the adapter added to one server, by kind
// and then by name (tools, prompts) or URI (resources, templates).
type listings struct {
	mu   sync.RWMutex
	byID map[string]map[string]described
	// skills returns the skills served, whose extension the capabilities
	// declare.
	skills func() *wire.Skills
	// search, in tool search mode, names what tools/list lists.
	search *wire.SearchMode
}

// The kinds of listings, named as the list results name their members.
const (
	kindTools     = "tools"
	kindPrompts   = "prompts"
	kindResources = "resources"
	kindTemplates = "resourceTemplates"
)

// add records that sdk, ours serialized as desc, was added under key.
func (l *listings) add(kind, key string, sdk any, desc wire.Descriptors) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.byID == nil {
		l.byID = map[string]map[string]described{}
	}
	if l.byID[kind] == nil {
		l.byID[kind] = map[string]described{}
	}
	l.byID[kind][key] = described{sdk: sdk, desc: desc}
}

// appendItem appends the descriptor listed as sdk under key for revision
// rev: ours when the adapter added it, else the SDK's own, as the SDK
// writes it.
func (l *listings) appendItem(dst []byte, kind, key string, sdk any, rev wire.Revision) ([]byte, error) {
	l.mu.RLock()
	d, ok := l.byID[kind][key]
	l.mu.RUnlock()
	if ok && d.sdk == sdk {
		return append(dst, d.desc.For(rev)...), nil
	}
	js, err := json.Marshal(sdk)
	return append(dst, js...), err
}

// perRevision is the receiving middleware that answers the list methods
// from l, and publishes the capabilities of initialize and server/discover
// per revision ([listings.capabilities]). Every other request passes
// through untouched: the result's type is all it looks at.
func (l *listings) perRevision(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		switch r := res.(type) {
		case *mcp.ListToolsResult:
			return listTools(l, r, requestRevision(req))
		case *mcp.ListPromptsResult:
			return listPrompts(l, r, requestRevision(req))
		case *mcp.ListResourcesResult:
			return listResources(l, r, requestRevision(req))
		case *mcp.ListResourceTemplatesResult:
			return listTemplates(l, r, requestRevision(req))
		case *mcp.InitializeResult:
			if r.Capabilities != nil {
				out := *r
				out.Capabilities = l.capabilities(r.Capabilities, revision(r.ProtocolVersion))
				return &out, nil
			}
		case *mcp.DiscoverResult:
			if r.Capabilities != nil {
				out := *r
				out.Capabilities = l.capabilities(r.Capabilities, wire.Rev20260728)
				return &out, nil
			}
		}
		return res, err
	}
}

// capabilities returns a copy of the capabilities the SDK publishes, as
// revision rev has them: without completions on 2024-11-05, which go-sdk
// publishes on every revision, with the MCP Apps extension when a ui://
// resource was added, and with the skills extension when skills were.
func (l *listings) capabilities(c *mcp.ServerCapabilities, rev wire.Revision) *mcp.ServerCapabilities {
	out := *c
	if !rev.HasCompletions() {
		out.Completions = nil
	}
	app, skills := l.hasApp(), l.skills()
	if app || skills.Len() > 0 {
		out.Extensions = maps.Clone(c.Extensions)
	}
	if app {
		out.AddExtension(mcprt.AppsExtension, nil)
	}
	if skills.Len() > 0 {
		settings := map[string]any{}
		if skills.Directories() {
			settings["directoryRead"] = true
		}
		out.AddExtension(mcprt.SkillsExtension, settings)
	}
	return &out
}

// hasApp reports whether a ui:// resource or template was added.
func (l *listings) hasApp() bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	for _, kind := range []string{kindResources, kindTemplates} {
		for uri := range l.byID[kind] {
			if strings.HasPrefix(uri, "ui://") {
				return true
			}
		}
	}
	return false
}

// requestRevision is the revision req was made on.
func requestRevision(req mcp.Request) wire.Revision {
	if r, ok := req.(interface{ ProtocolVersion() string }); ok {
		return revision(r.ProtocolVersion())
	}
	return wire.LatestRevision
}

// page is a list result the SDK made, written with our descriptors: the
// SDK's result stays embedded, for its methods (result type, _meta,
// caching hints) and its fields, but is not what is sent.
type page struct {
	rev   wire.Revision
	kind  string
	items []byte // the members of the list, comma-separated
	next  string
	meta  *mcp.Meta
	cache *mcp.Cacheable
	typ   func() string // the resultType the SDK set, when it has set one
}

// MarshalJSON writes the list as the built-in server does: the result type
// and caching hints only on 2026-07-28, where the SDK set them, and the
// _meta the SDK added.
func (p *page) MarshalJSON() ([]byte, error) {
	dst := make([]byte, 0, len(p.items)+128)
	dst = append(dst, '{')
	if t := p.typ(); t != "" && p.rev.Stateless() {
		dst = append(jsonx.AppendString(append(dst, `"resultType":`...), t), ',')
	}
	dst = append(append(append(dst, '"'), p.kind...), `":[`...)
	dst = append(append(dst, p.items...), ']')
	if p.next != "" {
		dst = jsonx.AppendString(append(dst, `,"nextCursor":`...), p.next)
	}
	if p.rev.Stateless() {
		dst = jsonx.AppendInt(append(dst, `,"ttlMs":`...), int64(p.cache.TTLMs))
		dst = jsonx.AppendString(append(dst, `,"cacheScope":`...), p.cache.CacheScope)
	}
	if len(*p.meta) > 0 {
		js, err := json.Marshal(*p.meta)
		if err != nil {
			return nil, err
		}
		dst = append(append(dst, `,"_meta":`...), js...)
	}
	return append(dst, '}'), nil
}

// toolPage, promptPage, resourcePage and templatePage are the results of
// the list methods as sent: the SDK's result, for what the SDK and other
// middleware ask of it, written as a [page].
type (
	toolPage struct {
		*mcp.ListToolsResult
		page
	}
	promptPage struct {
		*mcp.ListPromptsResult
		page
	}
	resourcePage struct {
		*mcp.ListResourcesResult
		page
	}
	templatePage struct {
		*mcp.ListResourceTemplatesResult
		page
	}
)

// MarshalJSON writes the page.
func (p *toolPage) MarshalJSON() ([]byte, error) { return p.page.MarshalJSON() }

// MarshalJSON writes the page.
func (p *promptPage) MarshalJSON() ([]byte, error) { return p.page.MarshalJSON() }

// MarshalJSON writes the page.
func (p *resourcePage) MarshalJSON() ([]byte, error) { return p.page.MarshalJSON() }

// MarshalJSON writes the page.
func (p *templatePage) MarshalJSON() ([]byte, error) { return p.page.MarshalJSON() }

// items appends the descriptors of a page's members for rev, each under
// its key.
func items[T any](l *listings, kind string, rev wire.Revision, list []*T, key func(*T) string) ([]byte, error) {
	var dst []byte
	var err error
	for i, v := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, err = l.appendItem(dst, kind, key(v), v, rev); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// listTools, listPrompts, listResources and listTemplates write the page
// r the SDK found with the descriptors l holds for revision rev.
func listTools(l *listings, r *mcp.ListToolsResult, rev wire.Revision) (mcp.Result, error) {
	if l.search != nil && l.search.On() {
		r = l.searchPage(r)
	}
	b, err := items(l, kindTools, rev, r.Tools, func(t *mcp.Tool) string { return t.Name })
	if err != nil {
		return nil, err
	}
	return &toolPage{r, page{rev, kindTools, b, r.NextCursor, &r.Meta, &r.Cacheable, func() string { return string(r.ResultType) }}}, nil
}

func listPrompts(l *listings, r *mcp.ListPromptsResult, rev wire.Revision) (mcp.Result, error) {
	b, err := items(l, kindPrompts, rev, r.Prompts, func(p *mcp.Prompt) string { return p.Name })
	if err != nil {
		return nil, err
	}
	return &promptPage{r, page{rev, kindPrompts, b, r.NextCursor, &r.Meta, &r.Cacheable, func() string { return string(r.ResultType) }}}, nil
}

func listResources(l *listings, r *mcp.ListResourcesResult, rev wire.Revision) (mcp.Result, error) {
	b, err := items(l, kindResources, rev, r.Resources, func(x *mcp.Resource) string { return x.URI })
	if err != nil {
		return nil, err
	}
	return &resourcePage{r, page{rev, kindResources, b, r.NextCursor, &r.Meta, &r.Cacheable, func() string { return string(r.ResultType) }}}, nil
}

func listTemplates(l *listings, r *mcp.ListResourceTemplatesResult, rev wire.Revision) (mcp.Result, error) {
	b, err := items(l, kindTemplates, rev, r.ResourceTemplates, func(x *mcp.ResourceTemplate) string { return x.URITemplate })
	if err != nil {
		return nil, err
	}
	return &templatePage{r, page{rev, kindTemplates, b, r.NextCursor, &r.Meta, &r.Cacheable, func() string { return string(r.ResultType) }}}, nil
}
