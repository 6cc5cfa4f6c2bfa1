package mcpstore

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"
)

// SessionRecord is what replicas share of a 2025 HTTP session: enough for
// any of them to serve its next request.
type SessionRecord struct {
	ID           string // its Mcp-Session-Id
	Revision     string // the negotiated protocol revision
	Capabilities []byte // the client's capabilities, JSON as it sent them
	LogLevel     string // "": no log messages
	// Subscriptions are the URIs of resources/subscribe.
	Subscriptions []string
	// TaskOwner names the session as the owner of its tasks, and Owner
	// who the session belongs to ("": anyone who holds its id).
	TaskOwner, Owner string
}

// SessionStore shares the 2025 HTTP sessions of a server between its
// replicas, so that a load balancer may send each request anywhere. A
// nil mcpserver.Server.Sessions keeps them in the process, which suits a
// single server.
//
// A shared implementation must provide: Create visible to Get on every
// replica before it returns; Get answering ErrSessionNotFound for a
// session deleted or idle for longer than its last Touch allowed, so that
// every replica answers 404 after a DELETE; SetLogLevel and Subscribe
// applied atomically, each without undoing another made meanwhile;
// records made only of strings and bytes.
//
// The suite [github.com/mcpgen/mcpgen/runtime/mcpstore/storetest.SessionStore]
// checks each clause.
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
// between the mcpserver.Server values of one process.
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
