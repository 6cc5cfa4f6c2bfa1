package servertest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	. "github.com/mcpgen/mcpgen/internal/fixture"
	. "github.com/mcpgen/mcpgen/internal/servertest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// nameSchema is the schema of a form asking for a name.
const nameSchema = `{"type":"object","properties":{"name":{"type":"string"}}}`

// stepper is a handler that asks one question of each kind in turn (the
// roots last, unless noRoots) and records, for each of its runs, the
// steps it got past.
type stepper struct {
	noRoots bool
	mu      sync.Mutex
	runs    [][]string
}

// steps are the steps of a stepper's run that answers every question.
func (s *stepper) steps() []string {
	if s.noRoots {
		return []string{"start", "form", "url", "sample"}
	}
	return []string{"start", "form", "url", "sample", "roots"}
}

// wantRuns are the steps of each run when every question is answered: one
// run on a session, one more for each question on 2026-07-28, where a run
// ends at the first question not answered yet.
func (s *stepper) wantRuns(rev string) [][]string {
	all := s.steps()
	if rev != "2026-07-28" {
		return [][]string{all}
	}
	var runs [][]string
	for i := 1; i <= len(all); i++ {
		runs = append(runs, all[:i])
	}
	return runs
}

func (s *stepper) step(run int, name string) {
	s.mu.Lock()
	s.runs[run] = append(s.runs[run], name)
	s.mu.Unlock()
}

func (s *stepper) tool() mcprt.Tool {
	return mcprt.Tool{Name: "steps", InputSchema: []byte(`{"type":"object"}`), Handler: func(ctx context.Context, _ []byte) mcprt.Result {
		s.mu.Lock()
		run := len(s.runs)
		s.runs = append(s.runs, []string{"start"})
		s.mu.Unlock()
		form, err := mcprt.Elicit(ctx, "Your name?", []byte(nameSchema))
		if err != nil {
			return mcprt.ErrorResult(err)
		}
		s.step(run, "form")
		page, _, err := mcprt.ElicitURL(ctx, "Grant access", "https://example.com/consent")
		if err != nil {
			return mcprt.ErrorResult(err)
		}
		s.step(run, "url")
		sample, err := mcprt.Sample(ctx, mcprt.SampleRequest{Messages: []mcprt.SampleMessage{{Role: "user", Content: mcprt.Text("Hi")}}, MaxTokens: 5})
		if err != nil {
			return mcprt.ErrorResult(err)
		}
		s.step(run, "sample")
		var roots []mcprt.Root
		if !s.noRoots {
			if roots, err = mcprt.ListRoots(ctx); err != nil {
				return mcprt.ErrorResult(err)
			}
			s.step(run, "roots")
		}
		return mcprt.TextResult(fmt.Sprintf("%s %s %s %s %v", form.Action, form.Content, page.Action, sample.Content.Text, roots))
	}}
}

// asked records what go-sdk's client was asked.
type asked struct {
	mu   sync.Mutex
	what []string
}

func (a *asked) add(format string, args ...any) {
	a.mu.Lock()
	a.what = append(a.what, fmt.Sprintf(format, args...))
	a.mu.Unlock()
}

// askedClient is go-sdk's client with every capability, answering each
// question and recording it in a.
func askedClient(a *asked) *mcp.Client {
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{
			Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}},
			Sampling:    &mcp.SamplingCapabilities{},
			RootsV2:     &mcp.RootCapabilities{},
		},
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			if req.Params.Mode == "url" {
				a.add("url %s %s", req.Params.Message, req.Params.URL)
				return &mcp.ElicitResult{Action: "accept"}, nil
			}
			a.add("form %s %s", req.Params.Message, canonical(req.Params.RequestedSchema))
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
		},
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			a.add("sample %s", req.Params.Messages[0].Content.(*mcp.TextContent).Text)
			return &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: &mcp.TextContent{Text: "hello"}}, nil
		},
	})
	c.AddRoots(&mcp.Root{URI: "file:///src", Name: "src"})
	return c
}

