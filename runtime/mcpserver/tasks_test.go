package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// gate is a tool whose calls wait until released or cancelled, and report
// how they ended.
type gate struct {
	started, release chan struct{}
	ended            chan error
}

func newGate() *gate {
	return &gate{started: make(chan struct{}, 2000), release: make(chan struct{}), ended: make(chan error, 2000)}
}

func (g *gate) tool(name string, support mcprt.TaskSupport) mcprt.Tool {
	t := handlerTool(name, func(ctx context.Context, args []byte) mcprt.Result {
		g.started <- struct{}{}
		_ = mcprt.Progress(ctx, 1, 2, "half way")
		select {
		case <-g.release:
			g.ended <- nil
			if strings.Contains(string(args), "fail") {
				return mcprt.Errorf("it failed")
			}
			return mcprt.TextResult("done")
		case <-ctx.Done():
			g.ended <- ctx.Err()
			return mcprt.ErrorResult(ctx.Err())
		}
	})
	t.TaskSupport = support
	return t
}

func waitFor(t *testing.T, ch <-chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(timeout):
		t.Fatal("timed out")
	}
}

// response reads lines until the response to id, and returns it with the
// notifications before it.
func (c *stdioClient) response(id string) (resp string, notes []string) {
	c.t.Helper()
	for {
		line := c.recv()
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal([]byte(line), &m)
		if string(m.ID) == id && m.Method == "" {
			return line, notes
		}
		notes = append(notes, line)
	}
}

// taskOf reads the task of a create or get result.
func taskOf(t *testing.T, line string) (id, status string, raw map[string]any) {
	t.Helper()
	var r struct {
		Result map[string]any `json:"result"`
	}
	if err := json.Unmarshal([]byte(line), &r); err != nil || r.Result == nil {
		t.Fatalf("want a result, got %s", line)
	}
	raw = r.Result
	if nested, ok := raw["task"].(map[string]any); ok {
		raw = nested
	}
	id, _ = raw["taskId"].(string)
	status, _ = raw["status"].(string)
	if id == "" {
		t.Fatalf("no task in %s", line)
	}
	return id, status, raw
}

func taskServer(tools ...mcprt.Tool) *Server {
	return New(mcprt.Identity{Name: "n", Version: "v", EnableTasks: true, EnableElicitation: true}, tools...)
}

// TestTasks20251125 runs the 2025-11-25 design: a task created on
// request, polled, waited for, listed, and its result tagged with it.
func TestTasks20251125(t *testing.T) {
	t.Parallel()
	g := newGate()
	srv := taskServer(g.tool("work", mcprt.TaskOptional))
	c := startStdio(t, srv)
	c.initialize(wire.Rev20251125, `{}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"work","task":{"ttl":60000}}}`)
	resp, _ := c.response("1")
	id, status, raw := taskOf(t, resp)
	if status != "working" || raw["ttl"] != float64(60000) || raw["pollInterval"] != float64(500) || raw["createdAt"] == nil {
		t.Errorf("created task %s", resp)
	}
	waitFor(t, g.started)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"` + id + `"}}`)
	resp, _ = c.response("2")
	if _, status, raw := taskOf(t, resp); status != "working" || raw["statusMessage"] != "half way" {
		t.Errorf("tasks/get while working: %s", resp)
	}
	c.send(`{"jsonrpc":"2.0","id":3,"method":"tasks/result","params":{"taskId":"` + id + `"}}`)
	close(g.release)
	resp, notes := c.response("3")
	sameJSON(t, resp, `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"done"}],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"`+id+`"}}}}`)
	if !strings.Contains(strings.Join(notes, "\n"), `"method":"notifications/tasks/status"`) {
		t.Errorf("no status notification among %q", notes)
	}
	c.send(`{"jsonrpc":"2.0","id":4,"method":"tasks/get","params":{"taskId":"` + id + `"}}`)
	resp, _ = c.response("4")
	if _, status, _ := taskOf(t, resp); status != "completed" {
		t.Errorf("tasks/get after the end: %s", resp)
	}
	c.send(`{"jsonrpc":"2.0","id":5,"method":"tasks/cancel","params":{"taskId":"` + id + `"}}`)
	resp, _ = c.response("5")
	sameJSON(t, resp, `{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"invalid params: task \"`+id+`\" has ended (completed) and cannot be cancelled"}}`)
}

// TestTaskCancelEndsHandler: tasks/cancel cancels the task before it
// answers and ends its handler's context; tasks/result then reports it.
func TestTaskCancelEndsHandler(t *testing.T) {
	t.Parallel()
	g := newGate()
	c := startStdio(t, taskServer(g.tool("work", mcprt.TaskOptional)))
	c.initialize(wire.Rev20251125, `{}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"work","task":{}}}`)
	resp, _ := c.response("1")
	id, _, _ := taskOf(t, resp)
	waitFor(t, g.started)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tasks/cancel","params":{"taskId":"` + id + `"}}`)
	resp, _ = c.response("2")
	if _, status, raw := taskOf(t, resp); status != "cancelled" || raw["statusMessage"] != "The task was cancelled by request." {
		t.Errorf("cancel answered %s", resp)
	}
	select {
	case err := <-g.ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("handler ended with %v, want its context cancelled", err)
		}
	case <-time.After(timeout):
		t.Fatal("the handler did not end")
	}
	c.send(`{"jsonrpc":"2.0","id":3,"method":"tasks/result","params":{"taskId":"` + id + `"}}`)
	resp, _ = c.response("3")
	sameJSON(t, resp, `{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"internal error: the task was cancelled"}}`)
}

