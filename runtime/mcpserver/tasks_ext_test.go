package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// extMeta is the _meta of a 2026-07-28 request of a client that declares
// the tasks extension.
const extMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

// TestTasksExtension runs the 2026-07-28 design: the server decides; a
// quick call is answered at once, a slow one becomes a task, a required
// one always does; questions are inputRequests answered by tasks/update.
func TestTasksExtension(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		g := newGate()
		quick := textTool("quick", "Q")
		quick.TaskSupport = mcprt.TaskOptional
		must := textTool("must", "M")
		must.TaskSupport = mcprt.TaskRequired
		asker := nameTool
		asker.Name, asker.TaskSupport = "asker", mcprt.TaskOptional
		asker.Handler = func(ctx context.Context, args []byte) mcprt.Result {
			time.Sleep(60 * time.Millisecond) // past the grace: it asks as a task
			return nameTool.Handler(ctx, args)
		}
		srv := taskServer(g.tool("slow", mcprt.TaskOptional), quick, must, asker)
		srv.TaskGrace = 20 * time.Millisecond
		c := startStdio(t, srv)
		call := func(id, tool string) string {
			c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{` + extMeta + `,"name":"` + tool + `"}}`)
			resp, _ := c.response(id)
			return resp
		}
		sameJSON(t, call("1", "quick"), `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"Q"}]}}`)
		resp := call("2", "must")
		id, status, raw := taskOf(t, resp)
		if status != "working" || raw["resultType"] != "task" || raw["ttlMs"] != float64(3600000) || raw["pollIntervalMs"] != float64(500) || raw["ttl"] != nil {
			t.Errorf("a required tool's task: %s", resp)
		}
		get := func(reqID, id string) map[string]any {
			c.send(`{"jsonrpc":"2.0","id":` + reqID + `,"method":"tasks/get","params":{` + extMeta + `,"taskId":"` + id + `"}}`)
			resp, _ := c.response(reqID)
			_, _, raw := taskOf(t, resp)
			return raw
		}
		deadline := time.Now().Add(timeout)
		for raw = get("3", id); raw["status"] != "completed" && time.Now().Before(deadline); raw = get("3", id) {
			time.Sleep(10 * time.Millisecond)
		}
		if b, _ := json.Marshal(raw["result"]); raw["resultType"] != "complete" || string(b) != `{"content":[{"text":"M","type":"text"}],"resultType":"complete"}` {
			t.Errorf("the completed task: %v", raw)
		}

		slowID, _, _ := taskOf(t, call("4", "slow"))
		waitFor(t, g.started)
		c.call(`{"jsonrpc":"2.0","id":5,"method":"tasks/cancel","params":{`+extMeta+`,"taskId":"`+slowID+`"}}`, `{"jsonrpc":"2.0","id":5,"result":{"resultType":"complete"}}`)
		if raw := get("6", slowID); raw["status"] != "cancelled" {
			t.Errorf("after cancel: %v", raw)
		}
		c.call(`{"jsonrpc":"2.0","id":7,"method":"tasks/cancel","params":{`+extMeta+`,"taskId":"`+slowID+`"}}`, `{"jsonrpc":"2.0","id":7,"result":{"resultType":"complete"}}`)

		askID, _, _ := taskOf(t, call("8", "asker"))
		for raw = get("9", askID); raw["status"] != "input_required" && time.Now().Before(deadline); raw = get("9", askID) {
			time.Sleep(10 * time.Millisecond)
		}
		if reqs, _ := raw["inputRequests"].(map[string]any); reqs["user_name"] == nil {
			t.Fatalf("input_required without the question: %v", raw)
		}
		c.call(`{"jsonrpc":"2.0","id":10,"method":"tasks/update","params":{`+extMeta+`,"taskId":"`+askID+`","inputResponses":{"user_name":{"action":"accept","content":{"name":"Ada"}},"other":1}}}`,
			`{"jsonrpc":"2.0","id":10,"result":{"resultType":"complete"}}`)
		for raw = get("11", askID); raw["status"] != "completed" && time.Now().Before(deadline); raw = get("11", askID) {
			time.Sleep(10 * time.Millisecond)
		}
		if b, _ := json.Marshal(raw["result"]); !strings.Contains(string(b), "accept: hello Ada") {
			t.Errorf("the answered task: %v", raw)
		}
	})
}

// TestTasksExtensionRules: without the extension a required tool is
// -32021 and so is every tasks/* method; with it, an unknown task is
// -32602 and tasks/result and tasks/list do not exist.
func TestTasksExtensionRules(t *testing.T) {
	t.Parallel()
	must := textTool("must", "M")
	must.TaskSupport = mcprt.TaskRequired
	c := startStdio(t, taskServer(must))
	const missing = `{"code":-32021,"message":"Missing required client capability: the io.modelcontextprotocol/tasks extension","data":{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}`
	c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`+statelessMeta+`,"name":"must"}}`, `{"jsonrpc":"2.0","id":1,"error":`+missing+`}`)
	for _, m := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		c.call(`{"jsonrpc":"2.0","id":2,"method":"`+m+`","params":{`+statelessMeta+`,"taskId":"x"}}`, `{"jsonrpc":"2.0","id":2,"error":`+missing+`}`)
	}
	c.call(`{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{`+extMeta+`,"taskId":"x"}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"invalid params: no task \"x\""}}`)
	for _, m := range []string{"tasks/result", "tasks/list"} {
		c.call(`{"jsonrpc":"2.0","id":4,"method":"`+m+`","params":{`+extMeta+`,"taskId":"x"}}`,
			`{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"method not found: `+m+`"}}`)
	}
}

