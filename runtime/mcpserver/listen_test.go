package mcpserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// noticesIdentity turns on every notification the server can send.
var noticesIdentity = mcprt.Identity{Name: "n", Version: "v",
	EnableToolNotifications: true, EnablePromptNotifications: true,
	EnableResourceNotifications: true, EnableResourceSubscriptions: true}

// everything is a filter asking for every kind of notification.
const everything = `{"toolsListChanged":true,"promptsListChanged":true,"resourcesListChanged":true,"resourceSubscriptions":["x://a","x://b"]}`

// listenRequest is a subscriptions/listen request with the JSON id and
// filter given.
func listenRequest(id, filter string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"subscriptions/listen","params":{` + statelessMeta + `,"notifications":` + filter + `}}`
}

// subMeta is the params' start of every message of the subscription id.
func subMeta(id string) string {
	return `"_meta":{"io.modelcontextprotocol/subscriptionId":` + id + `}`
}

func ackOf(id, filter string) string {
	return `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{` + subMeta(id) + `,"notifications":` + filter + `}}`
}

// onSub is the list_changed notification of what ("tools", ...) on the
// subscription id.
func onSub(id, what string) string {
	return `{"jsonrpc":"2.0","method":"notifications/` + what + `/list_changed","params":{` + subMeta(id) + `}}`
}

func updatedOnSub(id, uri string) string {
	return `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{` + subMeta(id) + `,"uri":"` + uri + `"}}`
}

// listenEnded is the answer of a subscription the server ended.
func listenEnded(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"result":{"resultType":"complete",` + subMeta(id) + `}}`
}

// waitListens waits until srv has n listens open.
func waitListens(t *testing.T, srv *Server, n int) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		srv.listens.mu.Lock()
		open := len(srv.listens.set)
		srv.listens.mu.Unlock()
		if open == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d listens open, want %d", open, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// expectAll reads len(want) lines and compares them with want in any
// order: on stdio the messages of different subscriptions interleave.
func (c *stdioClient) expectAll(want ...string) {
	c.t.Helper()
	var got, exp []string
	for _, w := range want {
		got = append(got, canon(c.t, c.recv()))
		exp = append(exp, canon(c.t, w))
	}
	slices.Sort(got)
	slices.Sort(exp)
	if !slices.Equal(got, exp) {
		c.t.Errorf("got  %s\nwant %s", strings.Join(got, "\n     "), strings.Join(exp, "\n     "))
	}
}

// postListen posts a listen to url with client; cancelling ctx closes the
// response, as a client that leaves does.
func postListen(t *testing.T, ctx context.Context, client *http.Client, url, id, filter string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(listenRequest(id, filter)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("listen: status %d", resp.StatusCode)
	}
	return resp
}

// listen opens a listen over HTTP that lasts as long as ctx, and returns
// its events.
func (c *httpClient) listen(ctx context.Context, id, filter string) <-chan string {
	c.t.Helper()
	return events(c.t, postListen(c.t, ctx, http.DefaultClient, c.url, id, filter))
}

// streamEnds checks that ev ends with no further event.
func streamEnds(t *testing.T, ev <-chan string) {
	t.Helper()
	select {
	case got, ok := <-ev:
		if ok {
			t.Errorf("unexpected event %s", got)
		}
	case <-time.After(timeout):
		t.Error("the stream did not end")
	}
}

// TestListenAck checks the acknowledgement (first, with the id as sent,
// numeric or string), the tagging of later notifications, and the
// graceful end on CloseStreams, on stdio.
func TestListenAck(t *testing.T) {
	t.Parallel()
	srv := New(noticesIdentity)
	c := startStdio(t, srv)
	c.send(listenRequest("7", everything))
	c.expect(ackOf("7", everything))
	c.send(listenRequest(`"s-1"`, `{"toolsListChanged":true}`))
	c.expect(ackOf(`"s-1"`, `{"toolsListChanged":true}`))
	waitListens(t, srv, 2)
	srv.AddTools(textTool("a", "A"))
	c.expectAll(onSub("7", "tools"), onSub(`"s-1"`, "tools"))
	srv.CloseStreams()
	c.expectAll(listenEnded("7"), listenEnded(`"s-1"`))
	waitListens(t, srv, 0)
}

