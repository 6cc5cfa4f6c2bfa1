package mcpserver

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// tool is a registered tool and the properties an HTTP client mirrors in
// headers.
type tool struct {
	mcprt.Tool
	headers []headerParam
}

// toolEntry is a tool with its descriptor serialized for each revision.
type toolEntry = entry[tool]

// newToolEntry serializes t's descriptor for every revision into one
// buffer; revisions whose descriptors are equal share the bytes.
func newToolEntry(t mcprt.Tool) *toolEntry {
	return newGroupedEntry(t.Name, tool{Tool: t, headers: headerParams(t.InputSchema)}, appendTool, 3*descriptorSize(&t),
		len(t.Groups) > 0, func(t *tool) tool { c := *t; c.Groups = nil; return c })
}

func appendTool(dst []byte, t *tool, rev wire.Revision) []byte {
	return wire.AppendTool(dst, &t.Tool, rev)
}

// descriptorSize estimates the size of t's largest descriptor: strings
// may grow when escaped, so this is a guess that saves most regrowth.
func descriptorSize(t *mcprt.Tool) int {
	n := 256 + len(t.Name) + 2*len(t.Title) + len(t.Description) + len(t.InputSchema) + len(t.OutputSchema)
	for _, ic := range t.Icons {
		n += 64 + len(ic.Src) + len(ic.MIMEType)
	}
	return n + n/16
}

// registry is the catalog of tools, with the one-page tools/list result of
// each revision, built on use under the catalog's lock.
type registry struct {
	catalog[tool]
	lists [2][wire.NumRevisions][]byte // by whether groups are served, then revision
	// search holds what tool search mode lists (see toolsearch.go).
	search [2][wire.NumRevisions][]byte
}

// add appends tools; a name already taken panics, as duplicate says,
// and adds none of them. op names the method called.
func (r *registry) add(op string, tools []mcprt.Tool) {
	entries := make([]*toolEntry, len(tools))
	for i, t := range tools {
		entries[i] = newToolEntry(t)
	}
	first, second := r.catalog.add(entries)
	duplicate(op, "tool", "RemoveTools", first, second, func(t *tool) any { return t.Handler })
	r.dropLists()
}

// remove removes the tools named names and reports whether there was any.
func (r *registry) remove(names []string) bool {
	if !r.catalog.remove(names) {
		return false
	}
	r.dropLists()
	return true
}

// dropLists forgets the lists built before a change. A list built between
// the change and this is built from the changed catalog, so no list of an
// older catalog outlives the call.
func (r *registry) dropLists() {
	r.mu.Lock()
	r.lists = [2][wire.NumRevisions][]byte{}
	r.search = [2][wire.NumRevisions][]byte{}
	r.mu.Unlock()
}

// lookup finds a tool by the JSON string raw, without allocating when the
// name holds no escapes.
func (r *registry) lookup(raw []byte) *toolEntry {
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') >= 0 {
		name, _ := stringValue(raw)
		return r.get(name)
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.byKey[string(body)]
}

// fullList returns the tools/list result listing every tool for rev. It is
// built on first use after a change and shared by every request until the
// next change; callers must not modify it.
func (r *registry) fullList(rev wire.Revision, hints []byte) []byte {
	ri, gi := rev.Index(), r.groupsIndex()
	r.mu.RLock()
	list := r.lists[gi][ri]
	r.mu.RUnlock()
	if list != nil {
		return list
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lists[gi][ri] == nil {
		r.lists[gi][ri] = r.buildList(rev, hints, gi == 1)
	}
	return r.lists[gi][ri]
}

// groupsIndex is 1 when the server serves groups, else 0.
func (r *registry) groupsIndex() int {
	if r.groups != nil && r.groups() {
		return 1
	}
	return 0
}

// buildList makes the one-page tools/list result for rev; r.mu is held.
func (r *registry) buildList(rev wire.Revision, hints []byte, groups bool) []byte {
	ri := rev.Index()
	n := len(`{"resultType":"complete","tools":[]}`) + len(hints)
	for _, e := range r.list {
		n += len(e.descriptors(groups)[ri]) + 1
	}
	dst := append(make([]byte, 0, n), '{')
	if rev.Stateless() {
		dst = append(dst, `"resultType":"complete",`...)
	}
	dst = append(dst, `"tools":[`...)
	for i, e := range r.list {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, e.descriptors(groups)[ri]...)
	}
	dst = append(dst, ']')
	if rev.Stateless() {
		dst = append(dst, hints...)
	}
	return append(dst, '}')
}

// encodeCursor and decodeCursor make the opaque pagination cursor: the
// offset of the next page, base64 encoded.
func encodeCursor(offset int) string {
	return base64.RawURLEncoding.EncodeToString(strconv.AppendInt([]byte("o"), int64(offset), 10))
}

func decodeCursor(c string) (int, bool) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(b) < 2 || b[0] != 'o' {
		return 0, false
	}
	n, err := strconv.Atoi(string(b[1:]))
	if err != nil || n < 0 || encodeCursor(n) != c {
		return 0, false
	}
	return n, true
}

