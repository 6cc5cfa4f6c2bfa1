package mcptest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcptest"
)

// tool is a tool of any arguments whose handler is h.
func tool(name string, h mcprt.Handler) mcprt.Tool {
	return mcprt.Tool{Name: name, Description: "the " + name + " tool", InputSchema: []byte(`{"type":"object"}`), Handler: h}
}

// echo answers with its arguments as text.
var echo = tool("echo", func(ctx context.Context, args []byte) mcprt.Result {
	return mcprt.TextResult(string(args))
})

// point returns a structured result, and fails when asked to.
var point = mcprt.Tool{
	Name: "point", Description: "a point", InputSchema: []byte(`{"type":"object"}`),
	OutputSchema: []byte(`{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"integer"}}}`),
	Hints:        mcprt.Hints{ReadOnly: new(true)},
	Handler: func(ctx context.Context, args []byte) mcprt.Result {
		if strings.Contains(string(args), "fail") {
			return mcprt.Errorf("no point here")
		}
		return mcprt.StructuredResult([]byte(`{"x":1,"y":2}`))
	},
}

// failure runs step with a testing.TB whose Fatalf ends the step, and
// returns the message it failed with ("" when it did not).
func failure(t *testing.T, step func(tb testing.TB)) string {
	t.Helper()
	f := &fakeTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		step(f)
	}()
	<-done
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.fatal
}

// fakeTB records the first fatal failure instead of failing the test.
type fakeTB struct {
	testing.TB
	mu    sync.Mutex
	fatal string
}

func (f *fakeTB) Fatalf(format string, args ...any) {
	f.mu.Lock()
	if f.fatal == "" {
		f.fatal = fmt.Sprintf(format, args...)
	}
	f.mu.Unlock()
	runtime.Goexit()
}

func (f *fakeTB) Errorf(format string, args ...any) {
	f.Fatalf(format, args...)
}

// TestCallTool calls tools on every revision with arguments of each kind
// CallTool takes, and reads text, structured and failed results.
func TestCallTool(t *testing.T) {
	t.Parallel()
	for _, rev := range mcptest.Revisions() {
		t.Run(rev, func(t *testing.T) {
			c := mcptest.New(t, mcptest.Tools(echo, point), mcptest.Revision(rev))
			if c.Revision() != rev {
				t.Errorf("Revision() = %s, want %s", c.Revision(), rev)
			}
			for _, tc := range []struct {
				args any
				want string
			}{
				{nil, ""},
				{map[string]any{"path": "a"}, `{"path":"a"}`},
				{struct {
					N int `json:"n"`
				}{3}, `{"n":3}`},
				{json.RawMessage(`{"raw":true}`), `{"raw":true}`},
				{[]byte(`{"bytes":1}`), `{"bytes":1}`},
			} {
				if r := c.CallTool("echo", tc.args); r.Text() != tc.want || r.IsError {
					t.Errorf("echo %v = %q (isError %v), want %q", tc.args, r.Text(), r.IsError, tc.want)
				}
			}
			r := c.CallTool("point", nil)
			if r.Text() != `{"x":1,"y":2}` || len(r.Content) != 1 {
				t.Errorf("point text %q, content %v", r.Text(), r.Content)
			}
			if rev >= "2025-06-18" {
				var p struct{ X, Y int }
				r.Decode(&p)
				if p.X != 1 || p.Y != 2 {
					t.Errorf("point decoded to %+v", p)
				}
			} else if r.StructuredContent != nil {
				t.Errorf("revision %s has no structured content, got %s", rev, r.StructuredContent)
			}
			if r := c.CallTool("point", map[string]string{"mode": "fail"}); !r.IsError || r.Text() != "no point here" {
				t.Errorf("failing point = %q (isError %v)", r.Text(), r.IsError)
			}
		})
	}
}

// TestListTools lists every page of the tools with what each publishes.
func TestListTools(t *testing.T) {
	t.Parallel()
	id := mcprt.Identity{Name: "t", Version: "1", PageSize: 1}
	c := mcptest.New(t, mcptest.Tools(echo, point), mcptest.Identity(id))
	tools := c.ListTools()
	if len(tools) != 2 || tools[0].Name != "echo" || tools[1].Name != "point" {
		t.Fatalf("ListTools = %+v", tools)
	}
	p := tools[1]
	if p.Description != "a point" || p.Hints.ReadOnly == nil || !*p.Hints.ReadOnly || p.Hints.Destructive != nil {
		t.Errorf("point listed as %+v", p)
	}
	if string(p.OutputSchema) != string(point.OutputSchema) || string(p.InputSchema) != `{"type":"object"}` {
		t.Errorf("point schemas %s and %s", p.InputSchema, p.OutputSchema)
	}
}

