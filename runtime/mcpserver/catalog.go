package mcpserver

import (
	"sync"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/internal/wire"
)

// entry is a registered tool, prompt, resource or resource template with
// its descriptor serialized for each revision, once, when it is added.
type entry[T any] struct {
	key  string // the name of a tool or prompt, the URI (or template) of a resource
	val  T
	desc wire.Descriptors // without the value's groups
	// grouped, for a value with groups, writes its descriptor with them;
	// gdesc holds those descriptors once a server serving groups lists it
	// (see groups.go).
	grouped func([]byte, *T, wire.Revision) []byte
	gdesc   atomic.Pointer[wire.Descriptors]
}

// newEntry serializes v's descriptor for every revision with appendDesc.
func newEntry[T any](key string, v T, appendDesc func([]byte, *T, wire.Revision) []byte) *entry[T] {
	return newEntrySized(key, v, appendDesc, 0)
}

// newEntrySized is newEntry with the buffer of descriptors made size bytes
// at first.
func newEntrySized[T any](key string, v T, appendDesc func([]byte, *T, wire.Revision) []byte, size int) *entry[T] {
	e := &entry[T]{key: key, val: v}
	e.desc = wire.NewDescriptors(&e.val, appendDesc, size)
	return e
}

// catalog holds the tools, the prompts, the resources or the resource
// templates of a server, in registration order, keyed by name or URI.
//
// The list is copy-on-write: a change makes a new slice and never writes
// into one a reader may hold, so a reader takes the read lock only long
// enough to pick up the slice (or one entry) and walks it unlocked, while
// handlers run. Changes are rare; reads are every request.
type catalog[T any] struct {
	mu    sync.RWMutex
	list  []*entry[T]
	byKey map[string]*entry[T]
	// groups reports whether the server serves groups, so that lists
	// carry each entry's; nil means it does not.
	groups func() bool
}

// add appends entries. A key already taken, in the catalog or by an
// earlier one of entries, adds nothing: add returns the entry holding it
// and the one that came second.
func (c *catalog[T]) add(entries []*entry[T]) (first, second *entry[T]) {
	c.mu.Lock()
	defer c.mu.Unlock()
	seen := make(map[string]*entry[T], len(entries))
	for _, e := range entries {
		old := c.byKey[e.key]
		if old == nil {
			old = seen[e.key]
		}
		if old != nil {
			return old, e
		}
		seen[e.key] = e
	}
	if c.byKey == nil {
		c.byKey = make(map[string]*entry[T])
	}
	list := append(make([]*entry[T], 0, len(c.list)+len(entries)), c.list...)
	for _, e := range entries {
		list = append(list, e)
		c.byKey[e.key] = e
	}
	c.list = list
	return nil, nil
}

// duplicate panics when first is not nil: a second registration of its
// key, made by op (New, AddTools, ...). A server serves one tool or prompt
// of a name, one resource or template of a URI; two are a programming
// error, found as the server is built, as net/http.ServeMux panics for a
// pattern registered twice. A panic keeps New and the Add methods free
// of an error their callers would have to check for this alone.
func duplicate[T any](op, kind, remove string, first, second *entry[T], fn func(*T) any) {
	if first == nil {
		return
	}
	err := wire.Duplicate(kind, first.key, fn(&first.val), fn(&second.val))
	panic("mcpserver: " + op + ": " + err.Error() + "; a server serves one " + kind + " of a " + keyWord(kind) + ": " + remove + " the first to replace it")
}

// keyWord is what names a kind: a URI for resources and templates, a
// name for the others.
func keyWord(kind string) string {
	if kind == "resource" || kind == "resource template" {
		return "URI"
	}
	return "name"
}

// remove removes the entries of keys and reports whether there was any.
func (c *catalog[T]) remove(keys []string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	gone := false
	for _, k := range keys {
		if _, ok := c.byKey[k]; ok {
			delete(c.byKey, k)
			gone = true
		}
	}
	if !gone {
		return false
	}
	list := make([]*entry[T], 0, len(c.byKey))
	for _, e := range c.list {
		if c.byKey[e.key] == e {
			list = append(list, e)
		}
	}
	c.list = list
	return true
}

// get returns the entry of key, or nil.
func (c *catalog[T]) get(key string) *entry[T] {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.byKey[key]
}

// all returns every entry in order. The slice is never written again;
// callers must not write it either.
func (c *catalog[T]) all() []*entry[T] {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.list
}

// appendPage appends the descriptors for rev of up to size entries from
// start (all when size <= 0) as JSON array elements. It returns the offset
// of the next page (0 when this is the last one), and false for a start
// past the end.
func (c *catalog[T]) appendPage(dst []byte, rev wire.Revision, start, size int) ([]byte, int, bool) {
	return appendPage(dst, c.all(), rev, start, size, c.groups != nil && c.groups())
}

func appendPage[T any](dst []byte, list []*entry[T], rev wire.Revision, start, size int, groups bool) ([]byte, int, bool) {
	n := len(list)
	if start > n {
		return dst, 0, false
	}
	end := n
	if size > 0 && start+size < n {
		end = start + size
	}
	ri := rev.Index()
	for i := start; i < end; i++ {
		if i > start {
			dst = append(dst, ',')
		}
		dst = append(dst, list[i].descriptors(groups)[ri]...)
	}
	if end < n {
		return dst, end, true
	}
	return dst, 0, true
}

// pager appends one page of a list, as catalog.appendPage does.
type pager func(dst []byte, rev wire.Revision, start, size int) ([]byte, int, bool)

// pageStart reads the cursor of a list request: the offset of the page
// asked for, 0 without a cursor.
func pageStart(x *exchange, params []byte) (int, *rpcError) {
	if len(params) > 0 && !isNull(params) && params[0] != '{' {
		return 0, errorf(codeInvalidParams, "invalid params: params must be an object")
	}
	cursor := x.meta.cursor
	if cursor == nil || isNull(cursor) {
		return 0, nil
	}
	c, ok := stringValue(cursor)
	if !ok {
		return 0, errorf(codeInvalidParams, "invalid params: cursor must not be a "+describeKind(cursor))
	}
	start, ok := decodeCursor(c)
	if !ok {
		return 0, errorf(codeInvalidParams, "invalid params: invalid cursor")
	}
	return start, nil
}

// listPage answers a list method (tools/list, prompts/list, ...): the page
// at the request's cursor of Identity.PageSize entries under key, with the
// cursor of the next page, and on 2026-07-28 resultType and the caching
// hints.
func (s *Server) listPage(x *exchange, start int, key string, page pager) ([]byte, *rpcError) {
	dst := append(make([]byte, 0, 1024), '{')
	if x.rev.Stateless() {
		dst = append(dst, `"resultType":"complete",`...)
	}
	dst = append(append(append(dst, '"'), key...), `":[`...)
	dst, next, ok := page(dst, x.rev, start, s.id.PageSize)
	if !ok {
		return nil, errorf(codeInvalidParams, "invalid params: invalid cursor")
	}
	dst = append(dst, ']')
	if next > 0 {
		dst = append(dst, `,"nextCursor":"`...)
		dst = append(dst, encodeCursor(next)...)
		dst = append(dst, '"')
	}
	if x.rev.Stateless() {
		dst = append(dst, x.srv.cacheHints().list...)
	}
	return append(dst, '}'), nil
}