// TestTaskOverHTTP runs a 2025-11-25 task over Streamable HTTP: its
// question reaches the client on the stream of its tasks/result, which
// then carries the result.
func TestTaskOverHTTP(t *testing.T) {
	t.Parallel()
	tool := nameTool
	tool.TaskSupport = mcprt.TaskOptional
	c := startHTTP(t, taskServer(tool))
	c.initialize(wire.Rev20251125, `{"elicitation":{}}`)
	resp := c.do(http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"name","task":{}}}`, nil)
	id, _, _ := taskOf(t, readAll(t, resp))
	stream := events(t, c.do(http.MethodPost, `{"jsonrpc":"2.0","id":2,"method":"tasks/result","params":{"taskId":"`+id+`"}}`, nil))
	var req string
	for line := range stream {
		if strings.Contains(line, "elicitation/create") {
			req = line
			break
		}
	}
	var r struct{ ID json.RawMessage }
	if err := json.Unmarshal([]byte(req), &r); err != nil || !strings.Contains(req, id) {
		t.Fatalf("question on the tasks/result stream: %q", req)
	}
	c.post(`{"jsonrpc":"2.0","id":`+string(r.ID)+`,"result":{"action":"accept","content":{"name":"Ada"}}}`, http.StatusAccepted, "", nil)
	for line := range stream {
		if strings.Contains(line, `"id":2`) {
			sameJSON(t, line, `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"accept: hello Ada"}],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"`+id+`"}}}}`)
			return
		}
	}
	t.Fatal("the stream ended without the result")
}

// TestThousandTasks starts 1,000 tasks at once: a third finish, a third
// are cancelled, a third expire; then no goroutine is left and the store
// is empty.
func TestThousandTasks(t *testing.T) {
	// Not parallel: it counts the process's goroutines and live heap,
	// which tests running at once would change.
	synctest.Test(t, func(t *testing.T) {
		if testing.Short() {
			t.Skip("a load test")
		}
		g := newGate()
		srv := taskServer(g.tool("work", mcprt.TaskOptional))
		store := &mcpstore.MemoryTaskStore{TaskLimits: mcpstore.TaskLimits{MaxPerOwner: 2000}}
		srv.Tasks, srv.TaskTTL = store, 3*time.Second
		defer srv.Close() // ends the reaper of the shared store
		before, heapBefore := runtime.NumGoroutine(), liveHeap()
		c := startStdio(t, srv)
		c.initialize(wire.Rev20251125, `{}`)
		const n = 1000
		ids := make([]string, n)
		for i := range n {
			c.send(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"tools/call","params":{"name":"work","task":{}}}`)
		}
		for got := 0; got < n; {
			var r struct {
				ID     *int
				Result struct{ Task struct{ TaskID string } }
			}
			if json.Unmarshal([]byte(c.recv()), &r) == nil && r.ID != nil && r.Result.Task.TaskID != "" {
				ids[*r.ID] = r.Result.Task.TaskID
				got++
			}
		}
		drained := make(chan struct{})
		go func() { // status notifications and cancel answers, unread
			defer close(drained)
			for range c.lines {
			}
		}()
		for range n {
			waitFor(t, g.started)
		}
		for i := 0; i < n; i += 3 {
			c.send(`{"jsonrpc":"2.0","id":"c` + strconv.Itoa(i) + `","method":"tasks/cancel","params":{"taskId":"` + ids[i] + `"}}`)
		}
		for i := 1; i < n; i += 3 {
			g.release <- struct{}{}
		}
		ended := 0
		deadline := time.After(30 * time.Second)
		for ended < n {
			select {
			case <-g.ended:
				ended++
			case <-deadline:
				t.Fatalf("%d of %d handlers ended", ended, n)
			}
		}
		c.close()
		<-drained
		time.Sleep(3100 * time.Millisecond) // past every task's TTL
		c2 := startStdio(t, srv)
		c2.initialize(wire.Rev20251125, `{}`)
		c2.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"work","task":{}}}`) // sweeps the store
		c2.response("1")
		if left := store.Len(); left > 1 {
			t.Errorf("%d tasks left in the store after their TTL", left)
		}
		close(g.release)
		c2.close()
		deadline = time.After(5 * time.Second)
		for runtime.NumGoroutine() > before+2 {
			select {
			case <-deadline:
				t.Fatalf("%d goroutines left, %d before", runtime.NumGoroutine(), before)
			case <-time.After(20 * time.Millisecond):
			}
		}
		after := liveHeap()
		t.Logf("goroutines %d before, %d after; heap %d KiB before, %d KiB after", before, runtime.NumGoroutine(), heapBefore>>10, after>>10)
		if after > heapBefore+8<<20 {
			t.Errorf("heap grew from %d KiB to %d KiB", heapBefore>>10, after>>10)
		}
	})
}

// heap is the live heap after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// createLog is a shared task store that keeps a copy of each task as
// created and counts the updates.
type createLog struct {
	*mcpstore.MemoryTaskStore
	mu      sync.Mutex
	created []mcpstore.Task
	updates int
}

func (l *createLog) Create(ctx context.Context, t *mcpstore.Task) error {
	l.mu.Lock()
	l.created = append(l.created, *t)
	l.mu.Unlock()
	return l.MemoryTaskStore.Create(ctx, t)
}

func (l *createLog) Update(ctx context.Context, t *mcpstore.Task) error {
	l.mu.Lock()
	l.updates++
	l.mu.Unlock()
	return l.MemoryTaskStore.Update(ctx, t)
}

// TestRequiredTaskEndedInGrace: a call of a task=required tool that ends
// within the grace is answered with a working task, as ever, but stored
// once, already ended, with no lease and no run to end it: the first
// tasks/get finds the result, and nothing is written afterwards.
func TestRequiredTaskEndedInGrace(t *testing.T) {
	t.Parallel()
	must := textTool("must", "M")
	must.TaskSupport = mcprt.TaskRequired
	store := &createLog{MemoryTaskStore: mcpstore.NewMemoryTaskStore()}
	srv := taskServer(must)
	srv.Tasks = store
	c := startStdio(t, srv)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + extMeta + `,"name":"must"}}`)
	resp, _ := c.response("1")
	id, status, raw := taskOf(t, resp)
	if status != "working" || raw["resultType"] != "task" || raw["createdAt"] != raw["lastUpdatedAt"] {
		t.Errorf("the call's answer: %s; want a working task", resp)
	}
	store.mu.Lock()
	created := store.created
	store.mu.Unlock()
	if len(created) != 1 || created[0].ID != id || created[0].Status != mcpstore.TaskCompleted ||
		string(created[0].Result) != `{"content":[{"type":"text","text":"M"}]}` {
		t.Fatalf("tasks created: %+v; want %s, completed with its result", created, id)
	}
	if created[0].Runner != "" || !created[0].LeaseUntil.IsZero() || srv.running(id) != nil {
		t.Errorf("the ended task has runner %q, lease %v, run %v; want none", created[0].Runner, created[0].LeaseUntil, srv.running(id))
	}
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{` + extMeta + `,"taskId":"` + id + `"}}`)
	resp, _ = c.response("2")
	if _, status, raw := taskOf(t, resp); status != "completed" || raw["result"] == nil {
		t.Errorf("the first tasks/get: %s; want the task completed with its result", resp)
	}
	store.mu.Lock()
	updates := store.updates
	store.mu.Unlock()
	if updates != 0 {
		t.Errorf("%d updates of the ended task, want none", updates)
	}
}

