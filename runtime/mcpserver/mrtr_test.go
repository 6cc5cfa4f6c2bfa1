package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// nameTool asks the user's name and greets them: the one handler every
// revision runs.
var nameTool = handlerTool("name", func(ctx context.Context, args []byte) mcprt.Result {
	r, err := mcprt.Elicit(mcprt.WithInputKey(ctx, "user_name"), "Your name?", []byte(`{"type":"object","properties":{"name":{"type":"string"}}}`))
	if err != nil {
		return mcprt.ErrorResult(err)
	}
	var ans struct{ Name string }
	_ = json.Unmarshal(r.Content, &ans)
	return mcprt.TextResult(r.Action + ": hello " + ans.Name)
})

// meta2026 is the _meta of a 2026-07-28 request with capabilities caps.
func meta2026(caps string) string {
	return `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}`
}

// inputRequired reads an input-required result: its input requests, and
// its request state, which must be there.
func inputRequired(t *testing.T, line string) (requests map[string]json.RawMessage, state string) {
	t.Helper()
	var resp struct {
		Result struct {
			ResultType    string                     `json:"resultType"`
			InputRequests map[string]json.RawMessage `json:"inputRequests"`
			RequestState  string                     `json:"requestState"`
		}
	}
	if err := json.Unmarshal([]byte(line), &resp); err != nil || resp.Result.ResultType != "input_required" || resp.Result.RequestState == "" {
		t.Fatalf("want an input-required result with a request state, got %s", line)
	}
	return resp.Result.InputRequests, resp.Result.RequestState
}

// TestSameHandlerAsksOnEveryRevision runs one handler that asks a question
// on a 2025-11-25 session, where the question is a request to the client,
// and on 2026-07-28, where it is an input-required result and the retry
// carries the answer; the answer reaches the handler both ways.
func TestSameHandlerAsksOnEveryRevision(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableElicitation: true}, nameTool)
	c := startStdio(t, srv)
	c.initialize(wire.Rev20251125, `{"elicitation":{}}`)
	c.send(`{"jsonrpc":"2.0","id":"legacy","method":"tools/call","params":{"name":"name"}}`)
	c.expect(`{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}}`)
	c.send(`{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"name":"Ada"}}}`)
	c.expect(`{"jsonrpc":"2.0","id":"legacy","result":{"content":[{"type":"text","text":"accept: hello Ada"}]}}`)

	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{` + meta2026(`{"elicitation":{}}`) + `,"name":"name"}}`)
	reqs, state := inputRequired(t, c.recv())
	sameJSON(t, string(reqs["user_name"]), `{"method":"elicitation/create","params":{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}}`)
	if len(reqs) != 1 {
		t.Errorf("input requests %v, want only user_name", reqs)
	}
	c.call(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{`+meta2026(`{"elicitation":{}}`)+`,"name":"name","inputResponses":{"user_name":{"action":"accept","content":{"name":"Ada"}}},"requestState":"`+state+`"}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[{"type":"text","text":"accept: hello Ada"}]}}`)
	// Answers alone, without the state, are taken too; keys no question
	// asked are ignored.
	c.call(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{`+meta2026(`{"elicitation":{}}`)+`,"name":"name","inputResponses":{"user_name":{"action":"decline"},"other":{"x":1}}}}`,
		`{"jsonrpc":"2.0","id":4,"result":{"resultType":"complete","content":[{"type":"text","text":"decline: hello "}]}}`)
	// An answer under another key asks again.
	c.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{` + meta2026(`{"elicitation":{}}`) + `,"name":"name","inputResponses":{"wrong_key":{"action":"accept"}}}}`)
	if reqs, _ := inputRequired(t, c.recv()); reqs["user_name"] == nil {
		t.Errorf("a wrong key did not ask again: %v", reqs)
	}
}

