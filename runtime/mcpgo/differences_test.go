package mcpgo

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/fixture"
	"github.com/mcpgen/mcpgen/internal/servertest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestDifferences checks each difference from the built-in server that
// the package documentation lists for prompts, resources and completions,
// asserting what mcp-go does, so that a change in mcp-go shows here.
func TestDifferences(t *testing.T) {
	t.Parallel()
	annotated := mcprt.Resource{URI: "test://annotated", Name: "annotated", Title: "Annotated",
		Annotations: &mcprt.Annotations{Audience: []string{"user"}, LastModified: "2026-01-02T15:04:05Z"},
		Read: func(context.Context, string) ([]mcprt.ResourceContents, error) {
			return []mcprt.ResourceContents{{Text: "a"}}, nil
		}}
	s := NewServer(mcprt.Identity{Name: "t", Version: "1", EnableCompletions: true, EnableResourceSubscriptions: true})
	AddPrompts(s, fixture.Kinds, fixture.Failing)
	AddResources(s, annotated, fixture.DataTemplate, fixture.TextResource("test://b", "b"), fixture.TextResource("test://a", "a"), fixture.Gone)
	old := func(method, params string) string { return call(t, s, "2024-11-05", method, params) }

	t.Run("descriptors are the same on every revision on a server the caller made", func(t *testing.T) {
		own := server.NewMCPServer("t", "1", server.WithToolCapabilities(false))
		AddPrompts(own, fixture.Kinds)
		AddResources(own, annotated)
		AddTools(own, fixture.SampleTools()...)
		prompts := call(t, own, "2024-11-05", "prompts/list", `{}`)
		if !strings.Contains(prompts, `"title":"Every kind"`) || !strings.Contains(prompts, `"icons":[`) {
			t.Errorf("2024-11-05 prompts/list without title or icons: %s", prompts)
		}
		if resources := call(t, own, "2024-11-05", "resources/list", `{}`); !strings.Contains(resources, `"annotations":{"audience":["user"],"lastModified":"2026-01-02T15:04:05Z"}`) {
			t.Errorf("2024-11-05 resources/list without annotations: %s", resources)
		}
		if tools := call(t, own, "2024-11-05", "tools/list", `{}`); !strings.Contains(tools, `"annotations":{"title":"Full","readOnlyHint":true,"openWorldHint":false}`) || !strings.Contains(tools, `"execution":{"taskSupport":"optional"}`) {
			t.Errorf("2024-11-05 tools/list without annotations or execution: %s", tools)
		}
		// The output schema is the wrapped one, valid on every revision
		// with structured output, and so are the results on 2026-07-28.
		if got := call(t, own, "2026-07-28", "tools/call", `{"name":"b_full","arguments":{}}`); !strings.Contains(got, `"structuredContent":{"result":[1,2]}`) {
			t.Errorf("2026-07-28 call on a server the caller made: %s, want the wrapped result", got)
		}
	})
	t.Run("annotations always written", func(t *testing.T) {
		tools := NewServer(mcprt.Identity{Name: "t", Version: "1"}, fixture.SampleTools()...)
		for rev, want := range map[string]string{
			"2024-11-05": `"annotations":{},"description":"Has everything."`,
			"2025-11-25": `"annotations":{},"description":"Has no title and no hints."`,
		} {
			if got := call(t, tools, rev, "tools/list", `{}`); !strings.Contains(got, want) {
				t.Errorf("%s tools/list: %s, want %s", rev, got, want)
			}
		}
	})
	t.Run("lists are sorted by name", func(t *testing.T) {
		if got := old("prompts/list", `{}`); strings.Index(got, `"name":"failing"`) > strings.Index(got, `"name":"kinds"`) {
			t.Errorf("prompts not sorted by name: %s", got)
		}
		if got := old("resources/list", `{}`); strings.Index(got, `"name":"a"`) > strings.Index(got, `"name":"annotated"`) {
			t.Errorf("resources not sorted by name: %s", got)
		}
	})
	t.Run("a prompt's argument error is -32603", func(t *testing.T) {
		if got, want := old("prompts/get", `{"name":"kinds"}`), `{"error":{"code":-32603,"message":"invalid arguments:\nwho: required argument is missing"}}`; got != want {
			t.Errorf("\n got %s\nwant %s", got, want)
		}
	})
	t.Run("a read handler's not found is -32603", func(t *testing.T) {
		for _, rev := range []string{"2025-11-25", "2026-07-28"} {
			for uri, want := range map[string]string{
				"test://gone":            `{"error":{"code":-32603,"message":"resource not found: test://gone: looking up test://gone"}}`,
				"test://template/0/data": `{"error":{"code":-32603,"message":"resource not found: test://template/0/data"}}`,
			} {
				if got := call(t, s, rev, "resources/read", `{"uri":"`+uri+`"}`); got != want {
					t.Errorf("%s %s:\n got %s\nwant %s", rev, uri, got, want)
				}
			}
		}
	})
	t.Run("mcp-go's own not found has no data", func(t *testing.T) {
		for rev, code := range map[string]string{"2024-11-05": "-32002", "2025-11-25": "-32002", "2026-07-28": "-32602"} {
			want := `{"error":{"code":` + code + `,"message":"handler not found for resource URI 'test://nope': resource not found"}}`
			if got := call(t, s, rev, "resources/read", `{"uri":"test://nope"}`); got != want {
				t.Errorf("%s:\n got %s\nwant %s", rev, got, want)
			}
		}
	})
	t.Run("templates match as mcp-go's matcher does", func(t *testing.T) {
		const uri = "test://template/a:b/data"
		if contents, err := fixture.DataTemplate.Read(context.Background(), uri); err != nil || len(contents) != 1 {
			t.Fatalf("the template itself serves %s: %v, %v", uri, contents, err)
		}
		if got := old("resources/read", `{"uri":"`+uri+`"}`); !strings.Contains(got, `"code":-32002`) {
			t.Errorf("%s: %s, want not found", uri, got)
		}
	})
	t.Run("completion of an unknown prompt is -32603", func(t *testing.T) {
		if got, want := old("completion/complete", `{"ref":{"type":"ref/prompt","name":"nope"},"argument":{"name":"x","value":""}}`), `{"error":{"code":-32603,"message":"invalid params: unknown prompt \"nope\""}}`; got != want {
			t.Errorf("\n got %s\nwant %s", got, want)
		}
	})
	t.Run("completion leaves out zero total and hasMore", func(t *testing.T) {
		if got, want := old("completion/complete", `{"ref":{"type":"ref/prompt","name":"failing"},"argument":{"name":"x","value":""}}`), `{"completion":{"values":[]}}`; got != want {
			t.Errorf("\n got %s\nwant %s", got, want)
		}
	})
	t.Run("completions capability on 2024-11-05", func(t *testing.T) {
		if got := old("initialize", `{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`); !strings.Contains(got, `"completions":{}`) {
			t.Errorf("2024-11-05 initialize: %s", got)
		}
	})
	t.Run("completions only on a server NewServer made", func(t *testing.T) {
		own := server.NewMCPServer("t", "1", server.WithCompletions())
		AddPrompts(own, fixture.CompletingPrompts()...)
		AddResources(own, fixture.CompletingResources()...)
		if got, want := call(t, own, "2025-11-25", "completion/complete", `{"ref":{"type":"ref/prompt","name":"show"},"argument":{"name":"x","value":""}}`), `{"completion":{"values":[]}}`; got != want {
			t.Errorf("mcp-go's default provider:\n got %s\nwant %s", got, want)
		}
	})
	t.Run("listChanged and subscribe on 2026-07-28", func(t *testing.T) {
		if got := call(t, s, "2026-07-28", "server/discover", `{}`); !strings.Contains(got, `"resources":{"subscribe":true}`) {
			t.Errorf("2026-07-28 discover: %s, want resources.subscribe", got)
		}
	})
	t.Run("a listen stream is not told of updates", func(t *testing.T) { listenIsNotTold(t, s) })
	t.Run("resources and templates added together notify twice", func(t *testing.T) {
		changed := servertest.NewNotifications()
		s := NewServer(mcprt.Identity{Name: "t", Version: "1", EnableResourceNotifications: true})
		connect(t, s, "2025-11-25", &sdk.ClientOptions{ResourceListChangedHandler: func(context.Context, *sdk.ResourceListChangedRequest) {
			changed.Add("resources")
		}})
		AddResources(s, fixture.TextResource("test://late", "late"), fixture.DataTemplate)
		changed.Wait(t, "notifications/resources/list_changed")
		changed.Wait(t, "a second notifications/resources/list_changed")
	})
}