// TestGetTaskAnswer: the answer to tasks/get is the task of the
// revision, and on 2026-07-28 what it holds for its status, in one
// allocation.
// Not parallel: AllocsPerRun counts the allocations of every goroutine.
func TestGetTaskAnswer(t *testing.T) {
	at := time.Date(2026, 7, 28, 12, 0, 0, 500, time.UTC)
	task := func(st mcpstore.TaskStatus) *mcpstore.Task {
		return &mcpstore.Task{ID: "T1", Status: st, CreatedAt: at, UpdatedAt: at.Add(time.Second), TTL: time.Minute, PollInterval: time.Second,
			Result: []byte(`{"content":[]}`), Error: []byte(`{"code":-32603,"message":"m"}`), InputRequests: []byte(`{"k":{"method":"elicitation/create","params":{}}}`)}
	}
	const head = `{"taskId":"T1","status":"%s","createdAt":"2026-07-28T12:00:00.0000005Z","lastUpdatedAt":"2026-07-28T12:00:01.0000005Z",`
	srv := taskServer()
	for _, c := range []struct {
		rev  wire.Revision
		task *mcpstore.Task
		want string
	}{
		{wire.Rev20251125, task(mcpstore.TaskCompleted), head + `"ttl":60000,"pollInterval":1000}`},
		{wire.Rev20260728, task(mcpstore.TaskWorking), head + `"ttlMs":60000,"pollIntervalMs":1000,"resultType":"complete"}`},
		{wire.Rev20260728, task(mcpstore.TaskInputRequired), head + `"ttlMs":60000,"pollIntervalMs":1000,"resultType":"complete","inputRequests":{"k":{"method":"elicitation/create","params":{}}}}`},
		{wire.Rev20260728, task(mcpstore.TaskCompleted), head + `"ttlMs":60000,"pollIntervalMs":1000,"resultType":"complete","result":{"resultType":"complete","content":[]}}`},
		{wire.Rev20260728, task(mcpstore.TaskFailed), head + `"ttlMs":60000,"pollIntervalMs":1000,"resultType":"complete","error":{"code":-32603,"message":"m"}}`},
	} {
		x := &exchange{exchangeCore: exchangeCore{rev: c.rev}}
		if got, want := string(srv.getTask(x, c.task)), strings.Replace(c.want, "%s", string(c.task.Status), 1); got != want {
			t.Errorf("%s, %s:\ngot  %s\nwant %s", c.rev, c.task.Status, got, want)
		}
		if n := testing.AllocsPerRun(50, func() { srv.getTask(x, c.task) }); n > 1 {
			t.Errorf("%s, %s: %v allocations, want 1", c.rev, c.task.Status, n)
		}
	}
}

