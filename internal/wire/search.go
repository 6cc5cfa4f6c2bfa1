package wire

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// This file holds what the three servers share of tool search mode: the
// two tools it lists in place of the catalog, search_tools and
// call_tool, the reading of their arguments and the writing of a
// search's answer.

// The names of the tools of tool search mode.
const (
	SearchToolsName = "search_tools"
	CallToolName    = "call_tool"
)

// Limits of a search: how many tools it returns when the call gives no
// limit, and at most.
const (
	DefaultSearchLimit = 5
	MaxSearchLimit     = 50
)

// The tools' descriptors are short on purpose: a host pays for their
// bytes in every conversation.
const (
	searchToolsDescription = "Finds this server's tools for a task. Returns the best matches with their full descriptions and input schemas. Call a tool found by its name, or through call_tool."
	searchToolsSchema      = `{"type":"object","properties":{"query":{"type":"string","description":"The task, in words"},"limit":{"type":"integer","minimum":1,"maximum":50,"description":"Most tools to return (default 5)"}},"required":["query"],"additionalProperties":false}`
	callToolDescription    = "Calls a tool of this server by name, with its arguments, for a tool that search_tools found."
	callToolSchema         = `{"type":"object","properties":{"name":{"type":"string","description":"The tool's name"},"arguments":{"type":"object","description":"The tool's arguments"}},"required":["name"],"additionalProperties":false}`
)

// SearchToolsTool returns the descriptor of search_tools; its Handler
// is h. A search changes nothing and reaches nothing outside the server.
func SearchToolsTool(h mcprt.Handler) mcprt.Tool {
	return mcprt.Tool{Name: SearchToolsName, Description: searchToolsDescription, InputSchema: []byte(searchToolsSchema),
		Hints: mcprt.Hints{ReadOnly: new(true), Idempotent: new(true), OpenWorld: new(false)}, Handler: h}
}

// CallToolTool returns the descriptor of call_tool; its Handler is h.
// What it does is what the tool it calls does, so it has no hints.
func CallToolTool(h mcprt.Handler) mcprt.Tool {
	return mcprt.Tool{Name: CallToolName, Description: callToolDescription, InputSchema: []byte(callToolSchema), Handler: h}
}

// ParseSearch reads the arguments of search_tools: the query, and the
// limit, DefaultSearchLimit when left out or null.
func ParseSearch(args []byte) (query string, limit int, err error) {
	var a struct {
		Query *string         `json:"query"`
		Limit json.RawMessage `json:"limit"`
	}
	if err := json.Unmarshal(orEmpty(args), &a); err != nil {
		return "", 0, errors.New("invalid arguments: " + err.Error())
	}
	if a.Query == nil {
		return "", 0, errors.New("invalid arguments: query is required: say in words what the tool should do")
	}
	limit = DefaultSearchLimit
	if len(a.Limit) > 0 && string(a.Limit) != "null" {
		n, err := strconv.Atoi(string(a.Limit))
		if err != nil || n < 1 || n > MaxSearchLimit {
			return "", 0, errors.New("invalid arguments: limit: want an integer from 1 to " + strconv.Itoa(MaxSearchLimit) + ", got " + string(a.Limit))
		}
		limit = n
	}
	return *a.Query, limit, nil
}

