// Package replicas runs three replicas of examples/conformance on one
// real redis-server, and again on a Redis Cluster of three primaries with
// one replica each, behind a round-robin proxy, and checks that nothing
// is lost: tasks, answers, cancels, sessions, resumable streams, request
// states and notifications cross replicas, a killed replica's tasks
// fail, and a Redis outage fails requests without hanging.
package replicas

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcpredis"
)

// session is a 2025 HTTP session through the proxy.
type session struct {
	c   *cluster
	id  string
	rev string
	n   int
}

func (c *cluster) initialize(t *testing.T, rev string) *session {
	t.Helper()
	r := do(t)(c.send(context.Background(), "POST", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+rev+`","capabilities":{"elicitation":{}},"clientInfo":{"name":"e2e","version":"1"}}}`, nil))
	s := &session{c: c, id: r.header.Get("Mcp-Session-Id"), rev: rev}
	if s.id == "" {
		t.Fatalf("initialize: %d %v %s", r.status, r.messages, r.body)
	}
	if r := s.post(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, ""); r.status != http.StatusAccepted {
		t.Fatalf("initialized: %d", r.status)
	}
	return s
}

func (s *session) headers(pin string) map[string]string {
	h := map[string]string{"Mcp-Session-Id": s.id, "MCP-Protocol-Version": s.rev}
	if pin != "" {
		h[pinHeader] = pin
	}
	return h
}

func (s *session) post(t *testing.T, body, pin string) *reply {
	t.Helper()
	return do(t)(s.c.send(context.Background(), "POST", body, s.headers(pin)))
}

// call sends method with params (a JSON object's members) as the next
// request of the session.
func (s *session) call(t *testing.T, method, params, pin string) *reply {
	t.Helper()
	s.n++
	return s.post(t, `{"jsonrpc":"2.0","id":`+strconv.Itoa(s.n)+`,"method":"`+method+`","params":{`+params+`}}`, pin)
}

func text(res map[string]any) string {
	content, _ := res["content"].([]any)
	if len(content) == 0 {
		return ""
	}
	first, _ := content[0].(map[string]any)
	s, _ := first["text"].(string)
	return s
}

func TestReplicas(t *testing.T) { onEachRedis(t, testReplicas) }

