package mcpserver

import (
	"context"
	"crypto/rand"

	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// replicaID returns Server.ReplicaID, made random on first use when empty.
func (s *Server) replicaID() string {
	s.replicaOnce.Do(func() {
		if s.ReplicaID == "" {
			s.ReplicaID = rand.Text()[:10]
		}
	})
	return s.ReplicaID
}

// bus returns Server.Bus, subscribed once, or nil when there is none.
// It is called wherever a replica begins its share of the work (serving
// HTTP or a stream, the first task), so it also starts the reaper of a
// shared task store there.
func (s *Server) bus() mcpstore.Bus {
	s.startReaper()
	b := s.Bus
	if b == nil {
		return nil
	}
	// Subscribed on the first use with a Bus set, not on the first use:
	// a server may add tools and prompts before a backend sets its Bus.
	s.busMu.Lock()
	defer s.busMu.Unlock()
	if !s.busSubscribed {
		if _, err := b.Subscribe(s.onBus); err != nil {
			s.logger().Error("mcp bus: subscribing failed", "err", err)
		} else {
			s.busSubscribed = true
		}
	}
	return b
}

// publish sends e on the bus, if the server has one.
func (s *Server) publish(ctx context.Context, e mcpstore.BusEvent) {
	b := s.bus()
	if b == nil {
		return
	}
	e.Origin = s.replicaID()
	if err := b.Publish(ctx, e); err != nil {
		s.logger().Error("mcp bus: publishing failed", "err", err, "kind", string(e.Kind))
	}
}

// onBus acts on an event of the bus. What this replica published it has
// done already, but for the wake-up of its own waiters.
func (s *Server) onBus(e mcpstore.BusEvent) {
	if e.Kind == mcpstore.BusTaskChanged {
		s.taskChanged(e.ID, e.Origin != s.replicaID())
		return
	}
	if e.Origin == s.replicaID() || e.Target != "" && e.Target != s.replicaID() {
		return
	}
	switch e.Kind {
	case mcpstore.BusNotify:
		s.broadcastHere(e.ID)
	case mcpstore.BusResourceUpdated:
		s.resourceUpdatedHere(e.ID)
	case mcpstore.BusReply:
		if sess := s.localSession(e.Session); sess != nil {
			if m, _, err := parseMessage(e.Data); err == nil && m.isResponse() {
				sess.deliver(m)
			}
		}
	case mcpstore.BusCancel:
		if sess := s.localSession(e.Session); sess != nil {
			sess.cancel(e.Data)
		}
	case mcpstore.BusTaskStatus:
		if m, _, err := parseMessage(e.Data); err == nil && m.method == "notifications/tasks/status" {
			s.taskStatusHere(e.Owner, e.Data)
		}
	case mcpstore.BusStreamTaken:
		if sess := s.localSession(e.Session); sess != nil {
			sess.streamTaken()
		}
	case mcpstore.BusTaskMessage:
		s.relayHere(e.ID, e.Data)
	case mcpstore.BusTaskWaiting:
		if run := s.running(e.ID); run != nil {
			go run.relayQueued()
		}
	}
}

// localSession returns the HTTP session id as this replica serves it, or
// nil.
func (s *Server) localSession(id string) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byID[id]
}

// appendReply writes the response m again, for the bus.
func appendReply(m *message) []byte {
	dst := append(append([]byte(`{"jsonrpc":"2.0","id":`), m.id...), ',')
	if m.error != nil {
		return append(append(append(dst, `"error":`...), m.error...), '}')
	}
	return append(append(append(dst, `"result":`...), m.result...), '}')
}