// TestListenHonorsWhatIsPublished checks, per identity, that the
// acknowledgement keeps exactly what server/discover publishes: tools,
// prompts and resources listChanged and resources subscribe.
func TestListenHonorsWhatIsPublished(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		id        mcprt.Identity
		resources bool // a resource is registered
		caps, ack string
	}{
		{"no switches", mcprt.Identity{Name: "n", Version: "v"}, false, `{"tools":{}}`, `{}`},
		{"tools", mcprt.Identity{Name: "n", Version: "v", EnableToolNotifications: true}, false,
			`{"tools":{"listChanged":true}}`, `{"toolsListChanged":true}`},
		{"prompts and resources", mcprt.Identity{Name: "n", Version: "v", EnablePromptNotifications: true, EnableResourceNotifications: true}, false,
			`{"prompts":{"listChanged":true},"resources":{"listChanged":true},"tools":{}}`, `{"promptsListChanged":true,"resourcesListChanged":true}`},
		// Subscriptions need the resources capability, published while
		// there are resources.
		{"subscriptions without resources", mcprt.Identity{Name: "n", Version: "v", EnableResourceSubscriptions: true}, false,
			`{"tools":{}}`, `{}`},
		{"subscriptions", mcprt.Identity{Name: "n", Version: "v", EnableResourceSubscriptions: true}, true,
			`{"resources":{"subscribe":true},"tools":{}}`, `{"resourceSubscriptions":["x://a","x://b"]}`},
		{"everything", noticesIdentity, false,
			`{"prompts":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},"tools":{"listChanged":true}}`, everything},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := New(tt.id)
			if tt.resources {
				srv.AddResources(textResource("x://a", "A"))
			}
			c := startStdio(t, srv)
			c.call(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+statelessMeta+`}}`,
				`{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"],`+
					`"capabilities":`+tt.caps+`,"ttlMs":0,"cacheScope":"public","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"n","version":"v"}}}}`)
			c.call(listenRequest("2", everything), ackOf("2", tt.ack))
		})
	}
}

// TestListenFilter checks that a listen gets only what it asked for: one
// for prompts hears nothing of a tool added, one for tools nothing of a
// prompt. Notifications of one listen keep their order, so the first
// after the acknowledgement shows what (not) came before it.
func TestListenFilter(t *testing.T) {
	t.Parallel()
	srv := New(noticesIdentity)
	c := startHTTP(t, srv)
	ctx := t.Context()
	prompts := c.listen(ctx, "1", `{"promptsListChanged":true}`)
	tools := c.listen(ctx, "2", `{"toolsListChanged":true}`)
	nextEvent(t, prompts, ackOf("1", `{"promptsListChanged":true}`))
	nextEvent(t, tools, ackOf("2", `{"toolsListChanged":true}`))
	srv.AddTools(textTool("a", "A"))
	nextEvent(t, tools, onSub("2", "tools"))
	srv.AddPrompts(textPrompt("p", "P"))
	nextEvent(t, prompts, onSub("1", "prompts"))
	srv.RemoveTools("a")
	nextEvent(t, tools, onSub("2", "tools"))
	srv.CloseStreams()
	nextEvent(t, prompts, listenEnded("1"))
	nextEvent(t, tools, listenEnded("2"))
	streamEnds(t, prompts)
	streamEnds(t, tools)
}

// TestListenResourceUpdates checks that resources/updated reaches the
// listens that listed its URI and no other, and that updates are not
// list changes.
func TestListenResourceUpdates(t *testing.T) {
	t.Parallel()
	srv := New(noticesIdentity)
	srv.AddResources(textResource(watchedURI, "w"))
	c := startHTTP(t, srv)
	ctx := t.Context()
	watch := c.listen(ctx, "1", `{"resourceSubscriptions":["`+watchedURI+`"]}`)
	list := c.listen(ctx, `"l"`, `{"resourcesListChanged":true}`)
	nextEvent(t, watch, ackOf("1", `{"resourceSubscriptions":["`+watchedURI+`"]}`))
	nextEvent(t, list, ackOf(`"l"`, `{"resourcesListChanged":true}`))
	srv.ResourceUpdated("test://other")
	srv.ResourceUpdated(watchedURI)
	nextEvent(t, watch, updatedOnSub("1", watchedURI))
	srv.AddResources(textResource("test://new", "n"))
	nextEvent(t, list, onSub(`"l"`, "resources"))
	srv.ResourceUpdated(watchedURI)
	nextEvent(t, watch, updatedOnSub("1", watchedURI))
}

// TestListenStdioCancelled checks that notifications/cancelled ends a
// listen on stdio without an answer, and that nothing more is sent on it.
func TestListenStdioCancelled(t *testing.T) {
	t.Parallel()
	srv := New(noticesIdentity)
	c := startStdio(t, srv)
	c.call(listenRequest("3", `{"toolsListChanged":true}`), ackOf("3", `{"toolsListChanged":true}`))
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`)
	waitListens(t, srv, 0)
	srv.AddTools(textTool("a", "A"))
	c.call(ping, pong)
}

// TestListenStdioEnd checks that the end of a stdio connection ends its
// listens gracefully and that ServeStream returns.
func TestListenStdioEnd(t *testing.T) {
	t.Parallel()
	srv := New(noticesIdentity)
	c := startStdio(t, srv)
	c.call(listenRequest(`"x"`, `{}`), ackOf(`"x"`, `{}`))
	rest := c.rest()
	if len(rest) != 1 {
		t.Fatalf("after the input ended: %q, want the end of the listen", rest)
	}
	sameJSON(t, rest[0], listenEnded(`"x"`))
	waitListens(t, srv, 0)
}

// TestListenNotForSessions checks that subscriptions/listen belongs to
// 2026-07-28: a legacy session does not have it.
func TestListenNotForSessions(t *testing.T) {
	t.Parallel()
	c := startStdio(t, New(noticesIdentity))
	c.initialize(wire.Rev20251125, `{}`)
	c.call(`{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true}}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"method not found: subscriptions/listen"}}`)
}

func TestListenInvalidParams(t *testing.T) {
	t.Parallel()
	c := startStdio(t, New(noticesIdentity))
	c.call(`{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{`+statelessMeta+`}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid params: notifications is missing"}}`)
	c.call(listenRequest("2", `{"resourceSubscriptions":"x://a"}`),
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"invalid params: notifications.resourceSubscriptions must not be a string"}}`)
	c.call(listenRequest("3", `{"toolsListChanged":1}`),
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"invalid params: notifications.toolsListChanged must not be a number"}}`)
}

