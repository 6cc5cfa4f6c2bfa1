package mcpserver

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// sseEvent is one SSE event as a client parses it.
type sseEvent struct{ id, data string }

// rawEvents reads the events of resp, ids and empty data included, until
// the stream ends.
func rawEvents(t *testing.T, resp *http.Response) <-chan sseEvent {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q, want text/event-stream", ct)
	}
	ch := make(chan sseEvent, 16)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(resp.Body)
		var e sseEvent
		seen := false
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if seen {
					ch <- e
				}
				e, seen = sseEvent{}, false
			case strings.HasPrefix(line, "id: "):
				e.id, seen = line[len("id: "):], true
			case line == "data:":
				seen = true
			case strings.HasPrefix(line, "data: "):
				e.data, seen = line[len("data: "):], true
			}
		}
	}()
	return ch
}

func nextRaw(t *testing.T, ch <-chan sseEvent) sseEvent {
	t.Helper()
	select {
	case e, ok := <-ch:
		if !ok {
			t.Fatal("stream ended")
		}
		return e
	case <-time.After(timeout):
		t.Fatal("no event")
	}
	return sseEvent{}
}

// rest reads the events of ch until the stream ends.
func rest(t *testing.T, ch <-chan sseEvent) []sseEvent {
	t.Helper()
	var got []sseEvent
	for {
		select {
		case e, ok := <-ch:
			if !ok {
				return got
			}
			got = append(got, e)
		case <-time.After(timeout):
			t.Fatalf("the stream did not end; got %v", got)
		}
	}
}

// stepTool sends a progress notification, waits for release, sends
// another and answers; ended reports whether its context was cancelled.
func stepTool(release <-chan struct{}, ended chan<- error) mcprt.Tool {
	return handlerTool("step", func(ctx context.Context, args []byte) mcprt.Result {
		mcprt.Progress(ctx, 1, 2, "one")
		<-release
		mcprt.Progress(ctx, 2, 2, "two")
		ended <- ctx.Err()
		return mcprt.TextResult("done")
	})
}

