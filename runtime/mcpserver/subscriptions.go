package mcpserver

import (
	"context"
	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
	"slices"
)

// ResourceUpdated tells the sessions subscribed to uri (with
// resources/subscribe) and the subscriptions/listen streams that listed it
// that the resource changed: notifications/resources/updated goes to each
// of them, and to no other. Over HTTP it travels on the session's GET
// stream, and is dropped for a session that has none open. It does nothing
// without Identity.EnableResourceSubscriptions, under which no client can
// subscribe.
func (s *Server) ResourceUpdated(uri string) {
	s.resourceUpdatedHere(uri)
	s.publish(context.Background(), mcpstore.BusEvent{Kind: mcpstore.BusResourceUpdated, ID: uri})
}

// resourceUpdatedHere tells this replica's sessions and listens that
// the resource uri changed.
func (s *Server) resourceUpdatedHere(uri string) {
	s.listens.post(note{method: resourceUpdated, uri: uri})
	var msg []byte
	for _, sess := range s.liveSessions() {
		if !s.subscribedNow(sess, uri) {
			continue
		}
		if msg == nil {
			params := jsonx.AppendString(append(make([]byte, 0, len(uri)+10), `{"uri":`...), uri)
			msg = appendNotification(nil, resourceUpdated, append(params, '}'))
		}
		sess.notify(msg)
	}
}

// broadcast sends the notification method, without params, to every live
// initialized legacy session and to the subscriptions/listen streams that
// asked for it: the list_changed notifications.
func (s *Server) broadcast(method string) {
	s.broadcastHere(method)
	s.publish(context.Background(), mcpstore.BusEvent{Kind: mcpstore.BusNotify, ID: method})
}

// broadcastHere sends the notification method to this replica's sessions
// and listens.
func (s *Server) broadcastHere(method string) {
	s.listens.post(note{method: method})
	msg := appendNotification(nil, method, nil)
	for _, sess := range s.liveSessions() {
		if rev := sess.revision(); rev != "" && !rev.Stateless() {
			sess.notify(msg)
		}
	}
}

// liveSessions returns the sessions served now, so that messages go out
// without s.mu held.
func (s *Server) liveSessions() []*session {
	s.mu.Lock()
	defer s.mu.Unlock()
	live := make([]*session, 0, len(s.sessions))
	for sess := range s.sessions {
		live = append(live, sess)
	}
	return live
}

// subscribe answers resources/subscribe (on is true) and
// resources/unsubscribe, which exist only with
// Identity.EnableResourceSubscriptions. Any URI may be subscribed to,
// including one no resource serves yet or one a template matches; an
// unsubscribe from a URI not subscribed to succeeds too.
func (s *Server) subscribe(x *exchange, method string, params []byte, on bool) ([]byte, *rpcError) {
	if !s.id.EnableResourceSubscriptions || !s.caps.Load().resources {
		return nil, methodNotFound(method)
	}
	uri, rerr := uriParam(params)
	if rerr != nil {
		return nil, rerr
	}
	ss := x.sess
	if err := s.storeSubscription(context.Background(), ss, uri, on); err != nil {
		return nil, s.storeError("storing the session", err)
	}
	ss.mu.Lock()
	if on {
		if ss.subs == nil {
			ss.subs = make(map[string]struct{})
		}
		ss.subs[uri] = struct{}{}
	} else {
		delete(ss.subs, uri)
	}
	ss.mu.Unlock()
	return []byte(`{}`), nil
}

// subscribedNow reports whether sess subscribed to uri: where sessions
// are shared, as the store says now for a session whose stream this
// replica holds (another replica may have taken the subscription), and
// never for one it does not (that replica tells it).
func (s *Server) subscribedNow(sess *session, uri string) bool {
	if s.Sessions == nil || sess.id == "" {
		return sess.subscribed(uri)
	}
	sess.mu.Lock()
	holds := sess.stream != nil
	sess.mu.Unlock()
	if !holds {
		return false
	}
	rec, err := s.Sessions.Get(context.Background(), sess.id)
	return err == nil && slices.Contains(rec.Subscriptions, uri)
}

// subscribed reports whether the session subscribed to uri.
func (ss *session) subscribed(uri string) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	_, ok := ss.subs[uri]
	return ok
}