// TestProtocolErrorFailsTest checks that a failed protocol step fails the
// test with the error the server sent, and that Request returns it.
func TestProtocolErrorFailsTest(t *testing.T) {
	t.Parallel()
	for _, rev := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(rev, func(t *testing.T) {
			msg := failure(t, func(tb testing.TB) {
				c := mcptest.New(tb, mcptest.Tools(echo), mcptest.Revision(rev))
				c.CallTool("nope", nil)
			})
			want := `mcptest: tools/call "nope": JSON-RPC error -32602: invalid params: unknown tool "nope"`
			if msg != want {
				t.Errorf("failed with %q, want %q", msg, want)
			}
			c := mcptest.New(t, mcptest.Tools(echo), mcptest.Revision(rev))
			_, err := c.Request("tools/call", map[string]any{"name": "echo", "arguments": []int{1}})
			var e *mcptest.Error
			if !errors.As(err, &e) || e.Code != -32602 || e.Message != "invalid params: arguments must be an object" {
				t.Errorf("Request error %v", err)
			}
		})
	}
	if msg := failure(t, func(tb testing.TB) { mcptest.New(tb, mcptest.Revision("2020-01-01")) }); !strings.Contains(msg, `revision "2020-01-01" is not one the server speaks`) {
		t.Errorf("an unknown revision failed with %q", msg)
	}
	if msg := failure(t, func(tb testing.TB) {
		mcptest.New(tb, mcptest.Tools(echo)).CallTool("echo", json.RawMessage(`{"a":`))
	}); msg != "mcptest: the arguments are not valid JSON: {\"a\":" {
		t.Errorf("malformed raw arguments failed with %q", msg)
	}
}

// asker asks the client everything a handler can ask and says what it
// was told; runs counts its runs.
func asker(runs *int, mu *sync.Mutex) mcprt.Tool {
	return tool("ask", func(ctx context.Context, args []byte) mcprt.Result {
		mu.Lock()
		*runs++
		mu.Unlock()
		e, err := mcprt.Elicit(ctx, "Your name?", []byte(`{"type":"object","properties":{"name":{"type":"string"}}}`))
		if err != nil {
			return mcprt.ErrorResult(err)
		}
		s, err := mcprt.Sample(ctx, mcprt.SampleRequest{Messages: []mcprt.SampleMessage{{Role: "user", Content: mcprt.Text("Say hi")}}, MaxTokens: 5, SystemPrompt: "brief"})
		if err != nil {
			return mcprt.ErrorResult(err)
		}
		roots, err := mcprt.ListRoots(ctx)
		if err != nil {
			return mcprt.ErrorResult(err)
		}
		return mcprt.TextResult(fmt.Sprintf("%s %s; %s (%s); %v", e.Action, e.Content, s.Content.Text, s.Model, roots))
	})
}

// TestAsksAnswered answers elicitation, sampling and roots on both kinds of
// revision: requests to the client on a session, input-required rounds
// on 2026-07-28, where the handler runs again for each question.
func TestAsksAnswered(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rev  string
		runs int
	}{{"2025-11-25", 1}, {"2025-06-18", 1}, {"2026-07-28", 4}} {
		t.Run(tc.rev, func(t *testing.T) {
			var mu sync.Mutex
			runs := 0
			c := mcptest.New(t, mcptest.Tools(asker(&runs, &mu)), mcptest.Revision(tc.rev))
			var asked []string
			c.OnElicit(func(ctx context.Context, message string, schema []byte) (mcprt.ElicitResult, error) {
				asked = append(asked, message+" "+string(schema))
				return mcprt.ElicitResult{Action: mcprt.ActionAccept, Content: []byte(`{"name":"Ada"}`)}, nil
			})
			c.OnSample(func(ctx context.Context, req mcprt.SampleRequest) (mcprt.SampleResult, error) {
				asked = append(asked, fmt.Sprintf("%s %s %d %s", req.Messages[0].Role, req.Messages[0].Content.Text, req.MaxTokens, req.SystemPrompt))
				return mcprt.SampleResult{Content: mcprt.Text("hi"), Model: "m1", StopReason: "endTurn"}, nil
			})
			c.OnRoots(func(ctx context.Context) ([]mcprt.Root, error) {
				asked = append(asked, "roots")
				return []mcprt.Root{{URI: "file:///src", Name: "src"}}, nil
			})
			r := c.CallTool("ask", nil)
			if want := `accept {"name":"Ada"}; hi (m1); [{file:///src src}]`; r.Text() != want || r.IsError {
				t.Errorf("ask = %q (isError %v), want %q", r.Text(), r.IsError, want)
			}
			want := []string{`Your name? {"type":"object","properties":{"name":{"type":"string"}}}`, "user Say hi 5 brief", "roots"}
			if diff := cmp.Diff(want, asked); diff != "" {
				t.Errorf("the handlers were asked (-want +got):\n%s", diff)
			}
			if runs != tc.runs {
				t.Errorf("the tool ran %d times, want %d", runs, tc.runs)
			}
		})
	}
}

