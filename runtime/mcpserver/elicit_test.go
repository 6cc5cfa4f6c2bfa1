package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// urlTool sends the user to a consent page and reports the action and the
// elicitation id it got.
var urlTool = handlerTool("consent", func(ctx context.Context, args []byte) mcprt.Result {
	r, id, err := mcprt.ElicitURL(ctx, "Grant access", "https://example.com/consent")
	if err != nil {
		return mcprt.ErrorResult(err)
	}
	return mcprt.TextResult(r.Action + " " + id)
})

// elicitParams reads the params of an elicitation/create request.
func elicitParams(t *testing.T, line string) (id json.RawMessage, params map[string]string) {
	t.Helper()
	var req struct {
		ID     json.RawMessage   `json:"id"`
		Method string            `json:"method"`
		Params map[string]string `json:"params"`
	}
	if err := json.Unmarshal([]byte(line), &req); err != nil || req.Method != "elicitation/create" {
		t.Fatalf("want an elicitation/create request, got %s", line)
	}
	return req.ID, req.Params
}

// TestElicitURLSession: on 2025-11-25 a URL elicitation is a request with
// an id, and ElicitationComplete notifies the session that received it,
// once.
func TestElicitURLSession(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableElicitation: true}, urlTool)
	c := startStdio(t, srv)
	c.initialize(wire.Rev20251125, `{"elicitation":{"url":{}}}`)
	c.send(`{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"consent"}}`)
	rid, p := elicitParams(t, c.recv())
	id := p["elicitationId"]
	if id == "" || p["mode"] != "url" || p["url"] != "https://example.com/consent" || p["message"] != "Grant access" || len(p) != 4 {
		t.Fatalf("params %v, want mode, message, elicitationId and url", p)
	}
	c.send(`{"jsonrpc":"2.0","id":` + string(rid) + `,"result":{"action":"accept"}}`)
	c.expect(`{"jsonrpc":"2.0","id":"c","result":{"content":[{"type":"text","text":"accept ` + id + `"}]}}`)
	if err := srv.ElicitationComplete(id); err != nil {
		t.Fatalf("ElicitationComplete: %v", err)
	}
	c.expect(`{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"` + id + `"}}`)
	if err := srv.ElicitationComplete(id); err == nil {
		t.Error("a second ElicitationComplete of the same id succeeded")
	}
	if err := srv.ElicitationComplete(""); err != nil {
		t.Errorf("ElicitationComplete of the empty id = %v, want the no-op of 2026-07-28", err)
	}
}

// TestElicitURLRefused: nothing is sent to a client without elicitation.url,
// to a session before 2025-11-25, or when the identity does not enable
// elicitation; the handler gets the reason.
func TestElicitURLRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rev    wire.Revision
		caps   string
		enable bool
		want   string
	}{
		{wire.Rev20251125, `{"elicitation":{}}`, true, "did not declare the elicitation.url capability"},
		{wire.Rev20251125, `{"elicitation":{"form":{}}}`, true, "did not declare the elicitation.url capability"},
		{wire.Rev20250618, `{"elicitation":{"url":{}}}`, true, "needs protocol revision 2025-11-25"},
		{wire.Rev20251125, `{"elicitation":{"url":{}}}`, false, "not enabled"},
	} {
		srv := New(mcprt.Identity{Name: "n", Version: "v", EnableElicitation: tc.enable}, urlTool)
		c := startStdio(t, srv)
		c.initialize(tc.rev, tc.caps)
		c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"consent"}}`)
		line := c.recv()
		if !strings.Contains(line, `"id":1`) || !strings.Contains(line, `"isError":true`) || !strings.Contains(line, tc.want) {
			t.Errorf("%s %s: got %s, want a failed result saying %q", tc.rev, tc.caps, line, tc.want)
		}
	}
}

// TestElicitURLRound: on 2026-07-28 a URL elicitation is an input request
// without an id; the retry's answer reaches the handler, with an empty id.
// Without elicitation.url the call is MissingRequiredClientCapability.
func TestElicitURLRound(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableElicitation: true}, urlTool)
	c := startStdio(t, srv)
	caps := `{"elicitation":{"url":{}}}`
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + meta2026(caps) + `,"name":"consent"}}`)
	reqs, state := inputRequired(t, c.recv())
	if len(reqs) != 1 {
		t.Fatalf("input requests %v, want one", reqs)
	}
	var key string
	for k, v := range reqs {
		key = k
		sameJSON(t, string(v), `{"method":"elicitation/create","params":{"mode":"url","message":"Grant access","url":"https://example.com/consent"}}`)
	}
	c.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{`+meta2026(caps)+`,"name":"consent","inputResponses":{"`+key+`":{"action":"accept"}},"requestState":"`+state+`"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"accept "}]}}`)
	c.call(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{`+meta2026(`{"elicitation":{}}`)+`,"name":"consent"}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32021,"message":"Missing required client capability: elicitation.url","data":{"requiredCapabilities":{"elicitation":{"url":{}}}}}}`)
}

// gateTool needs the user to visit a page until done is set.
func gateTool(done *atomic.Bool, ids chan<- string) mcprt.Tool {
	return handlerTool("gate", func(ctx context.Context, args []byte) mcprt.Result {
		if done.Load() {
			return mcprt.TextResult("authorized")
		}
		err := mcprt.URLElicitationRequired("Authorize the mail account", "https://example.com/oauth")
		var ue *mcprt.URLElicitationError
		if errors.As(err, &ue) && ids != nil {
			ids <- ue.Elicitations[0].ID
		}
		return mcprt.ErrorResult(err)
	})
}

// TestURLElicitationRequiredSession: on 2025-11-25 the handler's error is
// -32042 with data.elicitations to a client with elicitation.url, and its
// id completes; to a client without it, an ordinary failed result.
func TestURLElicitationRequiredSession(t *testing.T) {
	t.Parallel()
	var done atomic.Bool
	ids := make(chan string, 2)
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableElicitation: true}, gateTool(&done, ids))
	c := startStdio(t, srv)
	c.initialize(wire.Rev20251125, `{"elicitation":{"url":{}}}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gate"}}`)
	line := c.recv()
	id := <-ids
	sameJSON(t, line, `{"jsonrpc":"2.0","id":1,"error":{"code":-32042,"message":"Authorize the mail account: open https://example.com/oauth","data":{"elicitations":[{"mode":"url","message":"Authorize the mail account","elicitationId":"`+id+`","url":"https://example.com/oauth"}]}}}`)
	done.Store(true)
	if err := srv.ElicitationComplete(id); err != nil {
		t.Fatalf("ElicitationComplete: %v", err)
	}
	c.expect(`{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"` + id + `"}}`)
	c.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"gate"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"authorized"}]}}`)

	done.Store(false)
	c2 := startStdio(t, srv)
	c2.initialize(wire.Rev20251125, `{"elicitation":{}}`)
	c2.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gate"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Authorize the mail account: open https://example.com/oauth"}],"isError":true}}`)
}

