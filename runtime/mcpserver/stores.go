package mcpserver

import (
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

var _ mcpstore.Attacher = (*Server)(nil)

// AttachStores implements [mcpstore.Attacher]: it sets Tasks, Sessions,
// Events, Bus and DPoPReplay to the stores of st, each that is not nil,
// and returns
// the session idle timeout (SessionIdleTimeout, or its default). A
// backend's Attach calls it, before s serves.
func (s *Server) AttachStores(st mcpstore.Stores) time.Duration {
	if st.Tasks != nil {
		s.Tasks = st.Tasks
	}
	if st.Sessions != nil {
		s.Sessions = st.Sessions
	}
	if st.Events != nil {
		s.Events = st.Events
	}
	if st.Bus != nil {
		s.Bus = st.Bus
	}
	if st.Replay != nil {
		s.DPoPReplay = st.Replay
	}
	return s.idleTimeout()
}