// askAll asks for the user's name, a sample and the roots at once,
// from three goroutines.
var askAll = handlerTool("everything", func(ctx context.Context, args []byte) mcprt.Result {
	var wg sync.WaitGroup
	var errs [3]error
	var name mcprt.ElicitResult
	var sample mcprt.SampleResult
	var roots []mcprt.Root
	wg.Go(func() { name, errs[0] = mcprt.Elicit(ctx, "Name?", nil) })
	wg.Go(func() {
		sample, errs[1] = mcprt.Sample(ctx, mcprt.SampleRequest{Messages: []mcprt.SampleMessage{{Role: "user", Content: mcprt.Text("Hi")}}, MaxTokens: 5})
	})
	wg.Go(func() { roots, errs[2] = mcprt.ListRoots(ctx) })
	wg.Wait()
	if err := errors.Join(errs[:]...); err != nil {
		return mcprt.ErrorResult(err)
	}
	return mcprt.TextResult(name.Action + " " + sample.Content.Text + " " + roots[0].URI)
})

// TestQuestionsOfOneRound asks three questions at once, which go to the
// client in one input-required result.
func TestQuestionsOfOneRound(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableElicitation: true, EnableSampling: true}, askAll)
	c := startStdio(t, srv)
	caps := `{"elicitation":{},"sampling":{},"roots":{}}`
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + meta2026(caps) + `,"name":"everything"}}`)
	reqs, state := inputRequired(t, c.recv())
	methods := map[string]string{}
	for k, v := range reqs {
		var r struct{ Method string }
		_ = json.Unmarshal(v, &r)
		methods[r.Method] = k
	}
	if len(reqs) != 3 || methods["elicitation/create"] == "" || methods["sampling/createMessage"] == "" || methods["roots/list"] == "" {
		t.Fatalf("input requests %v, want one of each kind", reqs)
	}
	answers := `{"` + methods["elicitation/create"] + `":{"action":"accept","content":{}},` +
		`"` + methods["sampling/createMessage"] + `":{"role":"assistant","content":{"type":"text","text":"hello"},"model":"m"},` +
		`"` + methods["roots/list"] + `":{"roots":[{"uri":"file:///src"}]}}`
	c.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{`+meta2026(caps)+`,"name":"everything","inputResponses":`+answers+`,"requestState":"`+state+`"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"accept hello file:///src"}]}}`)
}

// twoSteps asks one question, then a second one.
var twoSteps = handlerTool("two", func(ctx context.Context, args []byte) mcprt.Result {
	a, err := mcprt.Elicit(mcprt.WithInputKey(ctx, "first"), "First?", nil)
	if err != nil {
		return mcprt.ErrorResult(err)
	}
	b, err := mcprt.Elicit(mcprt.WithInputKey(ctx, "second"), "Second?", nil)
	if err != nil {
		return mcprt.ErrorResult(err)
	}
	return mcprt.TextResult(string(a.Content) + string(b.Content))
})

// TestRoundsCarryEarlierAnswers: the second round's state carries the
// first answer, so the third request needs only the second.
func TestRoundsCarryEarlierAnswers(t *testing.T) {
	t.Parallel()
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v", EnableElicitation: true}, twoSteps))
	call := func(id, extra string) string {
		c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{` + meta2026(`{"elicitation":{}}`) + `,"name":"two"` + extra + `}}`)
		return c.recv()
	}
	r1, s1 := inputRequired(t, call("1", ""))
	if r1["first"] == nil || len(r1) != 1 {
		t.Fatalf("round 1 asks %v, want first", r1)
	}
	r2, s2 := inputRequired(t, call("2", `,"inputResponses":{"first":{"action":"accept","content":1}},"requestState":"`+s1+`"`))
	if r2["second"] == nil || len(r2) != 1 || s2 == s1 {
		t.Fatalf("round 2 asks %v with state %q, want second with a new state", r2, s2)
	}
	sameJSON(t, call("3", `,"inputResponses":{"second":{"action":"accept","content":2}},"requestState":"`+s2+`"`),
		`{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[{"type":"text","text":"12"}]}}`)
}

