package mcpserver

import (
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// TestAttachStores: AttachStores sets the stores given, leaves the
// others, and reports the session idle timeout a backend expires
// sessions by.
func TestAttachStores(t *testing.T) {
	t.Parallel()
	own := &mcpstore.MemoryEventLog{}
	tasks, sessions, bus := mcpstore.NewMemoryTaskStore(), &mcpstore.MemorySessionStore{}, &mcpstore.MemoryBus{}
	srv := &Server{Events: own}
	if idle := srv.AttachStores(mcpstore.Stores{Tasks: tasks, Sessions: sessions, Bus: bus}); idle != DefaultSessionIdleTimeout {
		t.Errorf("idle %v, want the default %v", idle, DefaultSessionIdleTimeout)
	}
	if srv.Tasks != tasks || srv.Sessions != sessions || srv.Bus != bus || srv.Events != own || srv.DPoPReplay != nil {
		t.Errorf("stores %v %v %v %v %v, want those given and the log left", srv.Tasks, srv.Sessions, srv.Bus, srv.Events, srv.DPoPReplay)
	}
	replay := NewMemoryReplayCache()
	srv.AttachStores(mcpstore.Stores{Replay: replay})
	if srv.DPoPReplay != replay || srv.Tasks != tasks {
		t.Errorf("DPoPReplay %v, tasks %v: want the replay cache given and the tasks left", srv.DPoPReplay, srv.Tasks)
	}
	for _, set := range []time.Duration{time.Minute, -1} {
		if idle := (&Server{SessionIdleTimeout: set}).AttachStores(mcpstore.Stores{}); idle != set {
			t.Errorf("SessionIdleTimeout %v: idle %v", set, idle)
		}
	}
}