// TestTaskToolErrorFails: on 2025-11-25 a tool error fails the task, and
// tasks/result returns the error result.
func TestTaskToolErrorFails(t *testing.T) {
	t.Parallel()
	g := newGate()
	close(g.release)
	c := startStdio(t, taskServer(g.tool("work", mcprt.TaskOptional)))
	c.initialize(wire.Rev20251125, `{}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"work","arguments":{"x":"fail"},"task":{}}}`)
	resp, _ := c.response("1")
	id, _, _ := taskOf(t, resp)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tasks/result","params":{"taskId":"` + id + `"}}`)
	resp, _ = c.response("2")
	sameJSON(t, resp, `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"it failed"}],"isError":true,"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"`+id+`"}}}}`)
	c.send(`{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"taskId":"` + id + `"}}`)
	resp, _ = c.response("3")
	if _, status, _ := taskOf(t, resp); status != "failed" {
		t.Errorf("a tool error's task: %s, want failed", resp)
	}
}

// TestTaskSupportRules: a required tool called without task and a
// forbidden one called with it are -32601; an unknown task is -32602.
func TestTaskSupportRules(t *testing.T) {
	t.Parallel()
	g := newGate()
	c := startStdio(t, taskServer(g.tool("must", mcprt.TaskRequired), textTool("plain", "P")))
	c.initialize(wire.Rev20251125, `{}`)
	c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"must"}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"tool \"must\" runs only as a task: call it with the task param"}}`)
	c.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"plain","task":{}}}`,
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"tool \"plain\" does not run as a task"}}`)
	c.call(`{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"taskId":"nope"}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"invalid params: no task \"nope\""}}`)
	// Without the identity's switch, the task param is ignored.
	c2 := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}, textTool("plain", "P")))
	c2.initialize(wire.Rev20251125, `{}`)
	c2.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"plain","task":{}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"P"}]}}`)
	c2.call(`{"jsonrpc":"2.0","id":2,"method":"tasks/list","params":{}}`,
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"method not found: tasks/list"}}`)
}

// TestTaskList pages through a session's tasks, and another session sees
// none of them.
func TestTaskList(t *testing.T) {
	t.Parallel()
	g := newGate()
	close(g.release)
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableTasks: true, PageSize: 2}, g.tool("work", mcprt.TaskOptional))
	c := startStdio(t, srv)
	c.initialize(wire.Rev20251125, `{}`)
	var ids []string
	for i := range 3 {
		id := string(rune('1' + i))
		c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"work","task":{}}}`)
		resp, _ := c.response(id)
		tid, _, _ := taskOf(t, resp)
		ids = append(ids, tid)
	}
	c.send(`{"jsonrpc":"2.0","id":10,"method":"tasks/list","params":{}}`)
	resp, _ := c.response("10")
	var page struct {
		Result struct {
			Tasks      []struct{ TaskID string }
			NextCursor string
		}
	}
	_ = json.Unmarshal([]byte(resp), &page)
	if len(page.Result.Tasks) != 2 || page.Result.Tasks[0].TaskID != ids[0] || page.Result.NextCursor == "" {
		t.Fatalf("first page %s", resp)
	}
	c.send(`{"jsonrpc":"2.0","id":11,"method":"tasks/list","params":{"cursor":"` + page.Result.NextCursor + `"}}`)
	resp, _ = c.response("11")
	page.Result.NextCursor = ""
	_ = json.Unmarshal([]byte(resp), &page)
	if len(page.Result.Tasks) != 1 || page.Result.Tasks[0].TaskID != ids[2] || page.Result.NextCursor != "" {
		t.Fatalf("second page %s", resp)
	}
	other := startStdio(t, srv)
	other.initialize(wire.Rev20251125, `{}`)
	other.call(`{"jsonrpc":"2.0","id":1,"method":"tasks/list","params":{}}`, `{"jsonrpc":"2.0","id":1,"result":{"tasks":[]}}`)
	other.call(`{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"`+ids[0]+`"}}`,
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"invalid params: no task \"`+ids[0]+`\""}}`)
}

// TestTaskAsksTheClient: a task's question goes to the client as a request
// tagged with the task, and the task is input_required until answered.
func TestTaskAsksTheClient(t *testing.T) {
	t.Parallel()
	c := startStdio(t, taskServer(func() mcprt.Tool {
		tool := nameTool
		tool.TaskSupport = mcprt.TaskOptional
		return tool
	}()))
	c.initialize(wire.Rev20251125, `{"elicitation":{}}`)
	c.send(`{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"name","task":{}}}`)
	// The task runs as soon as it is stored, so its question may reach the
	// client before the answer that creates it does.
	resp, before := c.response(`"c"`)
	id, _, _ := taskOf(t, resp)
	var req string
	for _, line := range before {
		if strings.Contains(line, `"method":"elicitation/create"`) {
			req = line
		}
	}
	for req == "" {
		line := c.recv()
		if strings.Contains(line, `"method":"elicitation/create"`) {
			req = line
		}
	}
	if !strings.Contains(req, `"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"`+id+`"}}`) {
		t.Errorf("the question is not tagged with the task: %s", req)
	}
	c.send(`{"jsonrpc":"2.0","id":"g","method":"tasks/get","params":{"taskId":"` + id + `"}}`)
	resp, _ = c.response(`"g"`)
	if _, status, _ := taskOf(t, resp); status != "input_required" {
		t.Errorf("while asking: %s", resp)
	}
	var r struct{ ID json.RawMessage }
	_ = json.Unmarshal([]byte(req), &r)
	c.send(`{"jsonrpc":"2.0","id":` + string(r.ID) + `,"result":{"action":"accept","content":{"name":"Ada"}}}`)
	c.send(`{"jsonrpc":"2.0","id":"r","method":"tasks/result","params":{"taskId":"` + id + `"}}`)
	resp, _ = c.response(`"r"`)
	sameJSON(t, resp, `{"jsonrpc":"2.0","id":"r","result":{"content":[{"type":"text","text":"accept: hello Ada"}],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"`+id+`"}}}}`)
}