// TestRequestStateRefused: a state that was altered, sealed by another
// server, sealed for another tool or expired is invalid params, and the
// handler does not run on it.
func TestRequestStateRefused(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableElicitation: true}, twoSteps, nameTool)
	srv.StateKey, srv.now = []byte("one key"), func() time.Time { return now }
	other := New(mcprt.Identity{Name: "n", Version: "v", EnableElicitation: true}, twoSteps)
	c, o := startStdio(t, srv), startStdio(t, other)
	first := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + meta2026(`{"elicitation":{}}`) + `,"name":"two"}}`
	c.send(first)
	_, state := inputRequired(t, c.recv())
	o.send(first)
	_, foreign := inputRequired(t, o.recv())
	const refused = `{"jsonrpc":"2.0","id":9,"error":{"code":-32602,"message":"invalid params: requestState is not one this server issued for this request, or it expired"}}`
	for name, tc := range map[string]struct{ tool, state string }{
		"altered":      {"two", state + "-TAMPERED"},
		"foreign":      {"two", foreign},
		"another tool": {"name", state},
	} {
		t.Run(name, func(t *testing.T) {
			c.call(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{`+meta2026(`{"elicitation":{}}`)+`,"name":"`+tc.tool+`","inputResponses":{"first":{"action":"accept"}},"requestState":"`+tc.state+`"}}`, refused)
		})
	}
	now = now.Add(2 * time.Hour)
	c.call(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{`+meta2026(`{"elicitation":{}}`)+`,"name":"two","requestState":"`+state+`"}}`, refused)
	c.call(`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{`+meta2026(`{"elicitation":{}}`)+`,"name":"two","inputResponses":[1]}}`,
		`{"jsonrpc":"2.0","id":10,"error":{"code":-32602,"message":"invalid params: inputResponses must be an object"}}`)
	c.call(`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{`+meta2026(`{"elicitation":{}}`)+`,"name":"two","inputResponses":{"first":12345}}}`,
		`{"jsonrpc":"2.0","id":11,"error":{"code":-32602,"message":"invalid params: inputResponses[\"first\"] is not a elicitation/create result: 12345"}}`)
}

// sampler needs sampling; fallback asks the user and falls back to the
// model when it cannot.
var (
	sampler = handlerTool("sampler", func(ctx context.Context, args []byte) mcprt.Result {
		if _, err := mcprt.Sample(ctx, mcprt.SampleRequest{MaxTokens: 1}); err != nil {
			return mcprt.ErrorResult(err)
		}
		return mcprt.TextResult("sampled")
	})
	fallback = handlerTool("fallback", func(ctx context.Context, args []byte) mcprt.Result {
		if _, err := mcprt.Elicit(ctx, "Name?", nil); err == nil || errors.Is(err, mcprt.ErrInputRequired) {
			return mcprt.TextResult("asked the user")
		}
		if _, err := mcprt.Sample(ctx, mcprt.SampleRequest{MaxTokens: 1}); err != nil {
			return mcprt.ErrorResult(err)
		}
		return mcprt.TextResult("asked the model")
	})
)

// TestMissingClientCapability: a call that fails for a capability the
// client did not declare is MissingRequiredClientCapability, HTTP 400; a
// handler that falls back to what the client has asks only that.
func TestMissingClientCapability(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableElicitation: true, EnableSampling: true}, sampler, fallback)
	c := startHTTP(t, srv)
	c.post(`{"jsonrpc":"2.0","id":401,"method":"tools/call","params":{`+meta2026(`{}`)+`,"name":"sampler","arguments":{}}}`, 400,
		`{"jsonrpc":"2.0","id":401,"error":{"code":-32021,"message":"Missing required client capability: sampling","data":{"requiredCapabilities":{"sampling":{}}}}}`,
		statelessHeaders("tools/call", "sampler"))
	resp := c.do(http.MethodPost, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{`+meta2026(`{"sampling":{}}`)+`,"name":"fallback"}}`, statelessHeaders("tools/call", "fallback"))
	body := readAll(t, resp)
	reqs, _ := inputRequired(t, body)
	var methods []string
	for _, v := range reqs {
		var r struct{ Method string }
		_ = json.Unmarshal(v, &r)
		methods = append(methods, r.Method)
	}
	if diff := cmp.Diff([]string{"sampling/createMessage"}, methods); diff != "" {
		t.Errorf("the fallback asked (-want +got):\n%s", diff)
	}
}

// TestPromptAsks: prompts ask as tools do.
func TestPromptAsks(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableElicitation: true})
	srv.AddPrompts(mcprt.Prompt{Name: "ctx", Description: "Asks for context.", Get: func(ctx context.Context, args map[string]string) (mcprt.PromptResult, error) {
		r, err := mcprt.Elicit(mcprt.WithInputKey(ctx, "user_context"), "What context should the prompt use?", nil)
		if err != nil {
			return mcprt.PromptResult{}, err
		}
		return mcprt.PromptResult{Messages: []mcprt.PromptMessage{{Role: mcprt.RoleUser, Content: mcprt.Text("Prompt with context: " + string(r.Content))}}}, nil
	}})
	c := startStdio(t, srv)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{` + meta2026(`{"elicitation":{}}`) + `,"name":"ctx"}}`)
	reqs, state := inputRequired(t, c.recv())
	if !strings.Contains(string(reqs["user_context"]), "What context") {
		t.Fatalf("input requests %v", reqs)
	}
	c.call(`{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{`+meta2026(`{"elicitation":{}}`)+`,"name":"ctx","inputResponses":{"user_context":{"action":"accept","content":"docs"}},"requestState":"`+state+`"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","messages":[{"role":"user","content":{"type":"text","text":"Prompt with context: \"docs\""}}]}}`)
}

func readAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	var b strings.Builder
	if _, err := io.Copy(&b, resp.Body); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestRequestStateRotation: a replica whose StateKeys hold the key a state
// was sealed with opens it and seals its own with the new StateKey; one
// without the old key refuses it.
func TestRequestStateRotation(t *testing.T) {
	t.Parallel()
	oldKey, newKey := []byte("old key"), []byte("new key")
	server := func(key []byte, more ...[]byte) *stdioClient {
		srv := New(mcprt.Identity{Name: "n", Version: "v", EnableElicitation: true}, twoSteps)
		srv.StateKey, srv.StateKeys = key, more
		return startStdio(t, srv)
	}
	before, rotated, dropped, fresh := server(oldKey), server(newKey, oldKey), server(newKey), server(newKey)
	first := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + meta2026(`{"elicitation":{}}`) + `,"name":"two"}}`
	before.send(first)
	_, state := inputRequired(t, before.recv())
	second := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{` + meta2026(`{"elicitation":{}}`) + `,"name":"two","inputResponses":{"first":{"action":"accept","content":1}},"requestState":"` + state + `"}}`
	rotated.send(second)
	asks, next := inputRequired(t, rotated.recv())
	if asks["second"] == nil {
		t.Fatalf("the rotated replica asks %v, want second", asks)
	}
	dropped.call(second, `{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"invalid params: requestState is not one this server issued for this request, or it expired"}}`)
	fresh.call(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{`+meta2026(`{"elicitation":{}}`)+`,"name":"two","inputResponses":{"second":{"action":"accept","content":2}},"requestState":"`+next+`"}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[{"type":"text","text":"12"}]}}`)
}

// TestFallbackKeepsItsFailure: on 2026-07-28 a handler that fails with
// the error of a question the client did not declare is
// MissingRequiredClientCapability, but one that falls back on
// mcprt.ErrNotSupported and fails otherwise is answered its own failure.
func TestFallbackKeepsItsFailure(t *testing.T) {
	t.Parallel()
	ask := handlerTool("ask", func(ctx context.Context, args []byte) mcprt.Result {
		_, err := mcprt.Elicit(ctx, "Sure?", nil)
		if errors.Is(err, mcprt.ErrNotSupported) && strings.Contains(string(args), "fallback") {
			return mcprt.Errorf("call ask again with confirm set")
		}
		return mcprt.ErrorResult(err)
	})
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v", EnableElicitation: true}, ask))
	c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`+meta2026(`{}`)+`,"name":"ask","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"Missing required client capability: elicitation","data":{"requiredCapabilities":{"elicitation":{}}}}}`)
	c.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{`+meta2026(`{}`)+`,"name":"ask","arguments":{"fallback":true}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"call ask again with confirm set"}],"isError":true}}`)
}