// taskGoroutines counts the goroutines of task runs that wait in the
// server's task code beside their handler: a lease renewer, or one
// waiting for the handler's outcome to store it.
func taskGoroutines() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	count := 0
	for g := range strings.SplitSeq(string(buf), "\n\n") {
		if strings.Contains(g, "mcpserver.(*Server).keepLease") || strings.Contains(g, "mcpserver.(*Server).taskOf") {
			count++
		}
	}
	return count
}

// TestDetachedTaskGoroutines: a 2026-07-28 call that becomes a task on
// a shared store runs on its handler's goroutine alone: its lease is
// renewed by a timer, and the handler's goroutine stores its end.
//
// Not parallel: it counts the goroutines of the whole process.
func TestDetachedTaskGoroutines(t *testing.T) {
	g := newGate()
	srv := taskServer(g.tool("slow", mcprt.TaskRequired))
	srv.Tasks = mcpstore.NewMemoryTaskStore() // shared: its tasks have leases
	srv.TaskGrace = time.Millisecond
	c := startStdio(t, srv)
	before := taskGoroutines()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + extMeta + `,"name":"slow"}}`)
	resp, _ := c.response("1")
	id, status, _ := taskOf(t, resp)
	if status != "working" || srv.running(id) == nil {
		t.Fatalf("the call's answer: %s; want a working task, running", resp)
	}
	if n := taskGoroutines() - before; n != 0 {
		t.Errorf("%d goroutines of the run beside its handler, want none", n)
	}
	g.release <- struct{}{}
	deadline := time.Now().Add(timeout)
	for srv.running(id) != nil && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{` + extMeta + `,"taskId":"` + id + `"}}`)
	resp, _ = c.response("2")
	if _, status, _ := taskOf(t, resp); status != "completed" {
		t.Errorf("after the handler ended: %s; want the task completed", resp)
	}
}

// TestGraceEndsWithRequest: until a 2026-07-28 call becomes a task, its
// handler's context ends with its request: a client that goes away
// within the grace cancels the call.
func TestGraceEndsWithRequest(t *testing.T) {
	t.Parallel()
	g := newGate()
	srv := taskServer(g.tool("slow", mcprt.TaskOptional))
	srv.TaskGrace = time.Hour
	hs := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(hs.Close)
	t.Cleanup(func() { close(g.release) }) // first: a handler still waiting ends
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, hs.URL,
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`+extMeta+`,"name":"slow"}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	statelessHeaders("tools/call", "slow")(req)
	failed := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		failed <- err
	}()
	waitFor(t, g.started)
	cancel()
	select {
	case err := <-g.ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the handler ended with %v, want its context cancelled", err)
		}
	case <-time.After(timeout):
		t.Fatal("the handler still runs after its request went away")
	}
	if err := <-failed; err == nil {
		t.Error("the cancelled request got an answer")
	}
}
