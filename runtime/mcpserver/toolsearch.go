package mcpserver

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// ToolSearch is tool search mode, for a server whose tools cost a
// model's context too much to list: tools/list lists two tools and the
// pinned ones, instead of every tool.
//
//   - search_tools(query, limit) returns the tools that fit a task, best
//     first, with their full descriptors as tools/list would write them;
//     limit defaults to 5 and is at most 50.
//   - call_tool(name, arguments) calls a tool by name, for clients that
//     only call what they listed. It runs as a call of the tool itself:
//     its scopes are checked, and it may run as a task.
//
// Every tool is still called by its own name. A server's own tool named
// search_tools or call_tool gives way to these.
type ToolSearch struct {
	// Index ranks the tools: a package's generated MCPSearchIndex, which
	// costs nothing to start. Nil builds one from the server's tools on
	// the first search (mcprt.NewSearchIndex). Tools the index names but
	// the server does not serve are not found.
	Index *mcprt.SearchIndex
	// Pin names tools listed beside the two, as the pin key of
	// //mcp:tool (mcprt.Tool.Pin) does.
	Pin []string
}

// searchState is what tool search mode keeps: the index it built when
// ToolSearch.Index was nil.
type searchState struct {
	once  sync.Once
	built *mcprt.SearchIndex
}

// searchIndex returns the index of ToolSearch, or the one built from the
// server's tools.
func (s *Server) searchIndex() *mcprt.SearchIndex {
	if ix := s.ToolSearch.Index; ix != nil {
		return ix
	}
	s.search.once.Do(func() {
		all := s.tools.all()
		tools := make([]mcprt.Tool, len(all))
		for i, e := range all {
			tools[i] = e.val.Tool
		}
		s.search.built = mcprt.NewSearchIndex(tools...)
	})
	return s.search.built
}

// searchListing answers tools/list in tool search mode: one page of
// search_tools, call_tool and the pinned tools, built once per revision
// until the tools change.
func (s *Server) searchListing(x *exchange, start int) ([]byte, *rpcError) {
	if start != 0 {
		return nil, errorf(codeInvalidParams, "invalid params: invalid cursor")
	}
	r := &s.tools
	ri, gi := x.rev.Index(), r.groupsIndex()
	r.mu.RLock()
	list := r.search[gi][ri]
	r.mu.RUnlock()
	if list != nil {
		return list, nil
	}
	list = s.buildSearchListing(x.rev, gi == 1)
	r.mu.Lock()
	if r.search[gi][ri] == nil {
		r.search[gi][ri] = list
	}
	list = r.search[gi][ri]
	r.mu.Unlock()
	return list, nil
}

// buildSearchListing writes the tools/list result of tool search mode
// for rev.
func (s *Server) buildSearchListing(rev wire.Revision, groups bool) []byte {
	dst := []byte{'{'}
	if rev.Stateless() {
		dst = append(dst, `"resultType":"complete",`...)
	}
	dst = append(dst, `"tools":[`...)
	search, call := wire.SearchToolsTool(nil), wire.CallToolTool(nil)
	dst = wire.AppendTool(dst, &search, rev)
	dst = wire.AppendTool(append(dst, ','), &call, rev)
	all := s.tools.all()
	tools := make([]mcprt.Tool, len(all))
	for i, e := range all {
		tools[i] = e.val.Tool
	}
	for _, name := range wire.Pinned(tools, s.ToolSearch.Pin) {
		if e := s.tools.get(name); e != nil {
			dst = append(append(dst, ','), e.descriptors(groups)[rev.Index()]...)
		}
	}
	dst = append(dst, ']')
	if rev.Stateless() {
		dst = append(dst, s.cacheHints().list...)
	}
	return append(dst, '}')
}

// searchCall answers a tools/call of search_tools or call_tool in tool
// search mode, and reports whether name was one of them. name is the
// call's name as JSON; args its arguments.
func (s *Server) searchCall(ctx context.Context, x *exchange, name, args, params []byte) ([]byte, *rpcError, bool) {
	n, _ := stringValue(name)
	switch n {
	case wire.SearchToolsName:
		return s.searchTools(x, args), nil, true
	case wire.CallToolName:
		inner, innerArgs, err := wire.ParseCall(args)
		if err != nil {
			return s.toolError(x, err.Error()), nil, true
		}
		e := s.tools.lookup(inner)
		if e == nil {
			n, _ := stringValue(inner)
			return s.toolError(x, "unknown tool "+strconv.Quote(n)+"; search_tools finds the tools of this server"), nil, true
		}
		if !wire.Granted(x.token, e.val.Scopes) {
			return nil, errorf(codeInvalidParams, "invalid params: the token lacks a scope tool "+strconv.Quote(e.key)+" needs"), true
		}
		// The call goes on as a call of the inner tool, by name, which is
		// the tool the message now names.
		x.meta.toolName, x.meta.toolArgs, x.meta.argsUnchecked = inner, innerArgs, false
		x.meta.tool, x.meta.toolLooked = e, true
		result, rerr := s.callTool(ctx, x, params)
		return result, rerr, true
	}
	return nil, nil, false
}

// searchTools runs search_tools: the descriptors of the tools found, as
// the call's revision lists them.
func (s *Server) searchTools(x *exchange, args []byte) []byte {
	query, limit, err := wire.ParseSearch(args)
	if err != nil {
		return s.toolError(x, err.Error())
	}
	ix := s.searchIndex()
	groups := s.groupsOn()
	found := ix.Search(query, limit+8) // a few spare, for names the server does not serve
	if len(found) == limit+8 {
		found = ix.Search(query, len(ix.Tools))
	}
	var descs [][]byte
	for _, f := range found {
		if len(descs) == limit {
			break
		}
		if f.Name == wire.SearchToolsName || f.Name == wire.CallToolName {
			continue
		}
		if e := s.tools.get(f.Name); e != nil {
			descs = append(descs, e.descriptors(groups)[x.rev.Index()])
		}
	}
	res := wire.SearchResult(descs)
	return x.withResultType(wire.AppendResult(nil, &res, x.rev))
}

// toolError is the result of a call that failed for the model to see.
func (s *Server) toolError(x *exchange, msg string) []byte {
	res := mcprt.Result{IsError: true, Content: []mcprt.Content{mcprt.Text(msg)}}
	return x.withResultType(wire.AppendResult(nil, &res, x.rev))
}

// callToolScopes returns, for a call of call_tool in tool search mode,
// the scopes of the tool it calls, which the HTTP endpoint checks before
// the call as it checks a tool called by name.
func (s *Server) callToolScopes(m *message) ([]string, bool) {
	if s.ToolSearch == nil || string(m.meta.toolName) != `"`+wire.CallToolName+`"` {
		return nil, false
	}
	var a struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(m.meta.toolArgs, &a) != nil {
		return nil, true
	}
	if e := s.tools.get(a.Name); e != nil {
		return e.val.Scopes, true
	}
	return nil, true
}