// TestListenSlowClient checks that a client that does not read never
// holds up the changes: they wait on its listen, each kind once, and go
// out when it reads again.
func TestListenSlowClient(t *testing.T) {
	t.Parallel()
	srv := New(noticesIdentity)
	release := make(chan struct{})
	sent := make(chan string, 10)
	conn := srv.Connect(t.Context(), func(msg []byte) error {
		<-release
		sent <- string(msg)
		return nil
	})
	answer := make(chan []byte, 1)
	go func() {
		answer <- conn.Handle(t.Context(), []byte(listenRequest("1", `{"toolsListChanged":true,"promptsListChanged":true}`)))
	}()
	waitListens(t, srv, 1)
	changed := make(chan struct{})
	go func() {
		for i := range 1000 {
			n := strconv.Itoa(i)
			srv.AddTools(textTool("a"+n, "A"))
			srv.AddPrompts(textPrompt("p"+n, "P"))
		}
		close(changed)
	}()
	select {
	case <-changed:
	case <-time.After(timeout):
		t.Fatal("changes waited for a client that does not read")
	}
	close(release)
	for _, want := range []string{ackOf("1", `{"toolsListChanged":true,"promptsListChanged":true}`), onSub("1", "tools"), onSub("1", "prompts")} {
		select {
		case got := <-sent:
			sameJSON(t, got, want)
		case <-time.After(timeout):
			t.Fatalf("no message; want %s", want)
		}
	}
	conn.Close()
	select {
	case got := <-answer:
		sameJSON(t, string(got), listenEnded("1"))
	case <-time.After(timeout):
		t.Fatal("the listen did not end with the connection")
	}
	if len(sent) != 0 {
		t.Errorf("more sent: %s", <-sent)
	}
}

// TestListenLeavesNothingBehind opens listens over HTTP and stdio, ends
// them every way there is (the client leaves, cancels, the server ends
// them, the connection ends) and checks that no goroutine is left.
func TestListenLeavesNothingBehind(t *testing.T) {
	// Not parallel: it counts the process's goroutines, which tests
	// running at once would change.
	base := runtime.NumGoroutine()
	srv := New(noticesIdentity)
	ts := httptest.NewServer(srv.HTTPHandler())
	tr := &http.Transport{}
	client := &http.Client{Transport: tr}
	leaving, leave := context.WithCancel(context.Background())
	left := postListen(t, leaving, client, ts.URL, "1", `{"toolsListChanged":true}`)
	ended := postListen(t, context.Background(), client, ts.URL, "2", `{"toolsListChanged":true}`)
	evLeft, evEnded := events(t, left), events(t, ended)
	nextEvent(t, evLeft, ackOf("1", `{"toolsListChanged":true}`))
	nextEvent(t, evEnded, ackOf("2", `{"toolsListChanged":true}`))

	var wg sync.WaitGroup
	var cancelled, closed []byte
	conn := srv.Connect(context.Background(), func([]byte) error { return nil })
	wg.Go(func() { cancelled = conn.Handle(context.Background(), []byte(listenRequest("3", `{}`))) })
	wg.Go(func() { closed = conn.Handle(context.Background(), []byte(listenRequest("4", `{}`))) })
	waitListens(t, srv, 4)

	leave()
	conn.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`))
	waitListens(t, srv, 2)
	conn.Close()
	wg.Wait()
	if cancelled != nil {
		t.Errorf("a cancelled listen was answered: %s", cancelled)
	}
	sameJSON(t, string(closed), listenEnded("4"))
	waitListens(t, srv, 1)
	srv.CloseStreams()
	nextEvent(t, evEnded, listenEnded("2"))
	streamEnds(t, evEnded)
	waitListens(t, srv, 0)

	left.Body.Close()
	ended.Body.Close()
	tr.CloseIdleConnections()
	ts.Close()
	deadline := time.Now().Add(timeout)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, %d before:\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(5 * time.Millisecond)
	}
}