// TestAskRefused checks a handler's error: a JSON-RPC error answer on a
// session, which the tool sees; a failed request on 2026-07-28, whose
// answers cannot be errors. A question without a handler is a capability
// the client did not declare.
func TestAskRefused(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	runs := 0
	c := mcptest.New(t, mcptest.Tools(asker(&runs, &mu)))
	c.OnElicit(func(ctx context.Context, message string, schema []byte) (mcprt.ElicitResult, error) {
		return mcprt.ElicitResult{}, errors.New("the user closed the dialog")
	})
	r := c.CallTool("ask", nil)
	if want := "the client answered elicitation/create with error -32603: the user closed the dialog"; !r.IsError || r.Text() != want {
		t.Errorf("refused ask = %q (isError %v), want %q", r.Text(), r.IsError, want)
	}

	msg := failure(t, func(tb testing.TB) {
		c := mcptest.New(tb, mcptest.Tools(asker(&runs, &mu)), mcptest.Revision("2026-07-28"))
		c.OnElicit(func(ctx context.Context, message string, schema []byte) (mcprt.ElicitResult, error) {
			return mcprt.ElicitResult{}, errors.New("the user closed the dialog")
		})
		c.CallTool("ask", nil)
	})
	if !strings.HasPrefix(msg, `mcptest: tools/call "ask": answering input request "elicitation_`) || !strings.HasSuffix(msg, `(elicitation/create): the user closed the dialog`) {
		t.Errorf("a refused 2026-07-28 ask failed with %q", msg)
	}

	c = mcptest.New(t, mcptest.Tools(asker(&runs, &mu)))
	if r := c.CallTool("ask", nil); !r.IsError || r.Text() != "the client did not declare the elicitation capability" {
		t.Errorf("ask without a handler = %q (isError %v)", r.Text(), r.IsError)
	}
	msg = failure(t, func(tb testing.TB) {
		mcptest.New(tb, mcptest.Tools(asker(&runs, &mu)), mcptest.Revision("2026-07-28")).CallTool("ask", nil)
	})
	if want := `mcptest: tools/call "ask": JSON-RPC error -32021: Missing required client capability: elicitation (data {"requiredCapabilities":{"elicitation":{}}})`; msg != want {
		t.Errorf("a 2026-07-28 ask without a handler failed with %q, want %q", msg, want)
	}
}

// TestHandlerAfterStart checks that a capability declared after the
// session started fails the test, while a handler may be replaced.
func TestHandlerAfterStart(t *testing.T) {
	t.Parallel()
	elicit := func(ctx context.Context, message string, schema []byte) (mcprt.ElicitResult, error) {
		return mcprt.ElicitResult{Action: mcprt.ActionDecline}, nil
	}
	msg := failure(t, func(tb testing.TB) {
		c := mcptest.New(tb, mcptest.Tools(echo))
		c.OnElicit(elicit)
		c.CallTool("echo", nil)
		c.OnElicit(elicit)
		c.OnRoots(func(ctx context.Context) ([]mcprt.Root, error) { return nil, nil })
	})
	if want := "mcptest: OnRoots after the first request: the client's capabilities are fixed when the session starts, so set handlers before any call"; msg != want {
		t.Errorf("failed with %q, want %q", msg, want)
	}
}