func testReplicas(t *testing.T, redis startRedis) {
	c := newCluster(t, 3, redis)
	ctx := context.Background()

	t.Run("task polled round-robin", func(t *testing.T) {
		r := do(t)(c.call2026(ctx, "tools/call", "slow_compute", `"name":"slow_compute","arguments":{"seconds":2,"label":"rr"}`, ""))
		id := taskOf(t, r)["taskId"].(string)
		seen := map[string]bool{}
		for i := 0; ; i++ {
			r := do(t)(c.call2026(ctx, "tasks/get", id, `"taskId":"`+id+`"`, ""))
			seen[r.replica] = true
			task := taskOf(t, r)
			if task["status"] == "completed" {
				if got := text(task["result"].(map[string]any)); got != `computed "rr" in 2 seconds` {
					t.Errorf("result %q", got)
				}
				break
			}
			if task["status"] != "working" || i > 200 {
				t.Fatalf("poll %d: %v", i, task)
			}
			time.Sleep(100 * time.Millisecond)
		}
		if len(seen) != 3 {
			t.Errorf("polled on %v, want all three replicas", seen)
		}
	})

	t.Run("runner killed", func(t *testing.T) {
		r := do(t)(c.call2026(ctx, "tools/call", "slow_compute", `"name":"slow_compute","arguments":{"seconds":60,"label":"doomed"}`, ""))
		id := taskOf(t, r)["taskId"].(string)
		runner := c.runner(id)
		c.kill(runner)
		killed := time.Now()
		task := c.until(t, id, "failed")
		if took := time.Since(killed); took > 3*lease+2*time.Second {
			t.Errorf("failed %v after the kill, want within three leases", took)
		}
		if b, _ := json.Marshal(task); !strings.Contains(string(b), "-32603") {
			t.Errorf("failed task without -32603: %s", b)
		}
		c.start(c.key) // back to three replicas
	})

	t.Run("answers through other replicas", func(t *testing.T) {
		const n = 6
		sent, echoed := 0, 0
		for i := range n {
			file := "file-" + strconv.Itoa(i)
			r := do(t)(c.call2026(ctx, "tools/call", "confirm_delete", `"name":"confirm_delete","arguments":{"filename":"`+file+`"}`, ""))
			id := taskOf(t, r)["taskId"].(string)
			c.until(t, id, "input_required")
			pin := c.other(c.runner(id))
			u := do(t)(c.call2026(ctx, "tasks/update", id, `"taskId":"`+id+`","inputResponses":{"confirm":{"action":"accept","content":{"confirm":true}}}`, pin))
			if u.response() == nil || u.errorCode() != 0 {
				t.Fatalf("tasks/update: %d %v", u.status, u.messages)
			}
			sent++
			task := c.until(t, id, "completed")
			if text(task["result"].(map[string]any)) == "deleted "+file {
				echoed++
			}
		}
		if sent != n || echoed != sent {
			t.Errorf("answers sent %d, echoed %d, want %d each", sent, echoed, n)
		}
	})

	t.Run("cancel through another replica", func(t *testing.T) {
		r := do(t)(c.call2026(ctx, "tools/call", "slow_compute", `"name":"slow_compute","arguments":{"seconds":2,"label":"cancelled"}`, ""))
		id := taskOf(t, r)["taskId"].(string)
		pin := c.other(c.runner(id))
		do(t)(c.call2026(ctx, "tasks/cancel", id, `"taskId":"`+id+`"`, pin))
		if st := c.get2026(t, id, "")["status"]; st != "cancelled" {
			t.Fatalf("after cancel: %v", st)
		}
		time.Sleep(2500 * time.Millisecond) // past the handler's end, had it gone on
		for _, n := range c.names() {
			if st := c.get2026(t, id, n)["status"]; st != "cancelled" {
				t.Errorf("on %s the task is %v, want cancelled", n, st)
			}
		}
	})

	t.Run("2025-11-25 tasks/result elsewhere", func(t *testing.T) {
		s := c.initialize(t, "2025-11-25")
		r := s.call(t, "tools/call", `"name":"slow_compute","arguments":{"seconds":1,"label":"waited"},"task":{"ttl":60000}`, "")
		task, _ := r.result()["task"].(map[string]any)
		id, _ := task["taskId"].(string)
		if id == "" {
			t.Fatalf("no task: %v", r.messages)
		}
		res := s.call(t, "tasks/result", `"taskId":"`+id+`"`, c.other(c.runner(id)))
		if got := text(res.result()); got != `computed "waited" in 1 seconds` {
			t.Errorf("tasks/result on another replica: %v", res.messages)
		}
	})

	t.Run("session roams", func(t *testing.T) {
		s := c.initialize(t, "2025-06-18")
		served := map[string]bool{}
		for range 30 {
			r := s.call(t, "tools/call", `"name":"test_simple_text"`, "")
			if r.status != 200 || r.errorCode() != 0 || text(r.result()) == "" {
				t.Fatalf("call on %s: %d %v %s", r.replica, r.status, r.messages, r.body)
			}
			served[r.replica] = true
		}
		if len(served) != 3 {
			t.Errorf("served by %v, want all three", served)
		}
		names := c.names()
		if r := s.call(t, "logging/setLevel", `"level":"info"`, names[0]); r.errorCode() != 0 {
			t.Fatalf("setLevel: %v", r.messages)
		}
		r := s.call(t, "tools/call", `"name":"test_tool_with_logging"`, names[1])
		logs := 0
		for _, m := range r.messages {
			if m["method"] == "notifications/message" {
				logs++
			}
		}
		if logs != 3 {
			t.Errorf("log messages on %s after setLevel on %s: %d, want 3", names[1], names[0], logs)
		}
		del := do(t)(c.send(ctx, "DELETE", "", s.headers(names[2])))
		if del.status != 200 && del.status != 204 {
			t.Fatalf("DELETE: %d", del.status)
		}
		for _, n := range names {
			if r := s.call(t, "tools/call", `"name":"test_simple_text"`, n); r.status != 404 {
				t.Errorf("after DELETE, %s answers %d, want 404", n, r.status)
			}
		}
	})

	t.Run("SSE resumed on another replica", func(t *testing.T) {
		s := c.initialize(t, "2025-11-25")
		names := c.names()
		req, _ := http.NewRequest("POST", c.proxy.URL+"/mcp", strings.NewReader(
			`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"test_tool_with_progress","_meta":{"progressToken":"p"}}}`))
		for k, v := range s.headers(names[0]) {
			req.Header.Set(k, v)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var last string
		var before []map[string]any
		readSSE(resp.Body, func(id string, m map[string]any) bool {
			if id != "" {
				last = id
			}
			if m != nil {
				before = append(before, m)
			}
			return m == nil // stop after the first message
		})
		resp.Body.Close() // the client drops the stream
		if last == "" || len(before) != 1 {
			t.Fatalf("before the drop: id %q, %v", last, before)
		}
		h := s.headers(names[1])
		h["Last-Event-ID"] = last
		r := do(t)(c.send(ctx, "GET", "", h))
		if r.status != 200 {
			t.Fatalf("resume on %s: %d %s", names[1], r.status, r.body)
		}
		var progress []float64
		for _, m := range append(before, r.messages...) {
			if m["method"] == "notifications/progress" {
				progress = append(progress, m["params"].(map[string]any)["progress"].(float64))
			}
		}
		if fmt.Sprint(progress) != "[0 50 100]" || r.response() == nil || text(r.result()) != "Progress test completed" {
			t.Errorf("progress %v and response %v, want 0 50 100 once each and the result", progress, r.response())
		}
		seen := map[string]bool{last: true}
		for _, id := range r.ids {
			if seen[id] {
				t.Errorf("event %s twice", id)
			}
			seen[id] = true
		}
	})

	t.Run("replica killed mid SSE", func(t *testing.T) {
		s := c.initialize(t, "2025-11-25")
		writer := c.names()[0]
		req, _ := http.NewRequest("POST", c.proxy.URL+"/mcp", strings.NewReader(
			`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"slow_compute","arguments":{"seconds":60,"label":"orphan"},"_meta":{"progressToken":"p"}}}`))
		for k, v := range s.headers(writer) {
			req.Header.Set(k, v)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var last string
		var first map[string]any
		readSSE(resp.Body, func(id string, m map[string]any) bool {
			if id != "" {
				last = id
			}
			first = m
			return m == nil // stop at the first message, the first progress
		})
		if last == "" || first["method"] != "notifications/progress" {
			t.Fatalf("before the kill: id %q, %v", last, first)
		}
		c.kill(writer)
		killed := time.Now()
		defer c.start(c.key) // back to three replicas, whatever the outcome
		h := s.headers(c.names()[0])
		h["Last-Event-ID"] = last
		r, err := c.send(ctx, "GET", "", h)
		took := time.Since(killed)
		if err != nil {
			t.Fatalf("resume after the kill, %v later: %v", took, err)
		}
		resp.Body.Close()
		if r.status != 200 || r.errorCode() != -32603 || r.response()["id"] != float64(9) {
			t.Errorf("resume on %s after the kill: %d %v %s, want the -32603 answer to request 9", r.replica, r.status, r.messages, r.body)
		}
		// The hold lapses within two leases of the last renewal, and a
		// follower looks at it after each idle read of a second.
		if bound := 2*lease + time.Second + time.Second; took > bound {
			t.Errorf("the answer came %v after the kill, want within %v", took, bound)
		}
		t.Logf("the -32603 answer came %v after the kill", took)
	})

	t.Run("request state opened on another replica", func(t *testing.T) {
		names := c.names()
		r := do(t)(c.call2026(ctx, "tools/call", "test_input_required_result_elicitation", `"name":"test_input_required_result_elicitation"`, names[0]))
		state, _ := r.result()["requestState"].(string)
		if state == "" {
			t.Fatalf("no request state: %v", r.messages)
		}
		r = do(t)(c.call2026(ctx, "tools/call", "test_input_required_result_elicitation",
			`"name":"test_input_required_result_elicitation","inputResponses":{"user_name":{"action":"accept","content":{"name":"Ada"}}},"requestState":"`+state+`"`, names[1]))
		if got := text(r.result()); got != "Hello, Ada!" {
			t.Errorf("retry on %s: %v", names[1], r.messages)
		}
		// A replica with another key refuses the state.
		stranger := c.start(strings.Repeat("ab", 32))
		defer c.kill(stranger.name)
		r = do(t)(c.call2026(ctx, "tools/call", "test_input_required_result_elicitation",
			`"name":"test_input_required_result_elicitation","inputResponses":{"user_name":{"action":"accept","content":{"name":"Ada"}}},"requestState":"`+state+`"`, stranger.name))
		if r.errorCode() != -32602 {
			t.Errorf("a replica with another key: %v, want -32602", r.messages)
		}
	})

	t.Run("notifications across replicas", func(t *testing.T) {
		names := c.names()
		events := c.stream(t, "POST", `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{`+meta2026+`,"notifications":{"toolsListChanged":true}}}`,
			map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "subscriptions/listen", pinHeader: names[0]})
		next := func() string {
			select {
			case m := <-events:
				method, _ := m["method"].(string)
				return method
			case <-time.After(wait):
				return "nothing"
			}
		}
		if first := next(); first != "notifications/subscriptions/acknowledged" {
			t.Fatalf("the listen began with %q, want its acknowledgement", first)
		}
		const n = 10
		received := 0
		for i := range n {
			r := do(t)(c.call2026(ctx, "tools/call", "test_trigger_tool_change", `"name":"test_trigger_tool_change"`, names[1+i%2]))
			if r.errorCode() != 0 {
				t.Fatalf("trigger: %v", r.messages)
			}
			if next() == "notifications/tools/list_changed" {
				received++
			}
			// The change is add then remove: drain the second notice if
			// it came separately.
			select {
			case <-events:
			case <-time.After(100 * time.Millisecond):
			}
		}
		if received != n {
			t.Errorf("notifications published %d, received %d", n, received)
		}
	})

	t.Run("nothing lost", func(t *testing.T) {
		c.mu.Lock()
		tasks, requests, answered := c.tasks, c.requests, c.answered
		c.mu.Unlock()
		ended := 0
		for _, id := range tasks {
			deadline := time.Now().Add(wait)
			for {
				st := c.get2026(t, id, "")["status"]
				if st == "completed" || st == "failed" || st == "cancelled" {
					ended++
					break
				}
				if time.Now().After(deadline) {
					t.Errorf("task %s is still %v", id, st)
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
		}
		if len(tasks) == 0 || ended != len(tasks) {
			t.Errorf("tasks created %d, ended %d", len(tasks), ended)
		}
		if answered != requests {
			t.Errorf("requests %d, responses %d", requests, answered)
		}
		t.Logf("tasks created %d = ended %d; requests %d = responses %d", len(tasks), ended, requests, answered)
	})

	t.Run("Redis outage", func(t *testing.T) {
		s := c.initialize(t, "2025-06-18")
		c.redis.Stop()
		start := time.Now()
		r := do(t)(c.call2026(ctx, "tools/call", "slow_compute", `"name":"slow_compute","arguments":{"seconds":1,"label":"down"}`, ""))
		if r.errorCode() != -32603 {
			t.Errorf("a task without Redis: %d %v, want -32603", r.status, r.messages)
		}
		r = s.call(t, "tools/call", `"name":"test_simple_text"`, "")
		if r.status != 503 && r.errorCode() != -32603 {
			t.Errorf("a session request without Redis: %d %v, want 503 or -32603", r.status, r.messages)
		}
		// Each request fails once its replica has tried Redis for a
		// retry budget; the second may reach another replica.
		if took, bound := time.Since(start), 2*mcpredis.DefaultRetryBudget+4*time.Second; took > bound {
			t.Errorf("failing took %v, want at most %v", took, bound)
		}
		// What needs nothing shared still works.
		r = do(t)(c.call2026(ctx, "tools/call", "test_simple_text", `"name":"test_simple_text"`, ""))
		if text(r.result()) == "" {
			t.Errorf("a plain 2026 call without Redis: %v", r.messages)
		}
		c.redis.Restart()
		deadline := time.Now().Add(wait)
		for {
			r := do(t)(c.call2026(ctx, "tools/call", "slow_compute", `"name":"slow_compute","arguments":{"seconds":1,"label":"back"}`, ""))
			if r.errorCode() == 0 {
				c.until(t, taskOf(t, r)["taskId"].(string), "completed")
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("after Redis returned: %v", r.messages)
			}
			time.Sleep(200 * time.Millisecond)
		}
		s = c.initialize(t, "2025-06-18")
		if r := s.call(t, "tools/call", `"name":"test_simple_text"`, ""); r.errorCode() != 0 || r.status != 200 {
			t.Errorf("a new session after Redis returned: %d %v", r.status, r.messages)
		}
	})
}
