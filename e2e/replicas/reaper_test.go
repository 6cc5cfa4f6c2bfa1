package replicas

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestReaperTellsTheSession: the runner of a 2025-11-25 session's task is
// killed; with nobody polling, another replica's reaper fails the task
// (-32603) within three leases, and the session hears it once, as
// notifications/tasks/status on its GET stream held by a third replica.
func TestReaperTellsTheSession(t *testing.T) { onEachRedis(t, testReaperTellsTheSession) }

func testReaperTellsTheSession(t *testing.T, redis startRedis) {
	c := newCluster(t, 3, redis)
	names := c.names()
	holder, runner := names[0], names[1]
	s := c.initialize(t, "2025-11-25")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", c.proxy.URL+"/mcp", nil)
	for k, v := range s.headers(holder) {
		req.Header.Set(k, v)
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get(pinHeader) != holder {
		t.Fatalf("GET: %d on %s, want 200 on %s", resp.StatusCode, resp.Header.Get(pinHeader), holder)
	}
	notes := make(chan map[string]any, 100)
	go readSSE(resp.Body, func(_ string, m map[string]any) bool {
		if m != nil {
			notes <- m
		}
		return true
	})

	r := s.call(t, "tools/call", `"name":"slow_compute","arguments":{"seconds":60,"label":"doomed"},"task":{"ttl":60000}`, runner)
	task, _ := r.result()["task"].(map[string]any)
	id, _ := task["taskId"].(string)
	if id == "" {
		t.Fatalf("no task: %v", r.messages)
	}
	if got := c.runner(id); got != runner {
		t.Fatalf("task run by %s, want %s", got, runner)
	}
	c.kill(runner)
	killed := time.Now()

	// statusOf returns the status of the notification m if it is the
	// task's notifications/tasks/status, else "".
	statusOf := func(m map[string]any) string {
		p, _ := m["params"].(map[string]any)
		if m["method"] != "notifications/tasks/status" || p["taskId"] != id {
			return ""
		}
		st, _ := p["status"].(string)
		return st
	}
	deadline := time.After(wait)
	for failed := false; !failed; {
		select {
		case m := <-notes:
			switch st := statusOf(m); st {
			case "failed":
				failed = true
			case "", "working":
			default:
				t.Fatalf("task status %q on the GET stream: %v", st, m)
			}
		case <-deadline:
			t.Fatal("no notifications/tasks/status failed on the GET stream")
		}
	}
	if took := time.Since(killed); took > 3*lease+2*time.Second {
		t.Errorf("told %v after the kill, want within three leases", took)
	}

	// A notification sent after it on the same stream: no second status
	// of the task comes before it.
	if r := s.call(t, "tools/call", `"name":"test_trigger_tool_change"`, c.other(holder)); r.errorCode() != 0 {
		t.Fatalf("trigger: %v", r.messages)
	}
	for listed := false; !listed; {
		select {
		case m := <-notes:
			if statusOf(m) != "" {
				t.Errorf("the task's status told again: %v", m)
			}
			listed = m["method"] == "notifications/tools/list_changed"
		case <-deadline:
			t.Fatal("no notifications/tools/list_changed on the GET stream")
		}
	}

	list := s.call(t, "tasks/list", "", "")
	found := false
	for _, x := range list.result()["tasks"].([]any) {
		if x := x.(map[string]any); x["taskId"] == id {
			found = x["status"] == "failed" && strings.Contains(x["statusMessage"].(string), "stopped")
		}
	}
	if !found {
		t.Errorf("tasks/list: %v, want the task failed", list.messages)
	}
}