// TestURLElicitationRequiredRound: on 2026-07-28 the handler's error is an
// input-required result; a retry the handler still finds unsatisfied asks
// again, and one it finds satisfied completes.
func TestURLElicitationRequiredRound(t *testing.T) {
	t.Parallel()
	var done atomic.Bool
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableElicitation: true}, gateTool(&done, nil))
	c := startStdio(t, srv)
	caps := `{"elicitation":{"url":{}}}`
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + meta2026(caps) + `,"name":"gate"}}`)
	reqs, state := inputRequired(t, c.recv())
	var key string
	for k, v := range reqs {
		key = k
		sameJSON(t, string(v), `{"method":"elicitation/create","params":{"mode":"url","message":"Authorize the mail account","url":"https://example.com/oauth"}}`)
	}
	if len(reqs) != 1 {
		t.Fatalf("input requests %v, want one", reqs)
	}
	retry := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{` + meta2026(caps) + `,"name":"gate","inputResponses":{"` + key + `":{"action":"accept"}},"requestState":"` + state + `"}}`
	c.send(retry)
	if again, _ := inputRequired(t, c.recv()); again[key] == nil {
		t.Errorf("an unsatisfied retry did not ask again: %v", again)
	}
	done.Store(true)
	c.call(retry, `{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"authorized"}]}}`)
	done.Store(false)
	c.call(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{`+meta2026(`{}`)+`,"name":"gate"}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32021,"message":"Missing required client capability: elicitation.url","data":{"requiredCapabilities":{"elicitation":{"url":{}}}}}}`)
}

// TestURLElicitationRequiredPromptAndRead: a prompt or a resource read that
// needs a page answers as a tool call does: -32042 on 2025-11-25, an
// input-required result on 2026-07-28.
func TestURLElicitationRequiredPromptAndRead(t *testing.T) {
	t.Parallel()
	gate := func() error { return mcprt.URLElicitationRequired("Sign in", "https://example.com/login") }
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableElicitation: true})
	srv.AddPrompts(mcprt.Prompt{Name: "p", Get: func(context.Context, map[string]string) (mcprt.PromptResult, error) {
		return mcprt.PromptResult{}, gate()
	}})
	srv.AddResources(mcprt.Resource{URI: "x://r", Name: "r", Read: func(context.Context, string) ([]mcprt.ResourceContents, error) { return nil, gate() }})
	c := startStdio(t, srv)
	c.initialize(wire.Rev20251125, `{"elicitation":{"url":{}}}`)
	for _, call := range []string{`"method":"prompts/get","params":{"name":"p"}`, `"method":"resources/read","params":{"uri":"x://r"}`} {
		c.send(`{"jsonrpc":"2.0","id":1,` + call + `}`)
		if line := c.recv(); !strings.Contains(line, `"code":-32042`) || !strings.Contains(line, `"url":"https://example.com/login"`) {
			t.Errorf("%s: %s, want -32042", call, line)
		}
	}
	caps := `{"elicitation":{"url":{}}}`
	for _, call := range []string{`"method":"prompts/get","params":{` + meta2026(caps) + `,"name":"p"}`, `"method":"resources/read","params":{` + meta2026(caps) + `,"uri":"x://r"}`} {
		c.send(`{"jsonrpc":"2.0","id":2,` + call + `}`)
		if reqs, _ := inputRequired(t, c.recv()); len(reqs) != 1 {
			t.Errorf("%s: input requests %v, want the page", call, reqs)
		}
	}
}