// TestTaskExpiry: a task outliving its TTL ends its handler and is gone.
func TestTaskExpiry(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		g := newGate()
		srv := taskServer(g.tool("work", mcprt.TaskOptional))
		srv.TaskTTL = 50 * time.Millisecond
		c := startStdio(t, srv)
		c.initialize(wire.Rev20251125, `{}`)
		c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"work","task":{"ttl":600000}}}`)
		resp, _ := c.response("1")
		id, _, raw := taskOf(t, resp)
		if raw["ttl"] != float64(50) {
			t.Errorf("the server's bound did not hold: %s", resp)
		}
		select {
		case err := <-g.ended:
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("handler ended with %v, want its deadline", err)
			}
		case <-time.After(timeout):
			t.Fatal("the expired task's handler did not end")
		}
		time.Sleep(60 * time.Millisecond)
		c.send(`{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"` + id + `"}}`)
		resp, _ = c.response("2")
		sameJSON(t, resp, `{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"invalid params: no task \"`+id+`\""}}`)
	})
}

// TestTaskEndStatusMessage: the run's last progress message does not
// outlive it. A completed task has no status message; a failed one says
// how it failed. Both revisions that have tasks are run.
func TestTaskEndStatusMessage(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, meta, task, args string
		status, message        string
	}{
		{"2025-11-25 completed", "", `,"task":{}`, `{}`, "completed", ""},
		{"2025-11-25 failed", "", `,"task":{}`, `{"fail":true}`, "failed", toolErrorMessage},
		{"2026-07-28 completed", extMeta + ",", "", `{}`, "completed", ""},
		{"2026-07-28 tool error", extMeta + ",", "", `{"fail":true}`, "completed", ""},
		{"2026-07-28 panicked", extMeta + ",", "", `{"panic":true}`, "failed", panickedMessage},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				started, release := make(chan struct{}), make(chan struct{})
				work := handlerTool("work", func(ctx context.Context, args []byte) mcprt.Result {
					close(started)
					// Progress until released: on 2026-07-28 only what a
					// call reports once it is a task sets the message.
					for {
						_ = mcprt.Progress(ctx, 1, 2, "half way")
						select {
						case <-release:
							if strings.Contains(string(args), "panic") {
								panic("kaputt")
							}
							if strings.Contains(string(args), "fail") {
								return mcprt.Errorf("it failed")
							}
							return mcprt.TextResult("done")
						case <-time.After(5 * time.Millisecond):
						}
					}
				})
				work.TaskSupport = mcprt.TaskRequired
				c := startStdio(t, taskServer(work))
				if tt.meta == "" {
					c.initialize(wire.Rev20251125, `{}`)
				}
				c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + tt.meta + `"name":"work","arguments":` + tt.args + tt.task + `}}`)
				resp, _ := c.response("1")
				id, _, _ := taskOf(t, resp)
				waitFor(t, started)
				get := func() (string, map[string]any) {
					c.send(`{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{` + tt.meta + `"taskId":"` + id + `"}}`)
					resp, _ := c.response("2")
					_, status, raw := taskOf(t, resp)
					return status, raw
				}
				// The progress message is set before the run waits.
				deadline := time.Now().Add(timeout)
				status, raw := get()
				for raw["statusMessage"] != "half way" && time.Now().Before(deadline) {
					time.Sleep(5 * time.Millisecond)
					status, raw = get()
				}
				if status != "working" || raw["statusMessage"] != "half way" {
					t.Fatalf("while working: %s %v", status, raw)
				}
				close(release)
				for status == "working" && time.Now().Before(deadline) {
					time.Sleep(5 * time.Millisecond)
					status, raw = get()
				}
				msg, _ := raw["statusMessage"].(string)
				if status != tt.status || msg != tt.message {
					t.Errorf("at the end: status %q, statusMessage %q; want %q, %q", status, msg, tt.status, tt.message)
				}
			})
		})
	}
}

// downStore is a task store whose every write fails with a text that
// names its package and address, as a remote store's errors do.
type downStore struct{ *mcpstore.MemoryTaskStore }

func (downStore) Create(context.Context, *mcpstore.Task) error {
	return errors.New("mcpredis: dial tcp 10.0.0.7:6379: connection refused")
}

// TestStoreErrorsStayInTheLog: a store's failure answers the client a
// plain internal error; its own text, package and address, is logged.
func TestStoreErrorsStayInTheLog(t *testing.T) {
	t.Parallel()
	g := newGate()
	srv := taskServer(g.tool("work", mcprt.TaskOptional))
	srv.Tasks = downStore{&mcpstore.MemoryTaskStore{}}
	logs := captureLog(srv)
	c := startStdio(t, srv)
	c.initialize(wire.Rev20251125, `{}`)
	c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"work","task":{}}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"internal error: storing the task failed"}}`)
	c.close()
	if !strings.Contains(logs.String(), `msg="mcp store failed" doing="storing the task" err="mcpredis: dial tcp 10.0.0.7:6379: connection refused"`) {
		t.Errorf("the store's error was not logged:\n%s", logs.String())
	}
}