const (
	stepCall  = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"step","_meta":{"progressToken":"k"}}}`
	stepOne   = `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"k","progress":1,"total":2,"message":"one"}}`
	stepTwo   = `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"k","progress":2,"total":2,"message":"two"}}`
	stepReply = `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"done"}]}}`
)

// TestHTTPResumePostStream drops a call's SSE stream after its first
// event and resumes it with Last-Event-ID: the call is not cancelled, and
// the rest of its events and its response arrive once each, in order,
// whether the call ends before the client comes back or after.
func TestHTTPResumePostStream(t *testing.T) {
	t.Parallel()
	for _, rev := range []wire.Revision{wire.Rev20250326, wire.Rev20250618, wire.Rev20251125} {
		for _, late := range []bool{false, true} {
			name := string(rev) + "/ended-before"
			if late {
				name = string(rev) + "/live"
			}
			t.Run(name, func(t *testing.T) {
				release, ended := make(chan struct{}), make(chan error, 1)
				c := startHTTP(t, New(mcprt.Identity{Name: "n", Version: "v"}, stepTool(release, ended)))
				c.initialize(rev, `{}`)
				resp := c.do("POST", stepCall, nil)
				ev := rawEvents(t, resp)
				first := nextRaw(t, ev)
				if rev == wire.Rev20251125 {
					if first.id == "" || first.data != "" {
						t.Fatalf("first event %+v, want a priming event (id, empty data)", first)
					}
					first = nextRaw(t, ev)
				}
				sameJSON(t, first.data, stepOne)
				stream, ok := mcpstore.StreamOf(first.id)
				if !ok || stream == getStream {
					t.Fatalf("event id %q names no POST stream", first.id)
				}
				resp.Body.Close() // the connection drops
				var resumed <-chan sseEvent
				resume := func() {
					r := c.do("GET", "", func(r *http.Request) {
						r.Header.Set("Accept", "text/event-stream")
						r.Header.Set("Last-Event-ID", first.id)
					})
					if r.StatusCode != 200 {
						t.Fatalf("GET with Last-Event-ID: status %d", r.StatusCode)
					}
					resumed = rawEvents(t, r)
				}
				if late {
					resume()
				}
				close(release)
				if err := <-ended; err != nil {
					t.Fatalf("the dropped stream cancelled the call: %v", err)
				}
				if !late {
					resume()
				}
				var got []sseEvent
				for _, e := range rest(t, resumed) {
					if e.data != "" {
						got = append(got, e)
					}
				}
				if len(got) != 2 {
					t.Fatalf("resumed events %v, want the second progress and the response", got)
				}
				sameJSON(t, got[0].data, stepTwo)
				sameJSON(t, got[1].data, stepReply)
				ids := map[string]bool{first.id: true}
				for _, e := range got {
					if s, _ := mcpstore.StreamOf(e.id); s != stream || ids[e.id] {
						t.Errorf("event id %q: want a new id of stream %q", e.id, stream)
					}
					ids[e.id] = true
				}
			})
		}
	}
}

// TestHTTPResumeGetStream drops the GET stream and resumes it: what was
// sent meanwhile arrives once, in order, and the stream then follows the
// session live. A GET without Last-Event-ID replays nothing.
func TestHTTPResumeGetStream(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableToolNotifications: true})
	c := startHTTP(t, srv)
	c.initialize(wire.Rev20251125, `{}`)
	get := func(last string) (*http.Response, <-chan sseEvent) {
		resp := c.do("GET", "", func(r *http.Request) {
			r.Header.Set("Accept", "text/event-stream")
			if last != "" {
				r.Header.Set("Last-Event-ID", last)
			}
		})
		if resp.StatusCode != 200 {
			t.Fatalf("GET %q: status %d", last, resp.StatusCode)
		}
		ev := rawEvents(t, resp)
		if p := nextRaw(t, ev); p.id == "" || p.data != "" {
			t.Fatalf("first event %+v, want a priming event", p)
		}
		return resp, ev
	}
	const changed = `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`
	resp, ev := get("")
	srv.Add(textTool("a", "A"))
	first := nextRaw(t, ev)
	sameJSON(t, first.data, changed)
	if s, _ := mcpstore.StreamOf(first.id); s != getStream {
		t.Fatalf("event id %q does not name the GET stream", first.id)
	}
	resp.Body.Close()
	waitNoGet(t, srv, c.sid)
	srv.Add(textTool("b", "B"))
	srv.Add(textTool("c", "C"))
	resp, ev = get(first.id)
	a, b := nextRaw(t, ev), nextRaw(t, ev)
	sameJSON(t, a.data, changed)
	sameJSON(t, b.data, changed)
	if a.id == first.id || a.id == b.id {
		t.Errorf("replayed ids %q, %q after %q", a.id, b.id, first.id)
	}
	srv.Add(textTool("d", "D"))
	live := nextRaw(t, ev)
	sameJSON(t, live.data, changed)
	resp.Body.Close()
	waitNoGet(t, srv, c.sid)
	srv.Add(textTool("e", "E"))
	_, ev = get("")
	srv.Add(textTool("f", "F"))
	if e := nextRaw(t, ev); e.id == live.id || !strings.HasPrefix(e.id, getStream+"/") {
		t.Errorf("a fresh GET got %+v", e)
	}
	select {
	case e := <-ev:
		t.Errorf("a fresh GET replayed %+v", e)
	case <-time.After(50 * time.Millisecond):
	}
}

// TestHTTPResumeRefused checks the answers to a Last-Event-ID the server
// cannot resume from: 400 for a malformed id, one of no stream, one of
// another session and one of an ended session's log; 404 for an unknown
// session.
func TestHTTPResumeRefused(t *testing.T) {
	t.Parallel()
	release, ended := make(chan struct{}), make(chan error, 1)
	close(release)
	srv := New(mcprt.Identity{Name: "n", Version: "v"}, stepTool(release, ended))
	c := startHTTP(t, srv)
	c.initialize(wire.Rev20250618, `{}`)
	ev := rawEvents(t, c.do("POST", stepCall, nil))
	own := nextRaw(t, ev).id
	rest(t, ev)
	<-ended
	other := &httpClient{t: t, url: c.url}
	other.initialize(wire.Rev20250618, `{}`)
	for _, tc := range []struct {
		c      *httpClient
		id     string
		status int
	}{
		{c, own, 200},
		{c, "garbage", 400},
		{c, "p1/", 400},
		{c, "p99/1", 400},
		{c, "g/1", 400},
		{other, own, 400},
	} {
		resp := tc.c.do("GET", "", header("Last-Event-ID", tc.id))
		if resp.StatusCode != tc.status {
			t.Errorf("Last-Event-ID %q: status %d, want %d", tc.id, resp.StatusCode, tc.status)
		}
		resp.Body.Close()
	}
	c.do("DELETE", "", nil).Body.Close()
	if resp := c.do("GET", "", header("Last-Event-ID", own)); resp.StatusCode != 404 {
		t.Errorf("after DELETE: status %d, want 404", resp.StatusCode)
	}
}

// TestHTTPStatelessCloseCancels checks that on 2026-07-28 a closed response
// stream still cancels its call, as that revision says.
func TestHTTPStatelessCloseCancels(t *testing.T) {
	t.Parallel()
	started, cancelled := make(chan struct{}), make(chan struct{})
	c := startHTTP(t, New(mcprt.Identity{Name: "n", Version: "v"}, blockTool(started, cancelled)))
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "POST", c.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`+statelessMeta+`,"name":"block"}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "block")
	go func() {
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	<-started
	cancel()
	select {
	case <-cancelled:
	case <-time.After(timeout):
		t.Fatal("closing the stream did not cancel the 2026-07-28 call")
	}
}

// TestHTTPLegacyCloseCancels checks that on 2024-11-05, which has no
// resumable streams, a closed response still cancels its call.
func TestHTTPLegacyCloseCancels(t *testing.T) {
	t.Parallel()
	started, cancelled := make(chan struct{}), make(chan struct{})
	c := startHTTP(t, New(mcprt.Identity{Name: "n", Version: "v"}, blockTool(started, cancelled)))
	c.initialize(wire.Rev20241105, `{}`)
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "POST", c.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block"}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", c.sid)
	go func() {
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	<-started
	cancel()
	select {
	case <-cancelled:
	case <-time.After(timeout):
		t.Fatal("closing the stream did not cancel the 2024-11-05 call")
	}
}