// ParseCall reads the arguments of call_tool: the name of the tool to
// call, as its JSON string, and its arguments, nil when left out or null.
func ParseCall(args []byte) (name, arguments json.RawMessage, err error) {
	var a struct {
		Name      json.RawMessage `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(orEmpty(args), &a); err != nil {
		return nil, nil, errors.New("invalid arguments: " + err.Error())
	}
	var s string
	if len(a.Name) == 0 || json.Unmarshal(a.Name, &s) != nil || s == "" {
		return nil, nil, errors.New("invalid arguments: name: want the name of a tool, a string")
	}
	if s == SearchToolsName || s == CallToolName {
		return nil, nil, errors.New("invalid arguments: name: call_tool calls the server's tools, not " + s)
	}
	if string(a.Arguments) == "null" {
		a.Arguments = nil
	}
	if a.Arguments != nil && a.Arguments[0] != '{' {
		return nil, nil, errors.New("invalid arguments: arguments: want an object")
	}
	return a.Name, a.Arguments, nil
}

func orEmpty(args []byte) []byte {
	if len(args) == 0 {
		return []byte(`{}`)
	}
	return args
}

// SearchResult is the result of search_tools: one text block holding
// {"tools":[...]}, the descriptors found, best first, as the listing of
// the call's revision writes them.
func SearchResult(descriptors [][]byte) mcprt.Result {
	n := len(`{"tools":[]}`)
	for _, d := range descriptors {
		n += len(d) + 1
	}
	b := append(make([]byte, 0, n), `{"tools":[`...)
	for i, d := range descriptors {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, d...)
	}
	return mcprt.TextResult(string(append(b, "]}"...)))
}

// Pinned returns the names of the tools a search listing shows beside
// its two: those named in pin, then the tools whose Pin is set, each
// once, in the order of tools, and only those of tools.
func Pinned(tools []mcprt.Tool, pin []string) []string {
	var out []string
	for _, t := range tools {
		if (t.Pin || slices.Contains(pin, t.Name)) && t.Name != SearchToolsName && t.Name != CallToolName && !slices.Contains(out, t.Name) {
			out = append(out, t.Name)
		}
	}
	return out
}

// Granted reports whether the verified token of a call, if there is
// one, grants every scope of a tool that call_tool calls: the endpoint
// checked the scopes of call_tool, not of the tool it names.
func Granted(token *mcprt.TokenInfo, scopes []string) bool {
	if token == nil {
		return true
	}
	for _, s := range scopes {
		if !token.HasScope(s) {
			return false
		}
	}
	return true
}

// SearchMode is tool search mode on an adapter: it keeps the tools the
// adapter added, and serves search_tools and call_tool over them, as the
// built-in server does. The zero value keeps tools and searches nothing
// until Set.
type SearchMode struct {
	mu    sync.RWMutex
	on    *searchConfig
	tools map[string]*mcprt.Tool
	order []string // names in the order added
}

// searchConfig is what Set was given, and the index built when it gave
// none.
type searchConfig struct {
	index *mcprt.SearchIndex
	pin   []string
	once  sync.Once
	built *mcprt.SearchIndex
}

// Add keeps tools, replacing those of the same names; their groups are
// left out, as the adapters serve none.
func (m *SearchMode) Add(tools []mcprt.Tool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tools == nil {
		m.tools = map[string]*mcprt.Tool{}
	}
	for i := range tools {
		t := tools[i]
		t.Groups = nil
		if _, ok := m.tools[t.Name]; !ok {
			m.order = append(m.order, t.Name)
		}
		m.tools[t.Name] = &t
	}
}

// Set turns search mode on, ranking with index (nil: one built from the
// tools on the first search) and listing the tools pin names.
func (m *SearchMode) Set(index *mcprt.SearchIndex, pin []string) {
	m.mu.Lock()
	m.on = &searchConfig{index: index, pin: slices.Clone(pin)}
	m.mu.Unlock()
}

// On reports whether search mode is on.
func (m *SearchMode) On() bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.on != nil
}

// Listed returns the names a tools/list lists in search mode: the two
// tools, then the pinned ones.
func (m *SearchMode) Listed() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := []string{SearchToolsName, CallToolName}
	if m.on == nil {
		return out
	}
	tools := make([]mcprt.Tool, 0, len(m.order))
	for _, n := range m.order {
		tools = append(tools, *m.tools[n])
	}
	return append(out, Pinned(tools, m.on.pin)...)
}

func (m *SearchMode) get(name string) *mcprt.Tool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.tools[name]
}

// index returns the index to search with.
func (m *SearchMode) index() *mcprt.SearchIndex {
	m.mu.RLock()
	c := m.on
	m.mu.RUnlock()
	if c == nil {
		return nil
	}
	if c.index != nil {
		return c.index
	}
	c.once.Do(func() {
		m.mu.RLock()
		tools := make([]mcprt.Tool, 0, len(m.order))
		for _, n := range m.order {
			tools = append(tools, *m.tools[n])
		}
		m.mu.RUnlock()
		c.built = mcprt.NewSearchIndex(tools...)
	})
	return c.built
}

// Tools returns search_tools and call_tool, whose handlers run on the
// revision rev says a call's context has.
func (m *SearchMode) Tools(rev func(context.Context) Revision) []mcprt.Tool {
	search := func(ctx context.Context, args []byte) mcprt.Result {
		query, limit, err := ParseSearch(args)
		if err != nil {
			return mcprt.ErrorResult(err)
		}
		ix := m.index()
		r := rev(ctx)
		found := ix.Search(query, limit+8) // a few spare, for names the adapter does not serve
		if len(found) == limit+8 {
			found = ix.Search(query, len(ix.Tools))
		}
		var descs [][]byte
		for _, f := range found {
			if len(descs) == limit {
				break
			}
			if t := m.get(f.Name); t != nil && f.Name != SearchToolsName && f.Name != CallToolName {
				descs = append(descs, AppendTool(nil, t, r))
			}
		}
		return SearchResult(descs)
	}
	call := func(ctx context.Context, args []byte) mcprt.Result {
		name, inner, err := ParseCall(args)
		if err != nil {
			return mcprt.ErrorResult(err)
		}
		var n string
		_ = json.Unmarshal(name, &n) // ParseCall checked it is a string
		t := m.get(n)
		if t == nil {
			return mcprt.ErrorResult(errors.New("unknown tool " + strconv.Quote(n) + "; search_tools finds the tools of this server"))
		}
		if tok, ok := mcprt.Token(ctx); ok && !Granted(&tok, t.Scopes) {
			return mcprt.ErrorResult(errors.New("insufficient scope: tool " + strconv.Quote(n) + " needs the scopes " + strings.Join(t.Scopes, " ")))
		}
		return CallTool(ctx, t, inner)
	}
	return []mcprt.Tool{SearchToolsTool(search), CallToolTool(call)}
}
