package replicas

import (
	"context"
	"testing"
	"time"
)

// updates collects the URIs of notifications/resources/updated on events
// until it has max of them (0: no bound) or quiet has passed without one.
func updates(events <-chan map[string]any, quiet time.Duration, max int) []string {
	var uris []string
	for max == 0 || len(uris) < max {
		select {
		case m := <-events:
			if m["method"] == "notifications/resources/updated" {
				p, _ := m["params"].(map[string]any)
				uri, _ := p["uri"].(string)
				uris = append(uris, uri)
			}
		case <-time.After(quiet):
			return uris
		}
	}
	return uris
}

// TestResourceUpdatesAcrossReplicas: a resource changes on one replica;
// its subscribers hear of it once each wherever they subscribed and
// wherever their stream is held, and nobody else does.
func TestResourceUpdatesAcrossReplicas(t *testing.T) {
	onEachRedis(t, testResourceUpdatesAcrossReplicas)
}

func testResourceUpdatesAcrossReplicas(t *testing.T, redis startRedis) {
	c := newCluster(t, 3, redis)
	names := c.names()
	const watched, other = "test://watched-resource", "test://static-text"

	// A 2025-11-25 session subscribes through the first replica and
	// holds its GET stream on the third.
	s := c.initialize(t, "2025-11-25")
	if r := s.call(t, "resources/subscribe", `"uri":"`+watched+`"`, names[0]); r.errorCode() != 0 || r.response() == nil {
		t.Fatalf("subscribe: %d %v", r.status, r.messages)
	}
	legacy := c.stream(t, "GET", "", s.headers(names[2]))

	// A 2026-07-28 listener on the first replica asks for the same URI.
	listen := c.stream(t, "POST", `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{`+meta2026+
		`,"notifications":{"resourceSubscriptions":["`+watched+`"]}}}`,
		map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "subscriptions/listen", pinHeader: names[0]})

	// The second replica changes a resource nobody follows, then the
	// watched one, three times.
	trigger := func(uri string) {
		t.Helper()
		r := do(t)(c.call2026(context.Background(), "tools/call", "test_trigger_resource_update",
			`"name":"test_trigger_resource_update","arguments":{"uri":"`+uri+`"}`, names[1]))
		if got := text(r.result()); got != "updated "+uri {
			t.Fatalf("trigger %s: %v", uri, r.messages)
		}
	}
	trigger(other)
	streams := map[string]<-chan map[string]any{"the 2025 session's GET stream": legacy, "the 2026 listen": listen}
	// One change at a time: a listen merges notices of one resource that
	// wait together, as a notice that it changed allows.
	const n = 3
	for i := range n {
		trigger(watched)
		for name, events := range streams {
			if got := updates(events, wait, 1); len(got) != 1 || got[0] != watched {
				t.Errorf("change %d: %s heard %q, want %s (and nothing of %s)", i+1, name, got, watched, other)
			}
		}
	}
	for name, events := range streams {
		if got := updates(events, 500*time.Millisecond, 0); len(got) != 0 {
			t.Errorf("after %d changes, %s heard %q more", n, name, got)
		}
	}
}
