package mcpserver

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/internal/fixture"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// textPrompt is a prompt of one user text message.
func textPrompt(name, text string) mcprt.Prompt {
	return mcprt.Prompt{
		Name:        name,
		Description: "Says " + text,
		Get: func(ctx context.Context, args map[string]string) (mcprt.PromptResult, error) {
			return mcprt.PromptResult{Messages: []mcprt.PromptMessage{{Role: mcprt.RoleUser, Content: mcprt.Text(text)}}}, nil
		},
	}
}

// echoPrompt renders its arguments, sorted, as one text message.
var echoPrompt = mcprt.Prompt{
	Name:        "echo",
	Description: "Echoes its arguments.",
	Arguments:   []mcprt.PromptArgument{{Name: "a", Required: true}, {Name: "b"}},
	Get: func(ctx context.Context, args map[string]string) (mcprt.PromptResult, error) {
		var parts []string
		for k, v := range args {
			parts = append(parts, k+"="+v)
		}
		sort.Strings(parts)
		return mcprt.PromptResult{Description: "echoed", Messages: []mcprt.PromptMessage{{Role: mcprt.RoleUser, Content: mcprt.Text(strings.Join(parts, ","))}}}, nil
	},
}

// logBuffer collects what a server logs, for tests that look at it.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// captureLog makes srv log into the returned buffer.
func captureLog(srv *Server) *logBuffer {
	lb := new(logBuffer)
	srv.Logger = slog.New(slog.NewTextHandler(lb, nil))
	return lb
}

func TestPromptsListPagination(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v", PageSize: 2})
	for _, n := range []string{"e", "d", "c", "b", "a"} { // insertion order, not sorted
		srv.AddPrompts(textPrompt(n, n))
	}
	desc := func(n string) string { return `{"name":"` + n + `","description":"Says ` + n + `"}` }
	c := startStdio(t, srv)
	c.initialize(wire.Rev20250618, `{}`)
	c.call(`{"jsonrpc":"2.0","id":1,"method":"prompts/list"}`,
		`{"jsonrpc":"2.0","id":1,"result":{"prompts":[`+desc("e")+`,`+desc("d")+`],"nextCursor":"`+encodeCursor(2)+`"}}`)
	c.call(`{"jsonrpc":"2.0","id":2,"method":"prompts/list","params":{"cursor":"`+encodeCursor(2)+`"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"prompts":[`+desc("c")+`,`+desc("b")+`],"nextCursor":"`+encodeCursor(4)+`"}}`)
	c.call(`{"jsonrpc":"2.0","id":3,"method":"prompts/list","params":{"cursor":"`+encodeCursor(4)+`"}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"prompts":[`+desc("a")+`]}}`)
	c.call(`{"jsonrpc":"2.0","id":4,"method":"prompts/list","params":{"cursor":"`+encodeCursor(6)+`"}}`,
		`{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"invalid params: invalid cursor"}}`)
	c.call(`{"jsonrpc":"2.0","id":5,"method":"prompts/list","params":{"cursor":1}}`,
		`{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"invalid params: cursor must not be a number"}}`)
	// 2026-07-28: the same pages, with resultType and caching hints.
	c.call(`{"jsonrpc":"2.0","id":6,"method":"prompts/list","params":{`+statelessMeta+`,"cursor":"`+encodeCursor(2)+`"}}`,
		`{"jsonrpc":"2.0","id":6,"result":{"resultType":"complete","prompts":[`+desc("c")+`,`+desc("b")+`],"nextCursor":"`+encodeCursor(4)+`","ttlMs":0,"cacheScope":"public"}}`)
}

func TestPromptsListPerRevision(t *testing.T) {
	t.Parallel()
	p := mcprt.Prompt{
		Name: "review", Title: "Review", Description: "Reviews code.",
		Arguments: []mcprt.PromptArgument{{Name: "code", Title: "Code", Description: "The code.", Required: true}},
		Icons:     []mcprt.Icon{{Src: "https://x/i.png"}},
	}
	const old = `{"name":"review","description":"Reviews code.","arguments":[{"name":"code","description":"The code.","required":true}]}`
	const titled = `{"name":"review","title":"Review","description":"Reviews code.","arguments":[{"name":"code","title":"Code","description":"The code.","required":true}]`
	const icons = `,"icons":[{"src":"https://x/i.png"}]}`
	tests := []struct {
		rev  wire.Revision
		want string
	}{
		{wire.Rev20241105, old},
		{wire.Rev20250326, old},
		{wire.Rev20250618, titled + `}`},
		{wire.Rev20251125, titled + icons},
	}
	srv := New(mcprt.Identity{Name: "n", Version: "v"})
	srv.AddPrompts(p)
	for _, tt := range tests {
		t.Run(string(tt.rev), func(t *testing.T) {
			c := startStdio(t, srv)
			c.initialize(tt.rev, `{}`)
			c.call(`{"jsonrpc":"2.0","id":1,"method":"prompts/list"}`, `{"jsonrpc":"2.0","id":1,"result":{"prompts":[`+tt.want+`]}}`)
		})
	}
	c := startStdio(t, srv)
	c.call(`{"jsonrpc":"2.0","id":1,"method":"prompts/list","params":{`+statelessMeta+`}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","prompts":[`+titled+icons+`],"ttlMs":0,"cacheScope":"public"}}`)
}