// canonical is the JSON of v, or of the JSON text v holds, with the
// members of each object sorted.
func canonical(v any) string {
	if s, ok := v.(string); ok {
		_ = json.Unmarshal([]byte(s), &v)
	}
	js, _ := json.Marshal(v)
	return string(js)
}

// TestQuestionsOn2026: on 2026-07-28 a handler asks go-sdk's client on
// every path as on a session: a form and a URL elicitation, a sample and
// the roots, each question in an input-required result. Each retry runs
// the handler again from the start, with the answers so far. go-sdk's
// client cannot read the roots question mcp-go writes (no params), so on
// mcp-go the roots are asked in TestQuestionsOn2026Raw.
func TestQuestionsOn2026(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		for _, rev := range []string{"2025-11-25", "2026-07-28"} {
			s := &stepper{noRoots: m.pkg == "mcpgo" && rev == "2026-07-28"}
			a := new(asked)
			srv := m.new(mcprt.Identity{Name: "t", Version: "1", EnableElicitation: true, EnableSampling: true}, s.tool())
			cs := ConnectClient(t, askedClient(a), srv.transport(t), rev)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "steps", Arguments: map[string]any{}})
			if err != nil {
				t.Fatalf("%s: %v", rev, err)
			}
			want := `accept {"name":"Ada"} accept hello [{file:///src src}]`
			if s.noRoots {
				want = `accept {"name":"Ada"} accept hello []`
			}
			if got := res.Content[0].(*mcp.TextContent).Text; res.IsError || got != want {
				t.Errorf("%s: the handler answered %q (isError %v), want %q", rev, got, res.IsError, want)
			}
			wantAsked := []string{"form Your name? " + canonical(nameSchema), "url Grant access https://example.com/consent", "sample Hi"}
			if d := cmp.Diff(wantAsked, a.what); d != "" {
				t.Errorf("%s: the client was asked (-want +got):\n%s", rev, d)
			}
			if d := cmp.Diff(s.wantRuns(rev), s.runs); d != "" {
				t.Errorf("%s: the handler's runs (-want +got):\n%s", rev, d)
			}
		}
	})
}

// TestQuestionsOn2026Raw: the questions of TestQuestionsOn2026 as every
// path writes them on 2026-07-28, answered by a client that follows the
// schema: the same keys and params everywhere, the roots included, and
// the handler run again from the start for each answer.
func TestQuestionsOn2026Raw(t *testing.T) {
	var want []string // the input requests of the built-in server, in order
	// Not parallel: each path compares with what the built-in server's
	// subtest, which runs first, recorded.
	run(t, func(t *testing.T, m *mode) {
		s := new(stepper)
		srv := m.new(mcprt.Identity{Name: "t", Version: "1", EnableElicitation: true, EnableSampling: true}, s.tool())
		c := srv.raw(t, "2026-07-28", `{"elicitation":{"form":{},"url":{}},"sampling":{},"roots":{}}`)
		var got []string
		res, rounds := c.CallRounds("tools/call", `{"name":"steps","arguments":{}}`, func(method string, params []byte) string {
			if method == "roots/list" && params == nil {
				params = []byte(`{}`) // mcp-go leaves out the params roots/list may go without
			}
			// go-sdk writes the mode a form elicitation has by default.
			got = append(got, method+" "+strings.Replace(canonical(string(params)), `"mode":"form",`, "", 1))
			switch {
			case method == "roots/list":
				return `{"roots":[{"uri":"file:///src","name":"src"}]}`
			case method == "sampling/createMessage":
				return `{"role":"assistant","content":{"type":"text","text":"hello"},"model":"m"}`
			case strings.Contains(string(params), `"url"`):
				return `{"action":"accept"}`
			}
			return `{"action":"accept","content":{"name":"Ada"}}`
		})
		if !strings.Contains(res, `accept {\"name\":\"Ada\"} accept hello [{file:///src src}]`) || rounds != 4 {
			t.Errorf("after %d rounds: %s", rounds, res)
		}
		if m == builtinMode {
			want = got
		} else if d := cmp.Diff(want, got); d != "" {
			t.Errorf("input requests (-built-in +got):\n%s", d)
		}
		if d := cmp.Diff(s.wantRuns("2026-07-28"), s.runs); d != "" {
			t.Errorf("the handler's runs (-want +got):\n%s", d)
		}
	}, notParallel{})
}

