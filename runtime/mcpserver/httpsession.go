package mcpserver

import (
	"context"
	"net/http"
	"time"

	"github.com/mcpgen/mcpgen/internal/authgate"
)

// httpSession finds the session a request names, or answers 400 (no
// Mcp-Session-Id) or 404 (unknown or ended), tells of the refusal of
// msgs, the messages of the request, and returns nil.
func (s *Server) httpSession(w http.ResponseWriter, r *http.Request, msgs ...*message) *session {
	id := headerValue(r.Header, "Mcp-Session-Id")
	if id == "" {
		const text = "Bad Request: Mcp-Session-Id header is required"
		http.Error(w, text, http.StatusBadRequest)
		s.refused(r, Refusal{Status: http.StatusBadRequest, Reason: ReasonNoSession, Message: text}, nil, msgs)
		return nil
	}
	s.mu.Lock()
	sess := s.byID[id]
	s.mu.Unlock()
	if s.Sessions != nil {
		var answered bool
		if sess, answered = s.sharedSession(w, r, id, sess); answered {
			return nil
		}
	}
	if sess == nil || s.Auth != nil && !samePrincipal(sess.owner, tokenOf(r.Context())) {
		// Another principal's session is unknown to this one: a client
		// whose token now names someone else starts a session of its
		// own, as after any 404, and learns nothing of the other.
		http.Error(w, authgate.MessageUnknown, http.StatusNotFound)
		s.refused(r, Refusal{Status: http.StatusNotFound, Reason: ReasonUnknown, Message: authgate.MessageUnknown}, nil, msgs)
		return nil
	}
	sess.enter(s.clock())
	return sess
}

// release ends an HTTP request of sess that httpSession began.
func (s *Server) release(sess *session) { sess.leave(s.clock()) }

func (s *Server) clock() time.Time {
	if s.now != nil {
		return s.now()
	}
	return time.Now()
}

func (s *Server) idleTimeout() time.Duration {
	if s.SessionIdleTimeout == 0 {
		return DefaultSessionIdleTimeout
	}
	return s.SessionIdleTimeout
}

// expireIdle ends the HTTP sessions idle for longer than the idle timeout.
// It runs when a session is created, and looks at every session at most
// once in an eighth of the timeout, so that it costs nothing per request.
func (s *Server) expireIdle() {
	timeout := s.idleTimeout()
	if timeout < 0 {
		return
	}
	now := s.clock()
	var idle []*session
	s.mu.Lock()
	if now.Sub(s.lastSweep) >= timeout/8 {
		s.lastSweep = now
		for id, sess := range s.byID {
			if sess.idleAt(now, timeout) {
				idle = append(idle, sess)
				delete(s.byID, id)
				delete(s.sessions, sess)
			}
		}
	}
	s.mu.Unlock()
	for _, sess := range idle {
		if s.Sessions != nil {
			if _, err := s.Sessions.Get(context.Background(), sess.id); err == nil {
				// Another replica may serve it still: only this copy ends.
				sess.close()
				sess.stop()
				continue
			}
		}
		s.endSession(sess)
		s.sessionEnded(sess, "idle")
	}
}

// sessionContext is the context of a request in a session: it ends with
// the request or the session.
func sessionContext(req context.Context, sess *session) (context.Context, func()) {
	ctx, cancel := context.WithCancel(req)
	stop := context.AfterFunc(sess.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

// streamTaken makes the session, whose GET stream another replica has
// opened, leave the writing of its messages to that replica, unless it
// holds a GET stream itself.
func (ss *session) streamTaken() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if _, logged := ss.stream.(*eventStream); logged && ss.get == nil {
		ss.stream = nil
	}
}

// httpDelete ends a session.
func (s *Server) httpDelete(w http.ResponseWriter, r *http.Request) {
	sess := s.httpSession(w, r)
	if sess == nil {
		return
	}
	defer s.release(sess)
	if s.Sessions != nil {
		if err := s.Sessions.Delete(r.Context(), sess.id); err != nil {
			s.logger().Error("mcp session store", "err", err)
			http.Error(w, "Service Unavailable: the session store failed", http.StatusServiceUnavailable)
			return
		}
	}
	s.untrack(sess)
	s.endSession(sess)
	w.WriteHeader(http.StatusNoContent)
	s.sessionEnded(sess, "deleted")
}