// chatty reports progress and logs while it runs.
var chatty = tool("chatty", func(ctx context.Context, args []byte) mcprt.Result {
	if err := mcprt.Progress(ctx, 1, 2, "half"); err != nil {
		return mcprt.ErrorResult(err)
	}
	if err := mcprt.Log(ctx, mcprt.LevelDebug, "chatty", map[string]int{"step": 1}); err != nil {
		return mcprt.ErrorResult(err)
	}
	return mcprt.TextResult("done")
})

// TestNotifications captures progress and log messages of a call, list
// changes and the updates of a subscribed resource, on both kinds of
// revision.
func TestNotifications(t *testing.T) {
	t.Parallel()
	res := mcprt.Resource{URI: "mem://a", Name: "a", MIMEType: "text/plain", Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
		return []mcprt.ResourceContents{{Text: "A"}}, nil
	}}
	for _, rev := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(rev, func(t *testing.T) {
			c := mcptest.New(t, mcptest.Tools(chatty), mcptest.Resources(res), mcptest.Revision(rev))
			if r := c.CallTool("chatty", nil); r.Text() != "done" {
				t.Fatalf("chatty = %q", r.Text())
			}
			notes := c.Notifications()
			if len(notes) != 2 || notes[0].Method != "notifications/progress" || notes[1].Method != "notifications/message" {
				t.Fatalf("notifications %+v", notes)
			}
			var p struct {
				Progress, Total float64
				Message         string
			}
			var m struct {
				Level, Logger string
				Data          map[string]int
			}
			if err := notes[0].Decode(&p); err != nil || p.Progress != 1 || p.Total != 2 || p.Message != "half" {
				t.Errorf("progress %s (%v)", notes[0].Params, err)
			}
			if err := notes[1].Decode(&m); err != nil || m.Level != "debug" || m.Logger != "chatty" || m.Data["step"] != 1 {
				t.Errorf("log message %s (%v)", notes[1].Params, err)
			}

			c.Server().AddTools(echo)
			c.Await("notifications/tools/list_changed")
			c.Subscribe("mem://a")
			c.Server().ResourceUpdated("mem://b")
			c.Server().ResourceUpdated("mem://a")
			var u struct{ URI string }
			if err := c.Await("notifications/resources/updated").Decode(&u); err != nil || u.URI != "mem://a" {
				t.Errorf("update of %q (%v), want mem://a", u.URI, err)
			}
			c.Server().AddTools(point)
			c.Await("notifications/tools/list_changed")
		})
	}
}