// listTools answers tools/list: every tool from the shared one-page
// result when pages are unlimited, else the page at the cursor.
func (s *Server) listTools(x *exchange, params json.RawMessage) ([]byte, *rpcError) {
	start, err := pageStart(x, params)
	if err != nil {
		return nil, err
	}
	if s.ToolSearch != nil {
		return s.searchListing(x, start)
	}
	if start == 0 && s.id.PageSize <= 0 {
		return s.tools.fullList(x.rev, s.cacheHints().list), nil
	}
	return s.listPage(x, start, "tools", s.tools.appendPage)
}

// toolOf returns the tool the tools/call of meta names, or nil. It looks
// the tool up once per message; what checks the message before the call
// and the call itself all see the same tool.
func (s *Server) toolOf(meta *requestMeta) *toolEntry {
	if !meta.toolLooked {
		meta.toolLooked = true
		if name := meta.toolName; len(name) >= 2 && name[0] == '"' {
			meta.tool = s.tools.lookup(name)
		}
	}
	return meta.tool
}

// callTool answers tools/call: it runs the tool with a [mcprt.Caller] in
// its context and writes its result for the request's revision.
func (s *Server) callTool(ctx context.Context, x *exchange, params json.RawMessage) ([]byte, *rpcError) {
	name, args := x.meta.toolName, x.meta.toolArgs
	e := s.toolOf(&x.meta)
	// Only a tool that checks its arguments itself is given them unchecked.
	if (e == nil || !e.val.ChecksArguments) && !x.meta.checkArgs() {
		return nil, errParse
	}
	if len(params) > 0 && !isNull(params) && params[0] != '{' {
		return nil, errorf(codeInvalidParams, "invalid params: params must be an object")
	}
	if name == nil || isNull(name) {
		return nil, errorf(codeInvalidParams, "invalid params: tool name is missing")
	}
	if name[0] != '"' {
		return nil, errorf(codeInvalidParams, "invalid params: name must not be a "+describeKind(name))
	}
	if args != nil && isNull(args) {
		args = nil
	}
	if args != nil && args[0] != '{' {
		return nil, errorf(codeInvalidParams, "invalid params: arguments must be an object")
	}
	if e == nil && s.ToolSearch != nil {
		if result, rerr, handled := s.searchCall(ctx, x, name, args, params); handled {
			return result, rerr
		}
	}
	if e == nil {
		n, _ := stringValue(name)
		if n == "" {
			return nil, errorf(codeInvalidParams, "invalid params: tool name is missing")
		}
		return nil, errorf(codeInvalidParams, "invalid params: unknown tool "+strconv.Quote(n))
	}
	if result, rerr, handled := s.taskCall(ctx, x, e, args); handled {
		return result, rerr
	}
	res, panicked := wire.CallToolChecked(x.callerContext(ctx), s.logger(), &e.val.Tool, args)
	if res.IsError && res.Err != nil {
		if rerr, handled := x.urlElicitation(res.Err); handled {
			return nil, rerr
		}
	}
	if res.IsError {
		// Before masking, which drops the error a question failed with.
		x.failedAsking(res.Err)
	}
	if s.MaskErrors && res.IsError && x.meta.checkArgs() {
		res = wire.MaskTool(ctx, s.logger(), e.val.Name, res, panicked)
	}
	if res.IsError && !x.meta.checkArgs() {
		// The tool's decoder failed on arguments that are not JSON.
		return nil, errParse
	}
	x.scratch = getBuffer()
	*x.scratch = wire.AppendResult((*x.scratch)[:0], &res, x.rev)
	if x.rev.Stateless() {
		*x.scratch = insertComplete(*x.scratch)
	}
	return *x.scratch, nil
}

// callerContext is ctx carrying a copy of x's core as the handler's
// Caller; the handler may keep it, and x stays on the caller's stack. When
// ctx is the context of the request's registration for cancellation, the
// copy is kept in the registration and ctx itself carries it, saving two
// allocations; otherwise it is a copy of its own, by mcprt.WithCaller.
func (x *exchange) callerContext(ctx context.Context) context.Context {
	if f := x.running; f != nil && ctx == context.Context(&f.ctx) && f.ctx.caller == nil {
		f.caller = x.exchangeCore
		f.ctx.caller = &f.caller
		return ctx
	}
	caller := new(exchangeCore)
	*caller = x.exchangeCore
	return mcprt.WithCaller(ctx, caller)
}

// describeKind names the kind of the JSON value raw, as encoding/json's
// type errors do.
func describeKind(raw []byte) string {
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

// unmarshalParams decodes params (absent params decode as {}); a failure is
// an invalid params error.
func unmarshalParams(params json.RawMessage, v any) *rpcError {
	if len(params) == 0 || isNull(params) {
		return nil
	}
	if params[0] != '{' {
		return errorf(codeInvalidParams, "invalid params: params must be an object")
	}
	if err := json.Unmarshal(params, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return errorf(codeInvalidParams, "invalid params: "+te.Field+" must not be a "+te.Value)
		}
		return errorf(codeInvalidParams, "invalid params: "+err.Error())
	}
	return nil
}
