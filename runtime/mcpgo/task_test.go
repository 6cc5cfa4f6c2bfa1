package mcpgo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/servertest"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// taskClient is mcp-go's own client, which has the tasks/* methods that
// go-sdk's lacks, connected to s over mcp-go's Streamable HTTP at
// 2025-11-25. It records the notifications it gets by method.
type taskClient struct {
	*client.Client
	progress, status *servertest.Notifications
	ids              atomic.Int64
}

// connectTasks connects a taskClient that listens on the standalone
// stream, where mcp-go sends what a task says after its call was answered,
// and waits until mcp-go has registered the stream's session; everything
// closes when the test ends.
func connectTasks(t *testing.T, s *server.MCPServer, opts ...client.ClientOption) *taskClient {
	t.Helper()
	tc := dialTasks(t, s, true, opts...)
	for deadline := time.Now().Add(5 * time.Second); s.SendNotificationToSpecificClient(tc.GetSessionId(), "notifications/test/ready", nil) != nil; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the standalone stream did not open")
		}
	}
	return tc
}

// dialTasks connects a taskClient, listening on the standalone stream or
// not.
func dialTasks(t *testing.T, s *server.MCPServer, listen bool, opts ...client.ClientOption) *taskClient {
	t.Helper()
	hs := httptest.NewServer(server.NewStreamableHTTPServer(s, server.WithStreamableHTTPLogger(discard))) // it logs that it listens
	var topts []transport.StreamableHTTPCOption
	if listen {
		topts = append(topts, transport.WithContinuousListening())
	}
	tr, err := transport.NewStreamableHTTP(hs.URL, topts...)
	if err != nil {
		t.Fatal(err)
	}
	tc := &taskClient{Client: client.NewClient(tr, append(opts, client.WithProtocolVersion("2025-11-25"))...),
		progress: servertest.NewNotifications(), status: servertest.NewNotifications()}
	tc.OnNotification(tc.record)
	ctx := context.Background()
	if err := tc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		tc.Close()
		hs.Close()
	})
	init := mcp.InitializeRequest{Params: mcp.InitializeParams{ClientInfo: mcp.Implementation{Name: "c", Version: "1"}}}
	if res, err := tc.Initialize(ctx, init); err != nil || res.ProtocolVersion != "2025-11-25" {
		t.Fatalf("initialize: %v, %v", res, err)
	}
	return tc
}

func (tc *taskClient) record(n mcp.JSONRPCNotification) {
	js, _ := json.Marshal(n.Params.AdditionalFields)
	switch n.Method {
	case string(mcp.MethodNotificationProgress):
		tc.progress.Add(string(js))
	case mcp.MethodNotificationTasksStatus:
		tc.status.Add(string(js))
	}
}

// call sends a tools/call of tool with the task param task (none when
// nil) and meta, through the client's transport: mcp-go's client has no
// method for a call answered with a task. It returns the raw result.
func (tc *taskClient) call(t *testing.T, tool string, task *mcp.TaskParams, meta *mcp.Meta) (json.RawMessage, error) {
	t.Helper()
	req := transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(fmt.Sprintf("call-%d", tc.ids.Add(1))),
		Method: string(mcp.MethodToolsCall), Params: mcp.CallToolParams{Name: tool, Arguments: map[string]any{}, Task: task, Meta: meta}}
	resp, err := tc.GetTransport().SendRequest(context.Background(), req)
	switch {
	case err != nil:
		return nil, err
	case resp.Error != nil:
		return nil, fmt.Errorf("%d %s", resp.Error.Code, resp.Error.Message)
	}
	return resp.Result, nil
}

// start starts tool as a task and returns the task of the answer.
func (tc *taskClient) start(t *testing.T, tool string, task *mcp.TaskParams, meta *mcp.Meta) mcp.Task {
	t.Helper()
	raw, err := tc.call(t, tool, task, meta)
	if err != nil {
		t.Fatalf("tools/call %s as a task: %v", tool, err)
	}
	var res mcp.CreateTaskResult
	if err := json.Unmarshal(raw, &res); err != nil || res.Task.TaskId == "" {
		t.Fatalf("tools/call %s as a task: %s, %v", tool, raw, err)
	}
	return res.Task
}

func (tc *taskClient) get(t *testing.T, id string) mcp.Task {
	t.Helper()
	res, err := tc.GetTask(context.Background(), mcp.GetTaskRequest{Params: mcp.GetTaskParams{TaskId: id}})
	if err != nil {
		t.Fatalf("tasks/get %s: %v", id, err)
	}
	return res.Task
}