// TestPromptGetEveryMessageKind checks fixture.Kinds on every
// revision: annotations trimmed, audio and resource links as text where
// the revision lacks them.
func TestPromptGetEveryMessageKind(t *testing.T) {
	t.Parallel()
	const (
		text   = `{"role":"assistant","content":{"type":"text","text":"Hello, Ada"`
		noAnn  = text + `}}`
		ann    = text + `,"annotations":{"audience":["user"],"priority":0.5}}}`
		annAll = text + `,"annotations":{"audience":["user"],"priority":0.5,"lastModified":"2026-01-02T15:04:05Z"}}}`
		image  = `{"role":"user","content":{"type":"image","data":"` + fixture.PNGPixel + `","mimeType":"image/png"}}`
		audio  = `{"role":"user","content":{"type":"audio","data":"AQID","mimeType":"audio/wav"}}`
		noAud  = `{"role":"user","content":{"type":"text","text":"[audio content of type audio/wav, 3 bytes, is not supported by protocol revision 2024-11-05]"}}`
		link   = `{"role":"user","content":{"type":"resource_link","uri":"kb://a","name":"a","description":"Article a","mimeType":"text/markdown"}}`
		noLink = `{"role":"user","content":{"type":"text","text":"resource: kb://a"}}`
		embed  = `{"role":"user","content":{"type":"resource","resource":{"uri":"kb://b","mimeType":"text/plain","text":"embedded"}}}`
		blob   = `{"role":"user","content":{"type":"resource","resource":{"uri":"kb://c","mimeType":"image/png","blob":"` + fixture.PNGPixel + `"}}}`
	)
	tests := []struct {
		rev      wire.Revision
		messages string
	}{
		{wire.Rev20241105, strings.Join([]string{noAnn, image, noAud, noLink, embed, blob}, ",")},
		{wire.Rev20250326, strings.Join([]string{ann, image, audio, noLink, embed, blob}, ",")},
		{wire.Rev20250618, strings.Join([]string{annAll, image, audio, link, embed, blob}, ",")},
		{wire.Rev20251125, strings.Join([]string{annAll, image, audio, link, embed, blob}, ",")},
	}
	srv := New(mcprt.Identity{Name: "n", Version: "v"})
	srv.AddPrompts(fixture.Kinds)
	for _, tt := range tests {
		t.Run(string(tt.rev), func(t *testing.T) {
			c := startStdio(t, srv)
			c.initialize(tt.rev, `{}`)
			c.call(`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"kinds","arguments":{"who":"Ada"}}}`,
				`{"jsonrpc":"2.0","id":1,"result":{"description":"Greets Ada","messages":[`+tt.messages+`]}}`)
		})
	}
	c := startStdio(t, srv)
	c.call(`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{`+statelessMeta+`,"name":"kinds","arguments":{"who":"Ada"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","description":"Greets Ada","messages":[`+tests[3].messages+`]}}`)
}

