package mcpserver

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// record is what the store keeps of sess.
func (ss *session) record() *mcpstore.SessionRecord {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	rec := &mcpstore.SessionRecord{ID: ss.id, Revision: string(ss.rev), Capabilities: ss.rawCaps, LogLevel: string(ss.level), TaskOwner: ss.taskOwner, Owner: principalKey(ss.owner)}
	for uri := range ss.subs {
		rec.Subscriptions = append(rec.Subscriptions, uri)
	}
	return rec
}

// adopt takes the stored state of the session into sess.
func (ss *session) adopt(rec *mcpstore.SessionRecord) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.rev == "" {
		ss.rev = wire.Revision(rec.Revision)
		ss.rawCaps = rec.Capabilities
		ss.caps = parseClientCaps(rec.Capabilities)
	}
	if ss.owner == nil {
		ss.owner = principalOfKey(rec.Owner)
	}
	ss.level = mcprt.LogLevel(rec.LogLevel)
	ss.subs = make(map[string]struct{}, len(rec.Subscriptions))
	for _, uri := range rec.Subscriptions {
		ss.subs[uri] = struct{}{}
	}
}

// sharedSession finds the session id in Server.Sessions, serving it here
// from now on if it was started elsewhere, and refreshes what other
// replicas may have changed of it. For a session the store does not hold
// it forgets the local copy and returns nil, for the caller to answer
// 404; when the store fails it answers 503 and reports answered.
func (s *Server) sharedSession(w http.ResponseWriter, r *http.Request, id string, sess *session) (_ *session, answered bool) {
	rec, err := s.Sessions.Get(r.Context(), id)
	switch {
	case errors.Is(err, mcpstore.ErrSessionNotFound):
		if sess != nil {
			s.untrack(sess)
			sess.close()
			sess.stop()
		}
		return nil, false // the caller answers 404
	case err != nil:
		s.logger().Error("mcp session store", "err", err)
		http.Error(w, "Service Unavailable: the session store failed", http.StatusServiceUnavailable)
		return nil, true
	}
	if sess == nil {
		fresh := newSession(context.Background(), s, id, TransportHTTP, nil)
		fresh.taskOwner = rec.TaskOwner
		fresh.lastUsed = s.clock()
		s.mu.Lock()
		if sess = s.byID[id]; sess == nil {
			sess = fresh
			s.byID[id] = sess
			s.sessions[sess] = struct{}{}
		}
		s.mu.Unlock()
	}
	sess.adopt(rec)
	if idle := s.idleTimeout(); idle > 0 {
		now := s.clock()
		sess.mu.Lock()
		stale := now.Sub(sess.touched) >= idle/8
		if stale {
			sess.touched = now
		}
		sess.mu.Unlock()
		if stale {
			if err := s.Sessions.Touch(r.Context(), id, idle); err != nil {
				s.logger().Error("mcp session store", "err", err)
			}
		}
	}
	return sess, false
}

// storeLevel and storeSubscription write a change of the session to
// Server.Sessions, when there is one.
func (s *Server) storeLevel(ctx context.Context, sess *session, level mcprt.LogLevel) error {
	if s.Sessions == nil || sess.id == "" {
		return nil
	}
	return s.Sessions.SetLogLevel(ctx, sess.id, string(level))
}

func (s *Server) storeSubscription(ctx context.Context, sess *session, uri string, on bool) error {
	if s.Sessions == nil || sess.id == "" {
		return nil
	}
	return s.Sessions.Subscribe(ctx, sess.id, uri, on)
}

// principalKey is how a session record names the principal that owns the
// session: the token's issuer and subject, "" without a token.
func principalKey(t *mcprt.TokenInfo) string {
	if t == nil {
		return ""
	}
	return t.Issuer + "\n" + t.Subject // an issuer is a URL, which holds no line break
}

// principalOfKey is the principal a record's owner names, nil for none.
func principalOfKey(key string) *mcprt.TokenInfo {
	iss, sub, ok := strings.Cut(key, "\n")
	if !ok {
		return nil
	}
	return &mcprt.TokenInfo{Issuer: iss, Subject: sub}
}