// wait polls the task until it ends, as a client does.
func (tc *taskClient) wait(t *testing.T, id string) mcp.Task {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := tc.WaitForTask(ctx, mcp.GetTaskRequest{Params: mcp.GetTaskParams{TaskId: id}}, 10*time.Millisecond)
	if err != nil {
		t.Fatalf("waiting for task %s: %v", id, err)
	}
	return res.Task
}

// result is tasks/result of task id, as JSON, or the error as "code message".
func (tc *taskClient) result(id string) string {
	res, err := tc.TaskResult(context.Background(), mcp.TaskResultRequest{Params: mcp.TaskResultParams{TaskId: id}})
	if err != nil {
		return err.Error()
	}
	js, _ := json.Marshal(res)
	return string(js)
}

// gate is a tool whose handler says it started, then waits until the test
// opens the gate or its context ends, and reports which.
type gate struct {
	started chan struct{}
	open    chan struct{}
	ended   chan string
}

func newGate() *gate {
	return &gate{started: make(chan struct{}, 100), open: make(chan struct{}), ended: make(chan string, 100)}
}

func (g *gate) tool(name string, support mcprt.TaskSupport) mcprt.Tool {
	return mcprt.Tool{Name: name, Description: "waits", InputSchema: []byte(`{"type":"object"}`), TaskSupport: support,
		Handler: func(ctx context.Context, _ []byte) mcprt.Result {
			g.started <- struct{}{}
			select {
			case <-g.open:
				g.ended <- "opened"
				return mcprt.TextResult("opened")
			case <-ctx.Done():
				g.ended <- ctx.Err().Error()
				return mcprt.ErrorResult(ctx.Err())
			}
		}}
}

// waitStarted waits for the handler to start.
func (g *gate) waitStarted(t *testing.T) {
	t.Helper()
	select {
	case <-g.started:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler did not start")
	}
}

// waitEnded waits for the handler to end and returns why it did.
func (g *gate) waitEnded(t *testing.T) string {
	t.Helper()
	select {
	case why := <-g.ended:
		return why
	case <-time.After(5 * time.Second):
		t.Fatal("the handler did not end")
		return ""
	}
}

// stillRunning checks that the handler has not ended for a while.
func (g *gate) stillRunning(t *testing.T) {
	t.Helper()
	select {
	case why := <-g.ended:
		t.Fatalf("the handler ended: %s", why)
	case <-time.After(100 * time.Millisecond):
	}
}

// instant is a tool that answers at once, with text or, failing, an error.
func instant(name, text string, failing bool, support mcprt.TaskSupport) mcprt.Tool {
	return mcprt.Tool{Name: name, Description: "answers", InputSchema: []byte(`{"type":"object"}`), TaskSupport: support,
		Handler: func(context.Context, []byte) mcprt.Result {
			if failing {
				return mcprt.ErrorResult(errors.New(text))
			}
			return mcprt.TextResult(text)
		}}
}

var tasksOn = mcprt.Identity{Name: "t", Version: "1", EnableTasks: true}

// TestTaskLifecycle follows tasks from their calls to their results with
// a real client: a call answers with a working task at once, tasks/get
// sees it working, progress reaches the client, the end is notified,
// tasks/result answers the result and waits for the end of a task still
// running, and tasks/list pages through the session's tasks. (Messages are
// awaited while no other request of the session ends: mcp-go may drop a
// message that an ending request takes from the session.)
func TestTaskLifecycle(t *testing.T) {
	t.Parallel()
	g, waiting := newGate(), newGate()
	answered := make(chan struct{})
	slow := g.tool("slow", mcprt.TaskOptional)
	gated := slow.Handler
	slow.Handler = func(ctx context.Context, args []byte) mcprt.Result {
		<-answered
		if err := mcprt.Progress(ctx, 1, 2, "half way"); err != nil {
			return mcprt.ErrorResult(err)
		}
		return gated(ctx, args)
	}
	id := tasksOn
	id.PageSize = 2
	tc := connectTasks(t, NewServer(id, slow, waiting.tool("waiting", mcprt.TaskRequired), instant("quick", "done", false, mcprt.TaskRequired)))

	ttl := int64(60000)
	task := tc.start(t, "slow", &mcp.TaskParams{TTL: &ttl}, &mcp.Meta{ProgressToken: "p1"})
	if task.Status != mcp.TaskStatusWorking || task.TTL == nil || *task.TTL != ttl {
		t.Errorf("created %+v, want working with ttl %d", task, ttl)
	}
	if got := tc.get(t, task.TaskId); got.Status != mcp.TaskStatusWorking {
		t.Errorf("tasks/get: %s, want working", got.Status)
	}
	close(answered)
	tc.progress.Wait(t, "notifications/progress")
	if got := tc.progress.List()[0]; !strings.Contains(got, `"progressToken":"p1"`) || !strings.Contains(got, `"message":"half way"`) {
		t.Errorf("progress: %s", got)
	}
	g.waitStarted(t)
	close(g.open)
	tc.status.Wait(t, "notifications/tasks/status")
	if got := tc.status.List()[0]; !strings.Contains(got, `"status":"completed"`) || !strings.Contains(got, task.TaskId) {
		t.Errorf("status notification: %s", got)
	}
	if got := tc.get(t, task.TaskId); got.Status != mcp.TaskStatusCompleted {
		t.Errorf("tasks/get after the end: %s, want completed", got.Status)
	}
	want := `{"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"` + task.TaskId + `"}},"content":[{"type":"text","text":"opened"}]}`
	if got := tc.result(task.TaskId); got != want {
		t.Errorf("tasks/result\n got %s\nwant %s", got, want)
	}

	resultWaits(t, tc, waiting)
	tc.start(t, "quick", &mcp.TaskParams{}, nil)
	tc.start(t, "quick", &mcp.TaskParams{}, nil)
	listTasks(t, tc, 4)
}

