package mcpserver

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// SessionRecord is what replicas share of a 2025 HTTP session: enough for
// any of them to serve its next request.
type SessionRecord struct {
	ID           string // its Mcp-Session-Id
	Revision     string // the negotiated protocol revision
	Capabilities []byte // the client's capabilities, JSON as it sent them
	ClientInfo   []byte // the client's clientInfo, JSON as it sent it
	LogLevel     string // "": no log messages
	// Subscriptions are the URIs of resources/subscribe.
	Subscriptions []string
	// TaskOwner names the session as the owner of its tasks, and Owner
	// who the session belongs to ("": anyone who holds its id).
	TaskOwner, Owner string
}

// SessionStore shares the 2025 HTTP sessions of a server between its
// replicas, so that a load balancer may send each request anywhere. Nil
// Server.Sessions keeps them in the process, which suits a single server.
//
// A shared implementation must provide: Create visible to Get on every
// replica before it returns; Get answering ErrSessionNotFound for a
// session deleted or idle for longer than its last Touch allowed, so that
// every replica answers 404 after a DELETE; SetLogLevel and Subscribe
// applied atomically, each without undoing another made meanwhile;
// records made only of strings and bytes.
type SessionStore interface {
	Create(ctx context.Context, rec *SessionRecord) error
	Get(ctx context.Context, id string) (*SessionRecord, error)
	SetLogLevel(ctx context.Context, id, level string) error
	// Subscribe adds uri to the session's subscriptions, or removes it
	// when on is false.
	Subscribe(ctx context.Context, id, uri string, on bool) error
	// Touch keeps the session for idle more from now.
	Touch(ctx context.Context, id string, idle time.Duration) error
	Delete(ctx context.Context, id string) error
}

// ErrSessionNotFound is the error of a [SessionStore] for a session it
// does not hold.
var ErrSessionNotFound = errors.New("mcpserver: session not found")

// MemorySessionStore is the in-process [SessionStore]: it shares sessions
// between the Server values of one process.
type MemorySessionStore struct {
	mu   sync.Mutex
	recs map[string]*memSessionRecord
	now  func() time.Time
}

type memSessionRecord struct {
	SessionRecord
	until time.Time // zero: never touched, kept until deleted
}

func (m *MemorySessionStore) clock() time.Time {
	if m.now != nil {
		return m.now()
	}
	return time.Now()
}

// find returns the live record of id; m.mu is held.
func (m *MemorySessionStore) find(id string) (*memSessionRecord, error) {
	r := m.recs[id]
	if r == nil {
		return nil, ErrSessionNotFound
	}
	if !r.until.IsZero() && m.clock().After(r.until) {
		delete(m.recs, id)
		return nil, ErrSessionNotFound
	}
	return r, nil
}

// Create implements [SessionStore].
func (m *MemorySessionStore) Create(_ context.Context, rec *SessionRecord) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.recs == nil {
		m.recs = map[string]*memSessionRecord{}
	}
	c := *rec
	c.Capabilities = append([]byte(nil), rec.Capabilities...)
	c.Subscriptions = slices.Clone(rec.Subscriptions)
	m.recs[rec.ID] = &memSessionRecord{SessionRecord: c}
	return nil
}

// Get implements [SessionStore].
func (m *MemorySessionStore) Get(_ context.Context, id string) (*SessionRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, err := m.find(id)
	if err != nil {
		return nil, err
	}
	c := r.SessionRecord
	c.Subscriptions = slices.Clone(c.Subscriptions)
	return &c, nil
}

// SetLogLevel implements [SessionStore].
func (m *MemorySessionStore) SetLogLevel(_ context.Context, id, level string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, err := m.find(id)
	if err == nil {
		r.LogLevel = level
	}
	return err
}

// Subscribe implements [SessionStore].
func (m *MemorySessionStore) Subscribe(_ context.Context, id, uri string, on bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, err := m.find(id)
	if err != nil {
		return err
	}
	i := slices.Index(r.Subscriptions, uri)
	switch {
	case on && i < 0:
		r.Subscriptions = append(r.Subscriptions, uri)
	case !on && i >= 0:
		r.Subscriptions = slices.Delete(r.Subscriptions, i, i+1)
	}
	return nil
}

// Touch implements [SessionStore].
func (m *MemorySessionStore) Touch(_ context.Context, id string, idle time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, err := m.find(id)
	if err == nil && idle > 0 {
		r.until = m.clock().Add(idle)
	}
	return err
}

// Delete implements [SessionStore].
func (m *MemorySessionStore) Delete(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.recs, id)
	return nil
}

// record is what the store keeps of sess.
func (ss *session) record() *SessionRecord {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	rec := &SessionRecord{ID: ss.id, Revision: string(ss.rev), Capabilities: ss.rawCaps, ClientInfo: ss.rawInfo, LogLevel: string(ss.level), TaskOwner: ss.taskOwner, Owner: principalKey(ss.owner)}
	for uri := range ss.subs {
		rec.Subscriptions = append(rec.Subscriptions, uri)
	}
	return rec
}

// adopt takes the stored state of the session into sess.
func (ss *session) adopt(rec *SessionRecord) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.rev == "" {
		ss.rev = wire.Revision(rec.Revision)
		ss.rawCaps = rec.Capabilities
		ss.rawInfo = rec.ClientInfo
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
// replicas may have changed of it. It answers 404 for a session the store
// does not hold (and forgets the local copy), 503 when the store fails,
// and then returns nil.
func (s *Server) sharedSession(w http.ResponseWriter, r *http.Request, id string, sess *session) *session {
	rec, err := s.Sessions.Get(r.Context(), id)
	switch {
	case errors.Is(err, ErrSessionNotFound):
		if sess != nil {
			s.untrack(sess)
			sess.close()
			sess.stop()
		}
		http.Error(w, "Not Found: unknown session", http.StatusNotFound)
		return nil
	case err != nil:
		s.logger().Error("mcp session store", "err", err)
		http.Error(w, "Service Unavailable: the session store failed", http.StatusServiceUnavailable)
		return nil
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
	return sess
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