// listenIsNotTold opens a subscriptions/listen stream of 2026-07-28 asking
// for updates of one URI: mcp-go acknowledges the subscription, but keeps
// it only in a session that implements SessionWithResourceSubscriptions,
// which none of its own do, so ResourceUpdated finds no one to tell.
func listenIsNotTold(t *testing.T, s *server.MCPServer) {
	sess := newTestSession("listen", "2026-07-28")
	ctx, cancel := context.WithCancel(s.WithContext(context.Background(), sess))
	done := make(chan any)
	go func() {
		done <- s.HandleMessage(ctx, json.RawMessage(`{"jsonrpc":"2.0","id":9,"method":"subscriptions/listen","params":{`+servertest.StatelessMeta+`,"notifications":{"resourceSubscriptions":["test://a"]}}}`))
	}()
	select {
	case ack := <-sess.ch:
		js, _ := json.Marshal(ack)
		if !strings.Contains(string(js), `"notifications/subscriptions/acknowledged"`) || !strings.Contains(string(js), `"resourceSubscriptions":["test://a"]`) {
			t.Errorf("acknowledgement: %s", js)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no acknowledgement")
	}
	ResourceUpdated(s, "test://a")
	select {
	case n := <-sess.ch:
		t.Errorf("the listen stream was told: %+v", n)
	case <-time.After(100 * time.Millisecond):
	}
	cancel()
	<-done
}

// TestTaskDifferences checks each difference from the built-in server that
// the package documentation lists for tasks, asserting what mcp-go does,
// so that a change in mcp-go shows here.
func TestTaskDifferences(t *testing.T) {
	t.Parallel()
	t.Run("a tool error completes the task", func(t *testing.T) {
		tc := connectTasks(t, NewServer(tasksOn, instant("fail", "no such order", true, mcprt.TaskOptional)))
		task := tc.wait(t, tc.start(t, "fail", &mcp.TaskParams{}, nil).TaskId)
		if task.Status != mcp.TaskStatusCompleted {
			t.Errorf("status %s, want mcp-go's completed (2025-11-25: failed)", task.Status)
		}
		if got := tc.result(task.TaskId); !strings.Contains(got, `"isError":true`) || !strings.Contains(got, "no such order") {
			t.Errorf("tasks/result: %s, want the tool's error result", got)
		}
	})
	t.Run("progress sets no status message", progressSetsNoStatusMessage)
	t.Run("a question leaves the task working", aQuestionLeavesTheTaskWorking)
	t.Run("a question waits without a standalone stream", aQuestionWaitsWithoutAStream)
	t.Run("the ttl is the client's", func(t *testing.T) {
		tc := connectTasks(t, NewServer(tasksOn, instant("quick", "done", false, mcprt.TaskOptional)))
		huge := int64(1e12)
		if task := tc.start(t, "quick", &mcp.TaskParams{TTL: &huge}, nil); task.TTL == nil || *task.TTL != huge {
			t.Errorf("ttl %v, want the client's %d unbounded", task.TTL, huge)
		}
		raw, err := tc.call(t, "quick", &mcp.TaskParams{}, nil)
		if err != nil || !strings.Contains(string(raw), `"ttl":null`) || strings.Contains(string(raw), "pollInterval") {
			t.Errorf("a task without ttl: %s, %v; want ttl null and no pollInterval", raw, err)
		}
	})
	t.Run("tasks are not bounded", func(t *testing.T) {
		s := NewServer(tasksOn, instant("quick", "done", false, mcprt.TaskOptional))
		sess := newTestSession("many", "2025-11-25")
		for i := range 101 { // the built-in server keeps 100 a session
			if _, err := rawTask(s, sess, "quick"); err != nil {
				t.Fatalf("task %d: %v", i+1, err)
			}
		}
	})
	t.Run("tasks/list is ordered by task id", func(t *testing.T) {
		s := NewServer(tasksOn, instant("quick", "done", false, mcprt.TaskOptional))
		sess := newTestSession("listed", "2025-11-25")
		for range 5 {
			if _, err := rawTask(s, sess, "quick"); err != nil {
				t.Fatal(err)
			}
		}
		var list struct{ Result mcp.ListTasksResult }
		json.Unmarshal([]byte(rawRequest(s, sess, "tasks/list", "")), &list)
		ids := make([]string, len(list.Result.Tasks))
		for i, task := range list.Result.Tasks {
			ids[i] = task.TaskId
		}
		if len(ids) != 5 || !slices.IsSorted(ids) {
			t.Errorf("tasks/list ids %v, want 5 sorted", ids)
		}
	})
	t.Run("status notifications go to every session", func(t *testing.T) {
		s := NewServer(tasksOn, instant("quick", "done", false, mcprt.TaskOptional))
		owner, other := connectTasks(t, s), connectTasks(t, s)
		task := owner.start(t, "quick", &mcp.TaskParams{}, nil)
		other.status.Wait(t, "another session's notifications/tasks/status")
		if got := other.status.List()[0]; !strings.Contains(got, task.TaskId) {
			t.Errorf("the other session was told %s", got)
		}
	})
	t.Run("a cancelled task's result is empty", func(t *testing.T) {
		g := newGate()
		s := NewServer(tasksOn, g.tool("slow", mcprt.TaskOptional))
		sess := newTestSession("cancelled", "2025-11-25")
		id, err := rawTask(s, sess, "slow")
		if err != nil {
			t.Fatal(err)
		}
		rawRequest(s, sess, "tasks/cancel", id)
		want := `{"jsonrpc":"2.0","id":2,"result":{"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"` + id + `"}}}}`
		if got := rawRequest(s, sess, "tasks/result", id); got != want {
			t.Errorf("tasks/result of a cancelled task\n got %s\nwant %s (built-in: -32603)", got, want)
		}
		g.waitEnded(t)
	})
	t.Run("a failed task's status message is its error", func(t *testing.T) {
		boom := mcprt.Tool{Name: "boom", Description: "panics", InputSchema: []byte(`{"type":"object"}`), TaskSupport: mcprt.TaskOptional,
			Handler: func(context.Context, []byte) mcprt.Result { panic("kaput") }}
		s := NewServer(tasksOn, boom)
		SetLogger(s, discard)
		sess := newTestSession("failed", "2025-11-25")
		id, _ := rawTask(s, sess, "boom")
		rawRequest(s, sess, "tasks/result", id)
		if got := rawRequest(s, sess, "tasks/get", id); !strings.Contains(got, `"statusMessage":"internal error: tool \"boom\" panicked: kaput"`) {
			t.Errorf("tasks/get: %s", got)
		}
	})
	t.Run("a tool without task support called with task runs as a call", func(t *testing.T) {
		s := NewServer(tasksOn, instant("plain", "ran", false, mcprt.TaskForbidden))
		if got, want := call(t, s, "2025-11-25", "tools/call", `{"name":"plain","arguments":{},"task":{}}`), `{"content":[{"type":"text","text":"ran"}]}`; got != want {
			t.Errorf("\n got %s\nwant %s (built-in: -32601)", got, want)
		}
	})
	t.Run("the tasks capability on every revision", func(t *testing.T) {
		s := NewServer(tasksOn)
		if got := call(t, s, "2025-06-18", "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`); !strings.Contains(got, `"tasks":{`) {
			t.Errorf("2025-06-18 initialize: %s, want mcp-go's tasks capability", got)
		}
		if got := call(t, s, "2026-07-28", "server/discover", `{}`); !strings.Contains(got, `"tasks":{`) {
			t.Errorf("2026-07-28 discover: %s, want mcp-go's tasks capability", got)
		}
	})
	t.Run("no tasks extension on 2026-07-28", noTasksExtension)
	t.Run("tasks/cancel does not reach the handler on a server the caller made", cancelOnCallersServer)
	t.Run("no task support without EnableTasks", func(t *testing.T) {
		s := NewServer(mcprt.Identity{Name: "t", Version: "1"}, instant("may", "ran", false, mcprt.TaskOptional))
		if got := call(t, s, "2025-11-25", "tools/list", `{}`); strings.Contains(got, "execution") {
			t.Errorf("tools/list: %s, want no execution (built-in: published)", got)
		}
		if got, want := call(t, s, "2025-11-25", "tools/call", `{"name":"may","arguments":{},"task":{}}`), `{"content":[{"type":"text","text":"ran"}]}`; got != want {
			t.Errorf("a call with task\n got %s\nwant %s", got, want)
		}
	})
}

// progressSetsNoStatusMessage: mcprt.Progress reaches the client as
// notifications/progress, but mcp-go has no way to set a task's status
// message.
func progressSetsNoStatusMessage(t *testing.T) {
	g := newGate()
	answered := make(chan struct{})
	slow := g.tool("slow", mcprt.TaskOptional)
	gated := slow.Handler
	slow.Handler = func(ctx context.Context, args []byte) mcprt.Result {
		<-answered // what the call's closing stream takes is lost
		_ = mcprt.Progress(ctx, 1, 2, "half way")
		return gated(ctx, args)
	}
	tc := connectTasks(t, NewServer(tasksOn, slow))
	task := tc.start(t, "slow", &mcp.TaskParams{}, &mcp.Meta{ProgressToken: "p"})
	close(answered)
	tc.progress.Wait(t, "notifications/progress")
	g.waitStarted(t)
	if got := tc.get(t, task.TaskId); got.Status != mcp.TaskStatusWorking || got.StatusMessage != "" {
		t.Errorf("tasks/get: %+v, want working without a status message", got)
	}
	close(g.open)
}

// elicitor answers every elicitation with accept, after checking what the
// task looks like meanwhile.
type elicitor struct {
	during func(mcp.ElicitationRequest)
}

func (e elicitor) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	e.during(req)
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"ok": true}}}, nil
}

