package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/fixture"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// secret is an error that must not reach the client.
var secret = errors.New("sql: database is locked: /srv/data/tracker.db")

// maskedID matches the masked text and captures its correlation id.
var maskedID = regexp.MustCompile(`^internal error; the server logged it with correlation id ([A-Z2-7]{26})$`)

// TestMaskErrors checks Server.MaskErrors on tools, prompts, resources and
// completions: the function's error and a panic become the generic text
// with a random correlation id, logged with the real error; a result the
// handler built, argument problems and a template variable's reason go
// through.
func TestMaskErrors(t *testing.T) {
	t.Parallel()
	fails := func(ctx context.Context, _ []byte) mcprt.Result { return mcpimpl.CallError(secret) }
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableCompletions: true},
		handlerTool("fn", fails),
		handlerTool("model", func(ctx context.Context, _ []byte) mcprt.Result { return mcprt.Errorf("order %d does not exist", 3) }),
		handlerTool("boom", func(ctx context.Context, _ []byte) mcprt.Result { panic(secret.Error()) }))
	srv.AddPrompts(
		mcprt.Prompt{Name: "p", Get: func(context.Context, map[string]string) (mcprt.PromptResult, error) {
			return mcprt.PromptResult{}, secret
		},
			Complete: func(context.Context, string, string, map[string]string) ([]string, error) { return nil, secret }},
		mcprt.Prompt{Name: "args", Get: func(context.Context, map[string]string) (mcprt.PromptResult, error) {
			return mcprt.PromptResult{}, &mcpimpl.ArgumentError{Problems: []mcpimpl.Problem{{Path: "who", Message: "required argument is missing"}}}
		}})
	srv.AddResources(
		mcprt.Resource{URI: "kb://broken", Name: "broken", Read: func(context.Context, string) ([]mcprt.ResourceContents, error) { return nil, secret }},
		mcprt.Resource{URI: "kb://gone", Name: "gone", Read: func(context.Context, string) ([]mcprt.ResourceContents, error) {
			return nil, errors.Join(secret, mcprt.ErrNotFound)
		}},
		fixture.ItemsTemplate)
	srv.MaskErrors = true
	logs := captureLog(srv)
	c := startStdio(t, srv)
	c.initialize(wire.Rev20251125, `{}`)

	var answers []string
	recv := func(v any) {
		t.Helper()
		line := c.recv()
		answers = append(answers, line)
		if err := json.Unmarshal([]byte(line), v); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
	}

	// masked checks that text is the masked text, with an id not seen
	// before, logged with the real error.
	ids := map[string]bool{}
	masked := func(what, text string) {
		t.Helper()
		m := maskedID.FindStringSubmatch(text)
		if m == nil {
			t.Errorf("%s: %q, want the masked text", what, text)
			return
		}
		if ids[m[1]] {
			t.Errorf("%s: correlation id %s again", what, m[1])
		}
		ids[m[1]] = true
		if !regexp.MustCompile(`level=ERROR msg="mcp handler error masked" kind=[^\n]* correlation_id=` + m[1] + ` error="[^\n]*sql: database is locked: /srv/data/tracker.db`).MatchString(logs.String()) {
			t.Errorf("%s: the real error is not logged with id %s:\n%s", what, m[1], logs)
		}
	}
	tool := func(name string) string {
		c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + name + `"}}`)
		var r struct {
			Result struct {
				Content []struct{ Text string }
				IsError bool
			}
		}
		recv(&r)
		if !r.Result.IsError || len(r.Result.Content) != 1 {
			t.Fatalf("%s: %+v", name, r)
		}
		return r.Result.Content[0].Text
	}
	errorOf := func(method, params string) (int, string) {
		c.send(`{"jsonrpc":"2.0","id":2,"method":"` + method + `","params":` + params + `}`)
		var r struct {
			Error struct {
				Code    int
				Message string
			}
		}
		recv(&r)
		return r.Error.Code, r.Error.Message
	}
	masked("the function's error", tool("fn"))
	masked("the same tool again", tool("fn"))
	masked("a panic", tool("boom"))
	if got := tool("model"); got != "order 3 does not exist" {
		t.Errorf("a result for the model: %q", got)
	}
	for _, tt := range []struct{ what, method, params string }{
		{"a prompt's error", "prompts/get", `{"name":"p"}`},
		{"a read's error", "resources/read", `{"uri":"kb://broken"}`},
		{"a completer's error", "completion/complete", `{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":""}}`},
	} {
		code, msg := errorOf(tt.method, tt.params)
		if code != codeInternalError {
			t.Errorf("%s: code %d", tt.what, code)
		}
		masked(tt.what, msg)
	}
	if code, msg := errorOf("prompts/get", `{"name":"args"}`); code != codeInvalidParams || !strings.Contains(msg, "who: required argument is missing") {
		t.Errorf("an argument problem: %d %q", code, msg)
	}
	code, msg := errorOf("resources/read", `{"uri":"kb://gone"}`)
	if reason, ok := strings.CutPrefix(msg, "Resource not found: "); code != codeResourceNotFound || !ok {
		t.Errorf("a handler's not found: %d %q", code, msg)
	} else {
		masked("a handler's not found", reason)
	}
	if _, msg := errorOf("resources/read", `{"uri":"test://items/x"}`); msg != "Resource not found: n: x is not an integer" {
		t.Errorf("a variable's not found: %q", msg)
	}
	if all := strings.Join(answers, "\n"); strings.Contains(all, "tracker.db") {
		t.Errorf("the secret reached the client:\n%s", all)
	}
}

