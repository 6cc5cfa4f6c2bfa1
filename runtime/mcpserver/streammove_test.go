package mcpserver

import (
	"net/http"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// TestReplicaStreamMovesOnce: a session's GET stream that moves from one
// replica to another hears each notification once: the replica it left
// stops writing the session's messages to the shared log, which it did so
// that a client reconnecting there would lose nothing.
func TestReplicaStreamMovesOnce(t *testing.T) {
	t.Parallel()
	sessions, bus, log := &mcpstore.MemorySessionStore{}, &mcpstore.MemoryBus{}, &mcpstore.MemoryEventLog{}
	id := mcprt.Identity{Name: "n", Version: "v", EnableToolNotifications: true}
	mk := func(name string) (*httpClient, *Server) {
		srv := New(id)
		srv.Sessions, srv.Bus, srv.Events, srv.ReplicaID = sessions, bus, log, name
		return startHTTP(t, srv), srv
	}
	a, ra := mk("r1")
	b, rb := mk("r2")
	a.initialize(wire.Rev20250618, `{}`)
	b.sid = a.sid
	accept := header("Accept", "text/event-stream")

	first := a.do(http.MethodGet, "", accept)
	waitGet(t, ra, a.sid)
	first.Body.Close() // the client drops it, and opens one on b
	waitNoGet(t, ra, a.sid)
	ev := events(t, b.do(http.MethodGet, "", accept))
	waitGet(t, rb, b.sid)

	const changed = `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`
	for i, srv := range []*Server{ra, rb, ra} {
		srv.Add(textTool("t"+string(rune('0'+i)), "T"))
		nextEvent(t, ev, changed)
	}
	select {
	case got := <-ev:
		t.Errorf("after three changes, a fourth event: %s", got)
	case <-time.After(100 * time.Millisecond):
	}
}