// resultWaits checks that tasks/result of a running task answers only
// once the task ends.
func resultWaits(t *testing.T, tc *taskClient, g *gate) {
	t.Helper()
	task := tc.start(t, "waiting", &mcp.TaskParams{}, nil)
	g.waitStarted(t)
	result := make(chan string, 1)
	go func() { result <- tc.result(task.TaskId) }()
	select {
	case r := <-result:
		t.Fatalf("tasks/result answered before the task ended: %s", r)
	case <-time.After(100 * time.Millisecond):
	}
	close(g.open)
	want := `{"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"` + task.TaskId + `"}},"content":[{"type":"text","text":"opened"}]}`
	if got := <-result; got != want {
		t.Errorf("tasks/result\n got %s\nwant %s", got, want)
	}
}

// listTasks checks that tasks/list pages through n tasks, two a page.
func listTasks(t *testing.T, tc *taskClient, n int) {
	t.Helper()
	ctx := context.Background()
	page, err := tc.ListTasksByPage(ctx, mcp.ListTasksRequest{})
	if err != nil || len(page.Tasks) != 2 || page.NextCursor == "" {
		t.Fatalf("tasks/list first page: %+v, %v; want 2 tasks and a cursor", page, err)
	}
	all, err := tc.ListTasks(ctx, mcp.ListTasksRequest{})
	if err != nil || len(all.Tasks) != n {
		t.Fatalf("tasks/list: %+v, %v; want %d tasks", all, err, n)
	}
}

// TestTaskCancel cancels a running task: the answer is the cancelled
// task, the handler's context ends, and cancelling it again is refused.
func TestTaskCancel(t *testing.T) {
	t.Parallel()
	g := newGate()
	tc := connectTasks(t, NewServer(tasksOn, g.tool("slow", mcprt.TaskRequired)))
	task := tc.start(t, "slow", &mcp.TaskParams{}, nil)
	g.waitStarted(t)
	g.stillRunning(t) // not ended by the end of its call

	ctx := context.Background()
	res, err := tc.CancelTask(ctx, mcp.CancelTaskRequest{Params: mcp.CancelTaskParams{TaskId: task.TaskId}})
	if err != nil || res.Status != mcp.TaskStatusCancelled {
		t.Fatalf("tasks/cancel: %+v, %v", res, err)
	}
	if why := g.waitEnded(t); why != "context canceled" {
		t.Errorf("the handler ended with %q, want its context cancelled", why)
	}
	if got := tc.get(t, task.TaskId); got.Status != mcp.TaskStatusCancelled {
		t.Errorf("tasks/get: %s, want cancelled", got.Status)
	}
	_, err = tc.CancelTask(ctx, mcp.CancelTaskRequest{Params: mcp.CancelTaskParams{TaskId: task.TaskId}})
	if got := fmt.Sprint(err); !strings.Contains(got, "cannot cancel task in terminal status: cancelled") {
		t.Errorf("cancelling again: %v, want refused", err)
	}
}