func TestPromptGetArguments(t *testing.T) {
	t.Parallel()
	strict := mcprt.Prompt{Name: "strict", Description: "Checks its arguments.",
		Get: func(ctx context.Context, args map[string]string) (mcprt.PromptResult, error) {
			return mcprt.PromptResult{}, fmt.Errorf("rendering: %w", &mcpimpl.ArgumentError{Problems: []mcpimpl.Problem{
				{Path: "n", Message: `expected integer, got "x"`}, {Path: "m", Message: "required"}}})
		}}
	srv := New(mcprt.Identity{Name: "n", Version: "v"})
	logs := captureLog(srv)
	srv.AddPrompts(echoPrompt, strict, fixture.Failing, fixture.Boom, mcprt.Prompt{Name: "noget", Description: "No Get."})
	c := startStdio(t, srv)
	c.initialize(wire.Rev20251125, `{}`)
	tests := []struct{ name, params, answer string }{
		{"arguments", `{"name":"echo","arguments":{"a":"1","b":"two \"quoted\""}}`,
			`"result":{"description":"echoed","messages":[{"role":"user","content":{"type":"text","text":"a=1,b=two \"quoted\""}}]}`},
		{"no arguments", `{"name":"echo"}`, `"result":{"description":"echoed","messages":[{"role":"user","content":{"type":"text","text":""}}]}`},
		{"null arguments", `{"name":"echo","arguments":null}`, `"result":{"description":"echoed","messages":[{"role":"user","content":{"type":"text","text":""}}]}`},
		{"argument error", `{"name":"strict","arguments":{"n":"x"}}`,
			`"error":{"code":-32602,"message":"rendering: invalid arguments:\nn: expected integer, got \"x\"\nm: required"}`},
		{"other error", `{"name":"failing"}`, `"error":{"code":-32603,"message":"template store unavailable"}`},
		{"panic", `{"name":"boom"}`, `"error":{"code":-32603,"message":"internal error: prompt \"boom\" panicked: kaputt"}`},
		{"no Get", `{"name":"noget"}`, `"error":{"code":-32603,"message":"internal error: prompt \"noget\" has no Get function"}`},
		{"unknown", `{"name":"nope"}`, `"error":{"code":-32602,"message":"invalid params: unknown prompt \"nope\""}`},
		{"no name", `{}`, `"error":{"code":-32602,"message":"invalid params: prompt name is missing"}`},
		{"name not a string", `{"name":7}`, `"error":{"code":-32602,"message":"invalid params: name must not be a number"}`},
		{"arguments not an object", `{"name":"echo","arguments":["a"]}`, `"error":{"code":-32602,"message":"invalid params: arguments must be an object"}`},
		{"argument not a string", `{"name":"echo","arguments":{"a":1}}`, `"error":{"code":-32602,"message":"invalid params: argument \"a\" must be a string, not a number"}`},
		{"params not an object", `"echo"`, `"error":{"code":-32602,"message":"invalid params: params must be an object"}`},
		{"still serving after a panic", `{"name":"echo","arguments":{"a":"x"}}`,
			`"result":{"description":"echoed","messages":[{"role":"user","content":{"type":"text","text":"a=x"}}]}`},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.t = t
			c.call(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"prompts/get","params":%s}`, i, tt.params),
				fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,%s}`, i, tt.answer))
		})
	}
	if l := logs.String(); !strings.Contains(l, "mcp prompt handler panicked") || !strings.Contains(l, "kaputt") || !strings.Contains(l, "goroutine") {
		t.Errorf("the panic is not logged with its stack by the server's logger: %q", l)
	}
}

// TestPromptsCapabilityFollowsRegistration checks that prompts are
// published, and their methods served, exactly while the server has some
// (or promises notifications of them).
func TestPromptsCapabilityFollowsRegistration(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v"})
	c := startStdio(t, srv)
	c.call(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"n","version":"v"}}}`)
	for _, m := range []string{"prompts/list", "prompts/get"} {
		c.call(`{"jsonrpc":"2.0","id":2,"method":"`+m+`","params":{"name":"a"}}`,
			`{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"method not found: `+m+`"}}`)
	}
	srv.AddPrompts(textPrompt("a", "A"))
	c.call(`{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"a"}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"messages":[{"role":"user","content":{"type":"text","text":"A"}}]}}`)
	c.call(`{"jsonrpc":"2.0","id":4,"method":"server/discover","params":{`+statelessMeta+`}}`,
		`{"jsonrpc":"2.0","id":4,"result":{"resultType":"complete","supportedVersions":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"],"capabilities":{"prompts":{},"tools":{}},"ttlMs":0,"cacheScope":"public","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"n","version":"v"}}}}`)
	srv.RemovePrompts("a", "never-there")
	c.call(`{"jsonrpc":"2.0","id":5,"method":"prompts/list"}`,
		`{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"method not found: prompts/list"}}`)

	// With notifications promised, an empty list is served.
	srv = New(mcprt.Identity{Name: "n", Version: "v", EnablePromptNotifications: true})
	c = startStdio(t, srv)
	c.call(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2024-11-05","capabilities":{"prompts":{"listChanged":true},"tools":{}},"serverInfo":{"name":"n","version":"v"}}}`)
	c.call(`{"jsonrpc":"2.0","id":2,"method":"prompts/list"}`, `{"jsonrpc":"2.0","id":2,"result":{"prompts":[]}}`)
}

