package mcpserver

import (
	"encoding/json"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// This file serves primitive groups (SEP-2084) behind Server.Groups.
// Descriptors are serialized without groups when a tool, prompt or
// resource is added; a server serving groups serializes each grouped
// one again, with its groups, the first time it lists it. A server that
// does not serve groups pays nothing for them.

// groupsOn reports whether the server serves groups.
func (s *Server) groupsOn() bool { return s.Groups != nil }

// capabilitiesNow returns the published capabilities, rebuilt first when
// Groups was set or cleared since they were built: the server is created
// before its fields are set.
func (s *Server) capabilitiesNow() *capabilities {
	if c := s.caps.Load(); c.groups != s.groupsOn() {
		s.refreshCapabilities()
	}
	return s.caps.Load()
}

// newGroupedEntry is newEntrySized for a value that may have groups:
// desc is written from strip's copy without them, and, when the value
// has some, appendDesc writes its descriptors with them on first use.
func newGroupedEntry[T any](key string, v T, appendDesc func([]byte, *T, wire.Revision) []byte, size int, hasGroups bool, strip func(*T) T) *entry[T] {
	if !hasGroups {
		return newEntrySized(key, v, appendDesc, size)
	}
	e := &entry[T]{key: key, val: v, grouped: appendDesc}
	plain := strip(&e.val)
	e.desc = wire.NewDescriptors(&plain, appendDesc, size)
	return e
}

// descriptors returns e's descriptors, with its groups when groups is
// set and it has any.
func (e *entry[T]) descriptors(groups bool) *wire.Descriptors {
	if !groups || e.grouped == nil {
		return &e.desc
	}
	if d := e.gdesc.Load(); d != nil {
		return d
	}
	d := wire.NewDescriptors(&e.val, e.grouped, 0)
	e.gdesc.CompareAndSwap(nil, &d)
	return e.gdesc.Load()
}

func newPromptEntry(p mcprt.Prompt) *entry[mcprt.Prompt] {
	return newGroupedEntry(p.Name, p, wire.AppendPrompt, 0, len(p.Groups) > 0,
		func(p *mcprt.Prompt) mcprt.Prompt { c := *p; c.Groups = nil; return c })
}

func newResourceEntry(r mcprt.Resource, appendDesc func([]byte, *mcprt.Resource, wire.Revision) []byte) *entry[mcprt.Resource] {
	return newGroupedEntry(r.URI, r, appendDesc, 0, len(r.Groups) > 0,
		func(r *mcprt.Resource) mcprt.Resource { c := *r; c.Groups = nil; return c })
}

// listGroups answers groups/list: Server.Groups, a name given twice
// listed once (the first that gives a title or description), in one
// page, or pages of Identity.PageSize.
func (s *Server) listGroups(x *exchange, params json.RawMessage) ([]byte, *rpcError) {
	start, err := pageStart(x, params)
	if err != nil {
		return nil, err
	}
	groups := wire.MergeGroups(s.Groups)
	return s.listPage(x, start, "groups", func(dst []byte, rev wire.Revision, start, size int) ([]byte, int, bool) {
		n := len(groups)
		if start > n {
			return dst, 0, false
		}
		end := n
		if size > 0 && start+size < n {
			end = start + size
		}
		for i := start; i < end; i++ {
			if i > start {
				dst = append(dst, ',')
			}
			dst = wire.AppendGroup(dst, &groups[i], rev)
		}
		if end < n {
			return dst, end, true
		}
		return dst, 0, true
	})
}