// TestPromptsAndReadsAskOn2026: a prompt asks on 2026-07-28 on every
// path, and a resource read where the SDK lets it: mcp-go's read handlers
// return contents, not a result that asks for input.
func TestPromptsAndReadsAskOn2026(t *testing.T) {
	greet := func(ctx context.Context) (string, error) {
		r, err := mcprt.Elicit(ctx, "Your name?", []byte(nameSchema))
		if err != nil {
			return "", err
		}
		var ans struct{ Name string }
		_ = json.Unmarshal(r.Content, &ans)
		return "Hello, " + ans.Name, nil
	}
	prompt := mcprt.Prompt{Name: "greet", Description: "Greets the user.", Get: func(ctx context.Context, _ map[string]string) (mcprt.PromptResult, error) {
		text, err := greet(ctx)
		return mcprt.PromptResult{Messages: []mcprt.PromptMessage{{Role: mcprt.RoleUser, Content: mcprt.Text(text)}}}, err
	}}
	resource := mcprt.Resource{URI: "test://greeting", Name: "greeting", Read: func(ctx context.Context, _ string) ([]mcprt.ResourceContents, error) {
		text, err := greet(ctx)
		return []mcprt.ResourceContents{{Text: text}}, err
	}}
	run(t, func(t *testing.T, m *mode) {
		srv := m.new(mcprt.Identity{Name: "t", Version: "1", EnableElicitation: true})
		srv.addPrompts(prompt)
		srv.addResources(resource)
		a := new(asked)
		cs := ConnectClient(t, askedClient(a), srv.transport(t), "2026-07-28")
		ctx := context.Background()
		p, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "greet"})
		if err != nil || p.Messages[0].Content.(*mcp.TextContent).Text != "Hello, Ada" {
			t.Errorf("prompts/get: %v %+v", err, p)
		}
		r, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://greeting"})
		if m.pkg == "mcpgo" {
			if err == nil || !strings.Contains(err.Error(), "elicitation is not available here") {
				t.Errorf("resources/read on mcp-go: %v %+v, want the error that reads cannot ask", err, r)
			}
		} else if err != nil || r.Contents[0].Text != "Hello, Ada" {
			t.Errorf("resources/read: %v %+v", err, r)
		}
	})
}

// nameTool asks the user's name under the key user_name and greets them.
var nameTool = mcprt.Tool{Name: "name", InputSchema: []byte(`{"type":"object"}`), Handler: func(ctx context.Context, _ []byte) mcprt.Result {
	r, err := mcprt.Elicit(mcprt.WithInputKey(ctx, "user_name"), "Your name?", []byte(nameSchema))
	if err != nil {
		return mcprt.ErrorResult(err)
	}
	return mcprt.TextResult(r.Action + " " + string(r.Content))
}}