// TestPromptReplacedAfterRemove checks that a prompt removed may be
// added again, at the end of the list.
func TestPromptReplacedAfterRemove(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v"})
	srv.AddPrompts(textPrompt("a", "A"), textPrompt("b", "B"))
	srv.RemovePrompts("a")
	srv.AddPrompts(textPrompt("a", "A2"))
	c := startStdio(t, srv)
	c.initialize(wire.Rev20250618, `{}`)
	c.call(`{"jsonrpc":"2.0","id":1,"method":"prompts/list"}`,
		`{"jsonrpc":"2.0","id":1,"result":{"prompts":[{"name":"b","description":"Says B"},{"name":"a","description":"Says A2"}]}}`)
}

// TestPromptAndReadHandlersReachTheClient checks that prompt and resource
// handlers find the client in their context (progress here) and are
// cancelled by notifications/cancelled, as tool handlers are.
func TestPromptAndReadHandlersReachTheClient(t *testing.T) {
	t.Parallel()
	started, cancelled := make(chan struct{}), make(chan struct{})
	srv := New(mcprt.Identity{Name: "n", Version: "v"})
	srv.AddPrompts(mcprt.Prompt{Name: "slow", Description: "Reports progress.",
		Get: func(ctx context.Context, args map[string]string) (mcprt.PromptResult, error) {
			if err := mcprt.Progress(ctx, 1, 2, "half"); err != nil {
				return mcprt.PromptResult{}, err
			}
			return mcprt.PromptResult{Messages: []mcprt.PromptMessage{{Content: mcprt.Text("done")}}}, nil
		}})
	srv.AddResources(mcprt.Resource{URI: "x://block", Name: "block",
		Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
			close(started)
			<-ctx.Done()
			close(cancelled)
			return nil, ctx.Err()
		}})
	c := startStdio(t, srv)
	c.initialize(wire.Rev20250618, `{}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"slow","_meta":{"progressToken":7}}}`)
	c.expect(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":1,"total":2,"message":"half"}}`)
	c.expect(`{"jsonrpc":"2.0","id":1,"result":{"messages":[{"role":"user","content":{"type":"text","text":"done"}}]}}`)
	c.send(`{"jsonrpc":"2.0","id":"r","method":"resources/read","params":{"uri":"x://block"}}`)
	<-started
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"r"}}`)
	<-cancelled
	c.call(ping, pong) // the cancelled read is not answered
}

// TestConcurrentChanges reads prompts and resources while they are added
// and removed, for the race detector, and checks that the capabilities
// published at the end follow what is registered.
func TestConcurrentChanges(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v", PageSize: 3})
	ctx := context.Background()
	conn := srv.Connect(ctx, func([]byte) error { return nil })
	defer conn.Close()
	conn.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`))
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 50 {
				name := fmt.Sprintf("p%d-%d", w, i) // a name is added once
				srv.AddPrompts(textPrompt(name, name))
				srv.AddResources(textResource("x://"+name, name), mcprt.Resource{URI: "x://" + name + "/{id}", Name: name, Read: dataTemplate.Read})
				if i%2 == 1 {
					srv.RemovePrompts(name)
					srv.RemoveResources("x://"+name, "x://"+name+"/{id}")
				}
			}
		})
		wg.Go(func() {
			for i := range 50 {
				name := fmt.Sprintf("p%d-%d", (w+1)%4, i%5)
				for _, req := range []string{
					`{"jsonrpc":"2.0","id":1,"method":"prompts/list"}`,
					`{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"` + name + `"}}`,
					`{"jsonrpc":"2.0","id":3,"method":"resources/list","params":{"cursor":"` + encodeCursor(3) + `"}}`,
					`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"test://template/1/data"}}`,
				} {
					if resp := conn.Handle(ctx, []byte(req)); !strings.Contains(string(resp), `"result"`) && !strings.Contains(string(resp), `"code":-32`) {
						t.Errorf("%s: %s", req, resp)
					}
				}
			}
		})
	}
	wg.Wait()
	srv.RemovePrompts(namesOf(srv.prompts.all())...)
	srv.RemoveResources(namesOf(srv.resources.all())...)
	srv.RemoveResources(namesOf(srv.templates.all())...)
	if c := srv.caps.Load(); c.prompts || c.resources {
		t.Errorf("with nothing registered the capabilities publish prompts %v, resources %v", c.prompts, c.resources)
	}
}

func namesOf[T any](entries []*entry[T]) []string {
	var keys []string
	for _, e := range entries {
		keys = append(keys, e.key)
	}
	return keys
}