// TestMaskErrorsOfTasks: the function's error of a task's run and its
// panic are masked as a call's are.
func TestMaskErrorsOfTasks(t *testing.T) {
	t.Parallel()
	fn := handlerTool("fn", func(ctx context.Context, args []byte) mcprt.Result {
		if strings.Contains(string(args), "panic") {
			panic(secret.Error())
		}
		return mcpimpl.CallError(secret)
	})
	fn.TaskSupport = mcprt.TaskOptional
	srv := taskServer(fn)
	srv.MaskErrors = true
	logs := captureLog(srv)
	c := startStdio(t, srv)
	c.initialize(wire.Rev20251125, `{}`)
	for i, args := range []string{`{}`, `{"panic":true}`} {
		id := strconv.Itoa(10 * (i + 1))
		c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"fn","arguments":` + args + `,"task":{}}}`)
		resp, _ := c.response(id)
		task, _, _ := taskOf(t, resp)
		c.send(`{"jsonrpc":"2.0","id":` + id + `1,"method":"tasks/result","params":{"taskId":"` + task + `"}}`)
		resp, _ = c.response(id + "1")
		if strings.Contains(resp, "tracker.db") || !strings.Contains(resp, "internal error; the server logged it with correlation id ") {
			t.Errorf("tasks/result of %s: %s", args, resp)
		}
	}
	if n := strings.Count(logs.String(), `msg="mcp handler error masked" kind=tool name=fn`); n != 2 {
		t.Errorf("%d masked errors logged, want 2:\n%s", n, logs)
	}
}

// TestMaskErrorsOfQuickTasks: on 2026-07-28 a task-capable tool that ends
// within the grace is answered at once, and its error and its panic are
// masked there as in any other call.
func TestMaskErrorsOfQuickTasks(t *testing.T) {
	t.Parallel()
	fn := handlerTool("fn", func(ctx context.Context, args []byte) mcprt.Result {
		if strings.Contains(string(args), "panic") {
			panic(secret.Error())
		}
		return mcpimpl.CallError(secret)
	})
	fn.TaskSupport = mcprt.TaskOptional
	srv := taskServer(fn)
	srv.MaskErrors = true
	logs := captureLog(srv)
	c := startStdio(t, srv)
	for i, args := range []string{`{}`, `{"panic":true}`} {
		id := strconv.Itoa(i + 1)
		c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{` + extMeta + `,"name":"fn","arguments":` + args + `}}`)
		resp, _ := c.response(id)
		var r struct {
			Result struct {
				ResultType string
				Content    []struct{ Text string }
				IsError    bool
			}
		}
		if err := json.Unmarshal([]byte(resp), &r); err != nil {
			t.Fatalf("%v: %s", err, resp)
		}
		if r.Result.ResultType != "complete" || !r.Result.IsError || len(r.Result.Content) != 1 || !maskedID.MatchString(r.Result.Content[0].Text) {
			t.Errorf("a quick call of %s: %s, want a failed result with the masked text", args, resp)
		}
	}
	if n := strings.Count(logs.String(), `msg="mcp handler error masked" kind=tool name=fn`); n != 2 {
		t.Errorf("%d masked errors logged, want 2:\n%s", n, logs)
	}
}
