package mcpserver

import (
	"net/http"
	"testing"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

const (
	pong       = `{"jsonrpc":"2.0","id":"ping","result":{}}`
	ping       = `{"jsonrpc":"2.0","id":"ping","method":"ping"}`
	watchedURI = "test://watched-resource"
)

func updated(uri string) string {
	return `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"` + uri + `"}}`
}

func listChanged(what string) string {
	return `{"jsonrpc":"2.0","method":"notifications/` + what + `/list_changed"}`
}

// TestSubscriptions checks that an update reaches the sessions subscribed
// to its URI and no other. ResourceUpdated writes before it returns, so a
// ping answered right after it shows what was (not) sent.
func TestSubscriptions(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableResourceSubscriptions: true})
	srv.AddResources(textResource(watchedURI, "w"), textResource("test://other", "o"))
	a, b := startStdio(t, srv), startStdio(t, srv)
	a.initialize(wire.Rev20251125, `{}`)
	b.initialize(wire.Rev20241105, `{}`)
	a.call(`{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"`+watchedURI+`"}}`, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	b.call(`{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"test://other"}}`, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	// A URI no resource has yet may be subscribed to.
	b.call(`{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"test://later"}}`, `{"jsonrpc":"2.0","id":2,"result":{}}`)

	srv.ResourceUpdated(watchedURI)
	srv.ResourceUpdated("test://other")
	srv.ResourceUpdated("test://nobody")
	a.expect(updated(watchedURI))
	a.call(ping, pong)
	b.expect(updated("test://other"))
	b.call(ping, pong)

	a.call(`{"jsonrpc":"2.0","id":3,"method":"resources/unsubscribe","params":{"uri":"`+watchedURI+`"}}`, `{"jsonrpc":"2.0","id":3,"result":{}}`)
	a.call(`{"jsonrpc":"2.0","id":4,"method":"resources/unsubscribe","params":{"uri":"`+watchedURI+`"}}`, `{"jsonrpc":"2.0","id":4,"result":{}}`)
	srv.ResourceUpdated(watchedURI)
	a.call(ping, pong)

	a.call(`{"jsonrpc":"2.0","id":5,"method":"resources/subscribe","params":{}}`,
		`{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"invalid params: uri is missing"}}`)
	// 2026-07-28 has no resources/subscribe.
	a.call(`{"jsonrpc":"2.0","id":6,"method":"resources/subscribe","params":{`+statelessMeta+`,"uri":"`+watchedURI+`"}}`,
		`{"jsonrpc":"2.0","id":6,"error":{"code":-32601,"message":"method not found: resources/subscribe"}}`)
}

func TestSubscriptionsNeedTheSwitch(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableResourceNotifications: true})
	srv.AddResources(textResource(watchedURI, "w"))
	c := startStdio(t, srv)
	c.call(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`,
		`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"resources":{"listChanged":true},"tools":{}},"serverInfo":{"name":"n","version":"v"}}}`)
	for _, m := range []string{"resources/subscribe", "resources/unsubscribe"} {
		c.call(`{"jsonrpc":"2.0","id":1,"method":"`+m+`","params":{"uri":"`+watchedURI+`"}}`,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"method not found: `+m+`"}}`)
	}
	srv.ResourceUpdated(watchedURI)
	c.call(ping, pong)
}

// TestHTTPSubscriptions checks that updates and list_changed travel on the
// GET stream of the sessions they are for.
func TestHTTPSubscriptions(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableResourceSubscriptions: true, EnableResourceNotifications: true, EnablePromptNotifications: true})
	srv.AddResources(textResource(watchedURI, "w"))
	a := startHTTP(t, srv)
	b := new(httpClient)
	*b = *a
	a.initialize(wire.Rev20251125, `{}`)
	b.initialize(wire.Rev20250618, `{}`)
	streamA, streamB := a.do(http.MethodGet, "", nil), b.do(http.MethodGet, "", nil)
	if streamA.StatusCode != 200 || streamB.StatusCode != 200 {
		t.Fatalf("GET: status %d and %d", streamA.StatusCode, streamB.StatusCode)
	}
	evA, evB := events(t, streamA), events(t, streamB)
	a.post(`{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"`+watchedURI+`"}}`, 200, `{"jsonrpc":"2.0","id":1,"result":{}}`, nil)
	srv.ResourceUpdated(watchedURI)
	nextEvent(t, evA, updated(watchedURI))
	// b's first event is the list change: no update went to it.
	srv.AddResources(textResource("test://new", "n"))
	nextEvent(t, evA, listChanged("resources"))
	nextEvent(t, evB, listChanged("resources"))
	srv.AddPrompts(textPrompt("p", "P"))
	nextEvent(t, evA, listChanged("prompts"))
	nextEvent(t, evB, listChanged("prompts"))
	a.post(`{"jsonrpc":"2.0","id":2,"method":"resources/unsubscribe","params":{"uri":"`+watchedURI+`"}}`, 200, `{"jsonrpc":"2.0","id":2,"result":{}}`, nil)
	srv.ResourceUpdated(watchedURI)
	srv.RemoveResources("test://new")
	nextEvent(t, evA, listChanged("resources"))
}

// TestListChanged checks the list_changed notifications of adding and
// removing tools, prompts and resources, and that removing what is not
// there sends nothing.
func TestListChanged(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v",
		EnableToolNotifications: true, EnablePromptNotifications: true, EnableResourceNotifications: true})
	c := startStdio(t, srv)
	c.initialize(wire.Rev20250326, `{}`)
	uninitialized := startStdio(t, srv)
	steps := []struct {
		change func()
		sent   string // "" for nothing
	}{
		{func() { srv.AddTools(textTool("a", "A")) }, listChanged("tools")},
		{func() { srv.RemoveTools("a") }, listChanged("tools")},
		{func() { srv.RemoveTools("a") }, ""},
		{func() { srv.AddPrompts(textPrompt("p", "P")) }, listChanged("prompts")},
		{func() { srv.RemovePrompts("p", "q") }, listChanged("prompts")},
		{func() { srv.RemovePrompts("p") }, ""},
		{func() { srv.AddResources(textResource("x://r", "R")) }, listChanged("resources")},
		{func() { srv.AddResources(dataTemplate) }, listChanged("resources")},
		{func() { srv.RemoveResources("x://r") }, listChanged("resources")},
		{func() { srv.RemoveResources(dataTemplate.URI) }, listChanged("resources")},
		{func() { srv.RemoveResources("x://r") }, ""},
	}
	for _, st := range steps {
		st.change()
		if st.sent != "" {
			c.expect(st.sent)
		}
		c.call(ping, pong)
	}
	uninitialized.call(ping, pong)
	c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`)
}

func TestNoListChangedWithoutSwitches(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v"}, textTool("a", "A"))
	c := startStdio(t, srv)
	c.initialize(wire.Rev20251125, `{}`)
	srv.RemoveTools("a")
	srv.AddPrompts(textPrompt("p", "P"))
	srv.RemovePrompts("p")
	srv.AddResources(textResource("x://r", "R"))
	srv.RemoveResources("x://r")
	c.call(ping, pong)
}