// TestTaskPanicFails checks that a handler that panics fails its task, and
// tasks/result answers the error the built-in server answers.
func TestTaskPanicFails(t *testing.T) {
	t.Parallel()
	boom := mcprt.Tool{Name: "boom", Description: "panics", InputSchema: []byte(`{"type":"object"}`), TaskSupport: mcprt.TaskOptional,
		Handler: func(context.Context, []byte) mcprt.Result { panic("kaput") }}
	s := NewServer(tasksOn, boom)
	SetLogger(s, discard)
	sess := newTestSession("boom", "2025-11-25")
	id, err := rawTask(s, sess, "boom")
	if err != nil {
		t.Fatal(err)
	}
	const msg = `"internal error: tool \"boom\" panicked: kaput"`
	if got, want := rawRequest(s, sess, "tasks/result", id), `{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":`+msg+`}}`; got != want {
		t.Errorf("tasks/result\n got %s\nwant %s", got, want)
	}
	if got := rawRequest(s, sess, "tasks/get", id); !strings.Contains(got, `"status":"failed","statusMessage":`+msg) {
		t.Errorf("tasks/get: %s, want failed", got)
	}
}

// TestTaskSupportWithoutTask checks calls that carry no task param, with
// go-sdk's client: a task=required tool is refused with mcp-go's -32601,
// a task=optional one runs as an ordinary call.
func TestTaskSupportWithoutTask(t *testing.T) {
	t.Parallel()
	s := NewServer(tasksOn, instant("must", "m", false, mcprt.TaskRequired), instant("may", "ran", false, mcprt.TaskOptional))
	cs := connect(t, s, "2025-11-25", nil)
	ctx := context.Background()
	_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "must", Arguments: map[string]any{}})
	if got, want := servertest.RPCError(err), "-32601 tool 'must' requires task augmentation"; got != want {
		t.Errorf("task=required without task: %s, want %s", got, want)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "may", Arguments: map[string]any{}})
	if err != nil || len(res.Content) != 1 || res.Content[0].(*sdk.TextContent).Text != "ran" {
		t.Errorf("task=optional without task: %+v, %v", res, err)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 2 {
		t.Fatalf("tools/list: %+v, %v", tools, err)
	}
}

// TestTaskExpiry checks that a task's handler ends at the task's ttl, when
// mcp-go forgets the task. It runs on synctest's clock: the ttl passes
// without the test waiting for it.
func TestTaskExpiry(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		g := newGate()
		s := NewServer(tasksOn, g.tool("slow", mcprt.TaskOptional))
		sess := newTestSession("expiring", "2025-11-25")
		ctx := s.WithContext(context.Background(), sess)
		if err := s.RegisterSession(ctx, sess); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		out, _ := json.Marshal(s.HandleMessage(ctx, json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{},"task":{"ttl":200}}}`)))
		var resp struct{ Result mcp.CreateTaskResult }
		if err := json.Unmarshal(out, &resp); err != nil || resp.Result.Task.TaskId == "" {
			t.Fatalf("tools/call as a task: %s", out)
		}
		g.waitStarted(t)
		if why := g.waitEnded(t); why != "context deadline exceeded" {
			t.Errorf("the handler ended with %q, want its deadline", why)
		}
		if d := time.Since(start); d != 200*time.Millisecond {
			t.Errorf("the handler ended after %v, want the ttl, 200ms", d)
		}
		time.Sleep(time.Millisecond)
		if got := rawRequest(s, sess, "tasks/get", resp.Result.Task.TaskId); !strings.Contains(got, "task has expired") {
			t.Errorf("tasks/get of an expired task: %s", got)
		}
		s.UnregisterSession(ctx, sess.id)
	})
}

// TestTaskSessionEnd checks that the end of a session ends its tasks'
// handlers, as the built-in server's do, where mcp-go unregisters the
// session.
func TestTaskSessionEnd(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		g := newGate()
		s := NewServer(tasksOn, g.tool("slow", mcprt.TaskOptional))
		sess := newTestSession("ending", "2025-11-25")
		ctx := s.WithContext(context.Background(), sess)
		if err := s.RegisterSession(ctx, sess); err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(s.HandleMessage(ctx, json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{},"task":{}}}`)))
		if !strings.Contains(string(out), `"status":"working"`) {
			t.Fatalf("tools/call as a task: %s", out)
		}
		g.waitStarted(t)
		g.stillRunning(t)
		s.UnregisterSession(ctx, sess.id)
		if why := g.waitEnded(t); why != "context canceled" {
			t.Errorf("the handler ended with %q, want its context cancelled", why)
		}
	})
}