// TestPromptsResourcesCompletions renders a prompt, reads a static
// resource and a template, completes both kinds of reference, and tests
// a resource not found through Request.
func TestPromptsResourcesCompletions(t *testing.T) {
	t.Parallel()
	names := []string{"Ada", "Alan", "Grace"}
	complete := func(ctx context.Context, argument, value string, args map[string]string) ([]string, error) {
		var out []string
		for _, n := range names {
			if strings.HasPrefix(n, value) {
				out = append(out, n+args["suffix"])
			}
		}
		return out, nil
	}
	greet := mcprt.Prompt{
		Name: "greet", Description: "greets", Arguments: []mcprt.PromptArgument{{Name: "who", Required: true}},
		Get: func(ctx context.Context, args map[string]string) (mcprt.PromptResult, error) {
			return mcprt.PromptResult{Description: "a greeting", Messages: []mcprt.PromptMessage{
				{Role: mcprt.RoleUser, Content: mcprt.Text("Greet " + args["who"])},
				{Role: mcprt.RoleAssistant, Content: mcprt.TextResource("mem://a", "text/plain", "A")},
			}}, nil
		},
		Complete: complete,
	}
	static := mcprt.Resource{URI: "mem://a", Name: "a", MIMEType: "text/plain", Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
		return []mcprt.ResourceContents{{Text: "A"}}, nil
	}}
	files := mcprt.Resource{URI: "mem://files/{name}", Name: "files", MIMEType: "application/octet-stream", Complete: complete,
		Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
			name, ok := strings.CutPrefix(uri, "mem://files/")
			if !ok || name == "missing" {
				return nil, mcprt.ErrNotFound
			}
			return []mcprt.ResourceContents{{Blob: []byte(name)}}, nil
		}}
	for _, tc := range []struct{ rev, notFound string }{
		{"2025-11-25", `JSON-RPC error -32002: Resource not found (data {"uri":"mem://files/missing"})`},
		{"2026-07-28", `JSON-RPC error -32602: Resource not found (data {"uri":"mem://files/missing"})`},
	} {
		t.Run(tc.rev, func(t *testing.T) {
			c := mcptest.New(t, mcptest.Prompts(greet), mcptest.Resources(static, files), mcptest.Revision(tc.rev))
			got := c.GetPrompt("greet", map[string]string{"who": "Ada"})
			want := mcprt.PromptResult{Description: "a greeting", Messages: []mcprt.PromptMessage{
				{Role: mcprt.RoleUser, Content: mcprt.Text("Greet Ada")},
				{Role: mcprt.RoleAssistant, Content: mcprt.TextResource("mem://a", "text/plain", "A")},
			}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("GetPrompt (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]mcprt.ResourceContents{{URI: "mem://a", MIMEType: "text/plain", Text: "A"}}, c.ReadResource("mem://a")); diff != "" {
				t.Errorf("ReadResource mem://a (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]mcprt.ResourceContents{{URI: "mem://files/x", MIMEType: "application/octet-stream", Blob: []byte("x")}}, c.ReadResource("mem://files/x")); diff != "" {
				t.Errorf("ReadResource mem://files/x (-want +got):\n%s", diff)
			}
			if _, err := c.Request("resources/read", map[string]string{"uri": "mem://files/missing"}); err == nil || err.Error() != tc.notFound {
				t.Errorf("reading a missing resource: %v, want %s", err, tc.notFound)
			}
			if got := c.Complete(mcptest.PromptRef("greet"), "who", "A", nil); !cmp.Equal(got, mcptest.Completion{Values: []string{"Ada", "Alan"}, Total: 2}) {
				t.Errorf("Complete prompt = %+v", got)
			}
			if got := c.Complete(mcptest.ResourceRef("mem://files/{name}"), "name", "G", map[string]string{"suffix": "!"}); !cmp.Equal(got.Values, []string{"Grace!"}) {
				t.Errorf("Complete template = %+v", got)
			}
			if msg := failure(t, func(tb testing.TB) {
				mcptest.New(tb, mcptest.Prompts(greet), mcptest.Revision(tc.rev)).GetPrompt("nope", nil)
			}); !strings.HasPrefix(msg, `mcptest: prompts/get "nope": JSON-RPC error -32602: `) {
				t.Errorf("an unknown prompt failed with %q", msg)
			}
		})
	}
}

// TestContentBlocks reads back every kind of content block a tool returns,
// annotations included, and the result's _meta.
func TestContentBlocks(t *testing.T) {
	t.Parallel()
	half := 0.5
	blocks := []mcprt.Content{
		mcprt.Text("text").With(mcprt.Annotations{Audience: []string{"user"}, Priority: &half}),
		mcprt.Image([]byte{0x89, 'P', 'N', 'G'}, "image/png"),
		mcprt.Audio([]byte("RIFF"), "audio/wav"),
		mcprt.ResourceLink("mem://a", "a"),
		mcprt.TextResource("mem://b", "text/plain", "B"),
		mcprt.BlobResource("mem://c", "application/octet-stream", []byte{0, 1}),
	}
	many := tool("many", func(ctx context.Context, args []byte) mcprt.Result {
		return mcprt.Result{Content: blocks, Meta: []byte(`{"k":"v"}`)}
	})
	c := mcptest.New(t, mcptest.Tools(many))
	r := c.CallTool("many", nil)
	if diff := cmp.Diff(blocks, r.Content); diff != "" {
		t.Errorf("content blocks (-want +got):\n%s", diff)
	}
	if r.Text() != "text" || string(r.Meta) != `{"k":"v"}` || r.IsError {
		t.Errorf("text %q, meta %s, isError %v", r.Text(), r.Meta, r.IsError)
	}
	if msg := failure(t, func(tb testing.TB) {
		mcptest.New(tb, mcptest.Tools(many)).CallTool("many", nil).Decode(new(any))
	}); !strings.HasPrefix(msg, "mcptest: the result has no structured content: ") {
		t.Errorf("decoding no structured content failed with %q", msg)
	}
	if _, err := c.Request("tools/list", []int{1}); err == nil || err.Error() != "mcptest: tools/list: params: not a JSON object: [1]" {
		t.Errorf("params that are not an object: %v", err)
	}
}
