package wire

import (
	"encoding/json"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// This file writes the _meta objects of descriptors and resource contents:
// the caller's own Meta with the _meta.ui of MCP Apps merged in. They are
// written once, when a tool or resource is added, so encoding/json's
// sorted maps are cheap enough and make the output deterministic.

// ToolMeta returns the _meta object of t: its Meta with _meta.ui from UI
// and its groups (see withGroups), or nil when there is none of them.
func ToolMeta(t *mcprt.Tool) []byte { return withGroups(toolMeta(t), t.Groups) }

func toolMeta(t *mcprt.Tool) []byte {
	if t.UI == nil {
		return objectOrNil(t.Meta)
	}
	ui := jsonx.AppendString([]byte(`{"resourceUri":`), t.UI.ResourceURI)
	if len(t.UI.Visibility) > 0 {
		ui = appendStrings(append(ui, `,"visibility":`...), t.UI.Visibility)
	}
	return withMember(t.Meta, "ui", append(ui, '}'), true)
}

// PromptMeta returns the _meta object of p, its Meta with its groups, or
// nil when it has neither (a Meta that is no object counts as none).
func PromptMeta(p *mcprt.Prompt) []byte { return withGroups(objectOrNil(p.Meta), p.Groups) }

// ResourceMeta returns the _meta object of r's descriptor: its Meta with
// _meta.ui from UI and its groups, or nil when there is none of them.
func ResourceMeta(r *mcprt.Resource) []byte { return withGroups(resourceMeta(r), r.Groups) }

func resourceMeta(r *mcprt.Resource) []byte {
	if r.UI == nil {
		return objectOrNil(r.Meta)
	}
	return withMember(r.Meta, "ui", AppendResourceUI(nil, r.UI), true)
}

// withGroups returns meta with the membership of a primitive in groups
// (SEP-2084), the array under mcprt.GroupsMetaKey, which replaces one of
// Meta's own; meta itself without groups. The servers give the values
// groups only where the server serves groups.
func withGroups(meta []byte, groups []string) []byte {
	if len(groups) == 0 {
		return meta
	}
	return withMember(meta, mcprt.GroupsMetaKey, appendStrings(nil, groups), true)
}

// ContentsMeta returns the _meta object of contents read from r: the
// contents' own Meta, with r's _meta.ui when the contents have no ui of
// their own.
func ContentsMeta(meta []byte, r *mcprt.Resource) []byte {
	if r.UI == nil {
		return meta
	}
	return withMember(meta, "ui", AppendResourceUI(nil, r.UI), false)
}

// AppendResourceUI appends ui as the object _meta.ui of an app's resource:
// csp, permissions, domain and prefersBorder, each only when set.
func AppendResourceUI(dst []byte, ui *mcprt.ResourceUI) []byte {
	dst = append(dst, '{')
	sep := ""
	csp := []struct {
		name    string
		domains []string
	}{{"connectDomains", ui.ConnectDomains}, {"resourceDomains", ui.ResourceDomains}, {"frameDomains", ui.FrameDomains}, {"baseUriDomains", ui.BaseURIDomains}}
	for _, c := range csp {
		if len(c.domains) == 0 {
			continue
		}
		if sep == "" {
			dst = append(dst, `"csp":{`...)
		}
		dst = jsonx.AppendString(append(dst, sep...), c.name)
		dst = appendStrings(append(dst, ':'), c.domains)
		sep = ","
	}
	if sep != "" {
		dst = append(dst, '}')
	}
	if len(ui.Permissions) > 0 {
		dst = append(dst, sep+`"permissions":{`...)
		for i, p := range ui.Permissions {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(jsonx.AppendString(dst, p), `:{}`...)
		}
		dst = append(dst, '}')
		sep = ","
	}
	if ui.Domain != "" {
		dst = jsonx.AppendString(append(dst, sep+`"domain":`...), ui.Domain)
		sep = ","
	}
	if ui.PrefersBorder != nil {
		dst = jsonx.AppendBool(append(dst, sep+`"prefersBorder":`...), *ui.PrefersBorder)
	}
	return append(dst, '}')
}

func appendStrings(dst []byte, ss []string) []byte {
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendString(dst, s)
	}
	return append(dst, ']')
}

// objectOrNil returns meta when it is a JSON object, else nil: a Meta that
// is no object is not published.
func objectOrNil(meta []byte) []byte {
	var m map[string]json.RawMessage
	if len(meta) == 0 || json.Unmarshal(meta, &m) != nil || m == nil {
		return nil
	}
	return meta
}

// withMember returns the object meta with the member key set to val: in
// place of meta's own when replace is set, else only when meta has none.
// A meta that is no object counts as empty.
func withMember(meta []byte, key string, val []byte, replace bool) []byte {
	var m map[string]json.RawMessage
	if len(meta) > 0 && json.Unmarshal(meta, &m) != nil {
		m = nil
	}
	if _, ok := m[key]; ok && !replace {
		return meta
	}
	if m == nil {
		m = make(map[string]json.RawMessage, 1)
	}
	m[key] = val
	js, err := json.Marshal(m)
	if err != nil {
		return nil // val is always valid JSON: this does not happen
	}
	return js
}