// TestRequestStateOn2026: the request state of a 2026-07-28 question is
// sealed for its request on every path: altered, or sent with another
// tool, it is refused, as invalid params where the SDK lets a handler say
// so (mcp-go answers an internal error); an answer that is no result of
// its question is refused the same way; the answers alone are taken.
func TestRequestStateOn2026(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		other := nameTool
		other.Name = "other"
		c := m.new(mcprt.Identity{Name: "t", Version: "1", EnableElicitation: true}, nameTool, other).raw(t, "2026-07-28", `{"elicitation":{}}`)
		var ir struct {
			InputRequests map[string]json.RawMessage `json:"inputRequests"`
			RequestState  string                     `json:"requestState"`
		}
		if err := json.Unmarshal([]byte(c.Call("tools/call", `{"name":"name","arguments":{}}`)), &ir); err != nil || ir.InputRequests["user_name"] == nil || ir.RequestState == "" {
			t.Fatalf("no input request user_name: %+v %v", ir, err)
		}
		answer := `"inputResponses":{"user_name":{"action":"accept","content":{"name":"Ada"}}}`
		code := each{"-32602", "-32602", "-32603"}.on(m)
		bad := `{"error":{"code":` + code + `,"message":"invalid params: requestState is not one this server issued for this request, or it expired"}}`
		altered := ir.RequestState[:5] + string(ir.RequestState[5]^1) + ir.RequestState[6:]
		SameJSON(t, "altered state", c.Call("tools/call", `{"name":"name","arguments":{},`+answer+`,"requestState":"`+altered+`"}`), bad)
		SameJSON(t, "another tool's state", c.Call("tools/call", `{"name":"other","arguments":{},`+answer+`,"requestState":"`+ir.RequestState+`"}`), bad)
		for _, state := range []string{`,"requestState":"` + ir.RequestState + `"`, ""} {
			if got := c.Call("tools/call", `{"name":"name","arguments":{},`+answer+state+`}`); !strings.Contains(got, `accept {\"name\":\"Ada\"}`) {
				t.Errorf("answered (state %q): %s", state, got)
			}
		}
		got := c.Call("tools/call", `{"name":"name","arguments":{},"inputResponses":{"user_name":{"action":""}}}`)
		if !strings.Contains(got, `"code":`+code) || !strings.Contains(got, `invalid params: inputResponses[\"user_name\"] is not a elicitation/create result`) {
			t.Errorf("an answer with no action: %s, want %s naming it", got, code)
		}
	})
}

// TestMissingCapabilityOn2026: a handler that fails because the 2026-07-28
// client did not declare what it asks for is MissingRequiredClientCapability
// (-32021) naming the capability, where the SDK lets a handler say so;
// mcp-go answers the failed result.
func TestMissingCapabilityOn2026(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		got := m.new(mcprt.Identity{Name: "t", Version: "1", EnableElicitation: true}, nameTool).raw(t, "2026-07-28").Call("tools/call", `{"name":"name","arguments":{}}`)
		want := each{
			builtin: `{"error":{"code":-32021,"message":"Missing required client capability: elicitation","data":{"requiredCapabilities":{"elicitation":{}}}}}`,
			gosdk:   `{"error":{"code":-32021,"message":"Missing required client capability: elicitation","data":{"requiredCapabilities":{"elicitation":{}}}}}`,
			mcpgo:   `{"content":[{"type":"text","text":"the client did not declare the elicitation capability"}],"isError":true}`,
		}.on(m)
		SameJSON(t, "tools/call", got, want, newMembers...)
	})
}

// TestElicitFormNamesEveryBadField: an answer to a form with two bad
// fields fails ElicitForm with both named, on every path and revision:
// go-sdk's own check of an answer against the schema, which names the
// first only, does not decide.
func TestElicitFormNamesEveryBadField(t *testing.T) {
	const want = "the answer to the form does not fit it: invalid arguments:\ncount: expected integer, got \"many\"\nexpress: expected boolean, got \"maybe\""
	answer := func(method string, params []byte) string {
		return `{"action":"accept","content":{"count":"many","express":"maybe"}}`
	}
	run(t, func(t *testing.T, m *mode) {
		for _, rev := range []string{"2025-11-25", "2026-07-28"} {
			// mcp-go names every stdio session "stdio": one at a time.
			srv := m.new(mcprt.Identity{Name: "t", Version: "1", EnableElicitation: true}, OrderTool)
			c := srv.raw(t, rev, `{"elicitation":{}}`)
			c.Answer(answer)
			got, _ := c.CallRounds("tools/call", `{"name":"order","arguments":{}}`, answer)
			SameJSON(t, rev+" tools/call", got, `{"content":[{"type":"text","text":`+MustJSON(want)+`}],"isError":true}`, newMembers...)
		}
	})
}