// asker is a task=optional tool that asks the client once the test says
// its call was answered (a question mcp-go sends on the call's own stream
// as that stream closes may be lost), says how the question ended, and
// answers with the answer.
func asker(answered <-chan struct{}, ended chan<- string) mcprt.Tool {
	return mcprt.Tool{Name: "ask", Description: "asks", InputSchema: []byte(`{"type":"object"}`), TaskSupport: mcprt.TaskOptional,
		Handler: func(ctx context.Context, _ []byte) mcprt.Result {
			<-answered
			res, err := mcprt.Elicit(ctx, "sure?", []byte(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`))
			ended <- fmt.Sprint(err)
			if err != nil {
				return mcprt.ErrorResult(err)
			}
			return mcprt.TextResult(res.Action + " " + string(res.Content))
		}}
}

var asking = mcprt.Identity{Name: "t", Version: "1", EnableTasks: true, EnableElicitation: true}

// aQuestionLeavesTheTaskWorking: a task's handler that asks the client
// sends an ordinary elicitation/create on the standalone stream, not
// tagged with the task, and the task stays working (2025-11-25 and the
// built-in server: input_required).
func aQuestionLeavesTheTaskWorking(t *testing.T) {
	var tc *taskClient
	taskID := make(chan string, 1)
	seen := make(chan string, 1)
	during := func(req mcp.ElicitationRequest) {
		res, err := tc.GetTask(context.Background(), mcp.GetTaskRequest{Params: mcp.GetTaskParams{TaskId: <-taskID}})
		if err != nil {
			seen <- err.Error()
			return
		}
		seen <- fmt.Sprintf("%s tagged=%v", res.Status, req.Params.Meta != nil && req.Params.Meta.AdditionalFields[mcp.RelatedTaskMetaKey] != nil)
	}
	answered := make(chan struct{})
	tc = connectTasks(t, NewServer(asking, asker(answered, make(chan string, 1))), client.WithElicitationHandler(elicitor{during}))
	task := tc.start(t, "ask", &mcp.TaskParams{}, nil)
	close(answered)
	taskID <- task.TaskId
	if got := <-seen; got != "working tagged=false" {
		t.Errorf("while the question is open: %s, want working, untagged", got)
	}
	if got := tc.result(task.TaskId); !strings.Contains(got, `accept {\"ok\":true}`) {
		t.Errorf("tasks/result: %s", got)
	}
}

// aQuestionWaitsWithoutAStream: over Streamable HTTP, a question a task
// asks after its call was answered goes only to the session's standalone
// stream; a client without one never sees it, not even in tasks/result,
// and the handler waits until the task is cancelled or expires (the
// built-in server sends it on tasks/result).
func aQuestionWaitsWithoutAStream(t *testing.T) {
	asked := make(chan struct{}, 1)
	answered, ended := make(chan struct{}), make(chan string, 1)
	tc := dialTasks(t, NewServer(asking, asker(answered, ended)), false, client.WithElicitationHandler(elicitor{func(mcp.ElicitationRequest) { asked <- struct{}{} }}))
	task := tc.start(t, "ask", &mcp.TaskParams{}, nil)
	close(answered)
	result := make(chan string, 1)
	go func() { result <- tc.result(task.TaskId) }()
	select {
	case <-asked:
		t.Fatal("the client was asked")
	case r := <-result:
		t.Fatalf("tasks/result while the question waits: %s", r)
	case why := <-ended:
		t.Fatalf("the question ended: %s", why)
	case <-time.After(100 * time.Millisecond):
	}
	if got := tc.get(t, task.TaskId); got.Status != mcp.TaskStatusWorking {
		t.Errorf("tasks/get: %s, want working", got.Status)
	}
	if _, err := tc.CancelTask(context.Background(), mcp.CancelTaskRequest{Params: mcp.CancelTaskParams{TaskId: task.TaskId}}); err != nil {
		t.Fatal(err)
	}
	if why := <-ended; !strings.HasSuffix(why, "context canceled") {
		t.Errorf("the question ended with %s, want the task's cancellation", why)
	}
	<-result
}

// noTasksExtension: mcp-go serves 2026-07-28 without the tasks extension,
// and runs its 2025-11-25 tasks there instead.
func noTasksExtension(t *testing.T) {
	s := NewServer(tasksOn, instant("may", "ran", false, mcprt.TaskOptional), instant("must", "ran", false, mcprt.TaskRequired))
	if got := call(t, s, "2026-07-28", "server/discover", `{}`); strings.Contains(got, "io.modelcontextprotocol/tasks") {
		t.Errorf("discover: %s, want no tasks extension", got)
	}
	if got := call(t, s, "2026-07-28", "tools/call", `{"name":"may","arguments":{},"task":{}}`); !strings.Contains(got, `"task":{"taskId":`) {
		t.Errorf("a 2026-07-28 call with task: %s, want mcp-go's 2025-11-25 task (built-in: task ignored)", got)
	}
	extended := strings.Replace(servertest.StatelessMeta, `"clientCapabilities":{}`, `"clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}`, 1)
	out, _ := json.Marshal(s.HandleMessage(context.Background(), json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`+extended+`,"name":"must","arguments":{}}}`)))
	if !strings.Contains(string(out), `"code":-32601`) {
		t.Errorf("a task=required tool from a client with the extension: %s, want mcp-go's -32601 (built-in: a task)", out)
	}
}

// cancelOnCallersServer: on a server the caller made, the adapter has no
// hooks to learn of tasks/cancel: the task is cancelled, but its handler
// runs on until the task's ttl.
func cancelOnCallersServer(t *testing.T) {
	g := newGate()
	s := server.NewMCPServer("t", "1", server.WithTaskCapabilities(true, true, true))
	AddTools(s, g.tool("slow", mcprt.TaskOptional))
	sess := newTestSession("caller", "2025-11-25")
	ctx := s.WithContext(context.Background(), sess)
	out, _ := json.Marshal(s.HandleMessage(ctx, json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{},"task":{"ttl":300}}}`)))
	var resp struct{ Result mcp.CreateTaskResult }
	if err := json.Unmarshal(out, &resp); err != nil || resp.Result.Task.TaskId == "" {
		t.Fatalf("tools/call as a task: %s", out)
	}
	g.waitStarted(t)
	if got := rawRequest(s, sess, "tasks/cancel", resp.Result.Task.TaskId); !strings.Contains(got, `"status":"cancelled"`) {
		t.Fatalf("tasks/cancel: %s", got)
	}
	g.stillRunning(t)
	if why := g.waitEnded(t); why != "context deadline exceeded" {
		t.Errorf("the handler ended with %q, want the task's ttl", why)
	}
}