// TestTaskRaceManyCalls runs tasks that end at once beside tasks that are
// cancelled, in sessions of their own, so that the race detector sees the
// hooks and the handlers meet in whatever order they come, and checks that
// no run is left behind, nor any for the tasks of a tool the caller added
// to mcp-go directly.
func TestTaskRaceManyCalls(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		g := newGate()
		s := NewServer(tasksOn, g.tool("slow", mcprt.TaskOptional), instant("quick", "done", false, mcprt.TaskOptional))
		theirs := mcp.NewTool("theirs", mcp.WithTaskSupport(mcp.TaskSupportOptional))
		s.AddTool(theirs, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("done"), nil
		})
		const n = 20
		done := make(chan error, 3*n)
		for i := range n {
			go func() { done <- quickTask(s, "quick", i) }()
			go func() { done <- quickTask(s, "theirs", i) }()
			go func() { done <- cancelledTask(s, i) }()
		}
		for range 3 * n {
			if err := <-done; err != nil {
				t.Error(err)
			}
		}
		for range n {
			if why := g.waitEnded(t); why != "context canceled" {
				t.Errorf("a cancelled handler ended with %q", why)
			}
		}
		synctest.Wait() // every handler has returned
		rs := &registryOf(s).tasks
		rs.mu.Lock()
		byID, byCall := len(rs.byID), len(rs.byCall)
		rs.mu.Unlock()
		if byID != 0 || byCall != 0 {
			t.Errorf("runs left behind: %d by id, %d by call", byID, byCall)
		}
	})
}

// rawTask starts tool as a task in session sess and returns its id.
func rawTask(s *server.MCPServer, sess *testSession, tool string) (string, error) {
	ctx := s.WithContext(context.Background(), sess)
	out, _ := json.Marshal(s.HandleMessage(ctx, json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+tool+`","arguments":{},"task":{}}}`)))
	var resp struct{ Result mcp.CreateTaskResult }
	if err := json.Unmarshal(out, &resp); err != nil || resp.Result.Task.TaskId == "" {
		return "", fmt.Errorf("tools/call %s as a task: %s", tool, out)
	}
	return resp.Result.Task.TaskId, nil
}

// rawRequest sends one request about task id in session sess.
func rawRequest(s *server.MCPServer, sess *testSession, method, id string) string {
	ctx := s.WithContext(context.Background(), sess)
	out, _ := json.Marshal(s.HandleMessage(ctx, json.RawMessage(`{"jsonrpc":"2.0","id":2,"method":"`+method+`","params":{"taskId":"`+id+`"}}`)))
	return string(out)
}

func quickTask(s *server.MCPServer, tool string, i int) error {
	sess := newTestSession(fmt.Sprintf("%s-%d", tool, i), "2025-11-25")
	id, err := rawTask(s, sess, tool)
	if err != nil {
		return err
	}
	if got := rawRequest(s, sess, "tasks/result", id); !strings.Contains(got, `"text":"done"`) {
		return fmt.Errorf("tasks/result of a task of %s: %s", tool, got)
	}
	return nil
}

func cancelledTask(s *server.MCPServer, i int) error {
	sess := newTestSession(fmt.Sprintf("slow-%d", i), "2025-11-25")
	id, err := rawTask(s, sess, "slow")
	if err != nil {
		return err
	}
	if got := rawRequest(s, sess, "tasks/cancel", id); !strings.Contains(got, `"status":"cancelled"`) {
		return fmt.Errorf("tasks/cancel: %s", got)
	}
	return nil
}

// TestTaskMaskErrors: with MaskErrors, a task's panic and its function's
// error reach the client masked, as a call's do, and the real errors go to
// the server's logger.
func TestTaskMaskErrors(t *testing.T) {
	t.Parallel()
	logger, logs := servertest.NewLog()
	tool := func(name string, h mcprt.Handler) mcprt.Tool {
		return mcprt.Tool{Name: name, Description: name, InputSchema: []byte(`{"type":"object"}`), TaskSupport: mcprt.TaskOptional, Handler: h}
	}
	s := NewServer(tasksOn,
		tool("boom", func(context.Context, []byte) mcprt.Result { panic("kaput at /srv/data") }),
		tool("fn", func(context.Context, []byte) mcprt.Result {
			return mcpimpl.CallError(errors.New("locked at /srv/data"))
		}))
	MaskErrors(s, true)
	SetLogger(s, logger)
	for _, name := range []string{"boom", "fn"} {
		sess := newTestSession(name, "2025-11-25")
		id, err := rawTask(s, sess, name)
		if err != nil {
			t.Fatal(err)
		}
		if got := rawRequest(s, sess, "tasks/result", id); strings.Contains(got, "/srv/data") || !strings.Contains(got, "internal error; the server logged it with correlation id ") {
			t.Errorf("%s: tasks/result %s, want the masked text", name, got)
		}
	}
	for _, want := range []string{`msg="mcp tool panicked" tool=boom panic="kaput at /srv/data"`, `error="locked at /srv/data"`} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log lacks %s:\n%s", want, logs)
		}
	}
}
