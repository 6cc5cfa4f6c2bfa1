package mcpstore

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// EventLog keeps the SSE events of the session revisions (2025-03-26 to
// 2025-11-25) so that a client whose stream dropped can resume it: a GET
// with Last-Event-ID replays what followed that event on its stream, then
// follows the stream live. The server names the streams of a session: "g"
// for its GET stream, one name per POST answered with SSE.
//
// A shared implementation (several replicas serving one session) must
// provide: ids of the form stream + "/" + position, unique across the
// session's streams, increasing along a stream and never reused for
// another session; Follow delivering each event once, in Append order,
// whichever replica appended it; events kept at least as long as the
// session, bounded per stream; records made only of strings and bytes;
// a held stream whose hold lapses ending, once, with its will, on
// whichever replica first follows it after the lapse.
// Errors other than ErrUnknownEvent are failures of the log itself.
//
// The suite [github.com/mcpgen/mcpgen/runtime/mcpstore/storetest.EventLog]
// checks each clause.
type EventLog interface {
	// Append adds data as the next event of stream and returns its id.
	// Empty data is a priming event: it has an id and carries no message.
	Append(ctx context.Context, session, stream string, data []byte) (id string, err error)
	// End marks stream finished: followers stop after its last event.
	End(ctx context.Context, session, stream string) error
	// Hold declares that the caller writes stream and will End it: the
	// hold lasts ttl and each call renews it. Should it lapse before
	// End, as when the writer's process died, a follower appends will
	// (the answer that stands for the one never written; empty: none)
	// and ends the stream, once, so that no follower waits forever. Each
	// call sets the will; a stream never held never lapses.
	Hold(ctx context.Context, session, stream string, ttl time.Duration, will []byte) error
	// Follow calls fn with each event of stream after the event with id
	// after, in order, then with each new one, until the stream ends (nil),
	// ctx is done (its error) or fn fails (fn's error). It returns
	// ErrUnknownEvent when after is not an event of stream or the events
	// after it are no longer kept.
	Follow(ctx context.Context, session, stream, after string, fn func(id string, data []byte) error) error
	// Check returns nil when Follow can resume stream after the event id,
	// ErrUnknownEvent when it cannot, so that a bad id is refused before
	// the stream's headers are sent.
	Check(ctx context.Context, session, stream, id string) error
	// Close forgets the session's events and ends its followers. A
	// shared log may keep the events a minute, so that followers on
	// other replicas read their end.
	Close(ctx context.Context, session string) error
}

// ErrUnknownEvent is the error of [EventLog.Follow] for an event id the
// log cannot resume from.
var ErrUnknownEvent = errors.New("mcpserver: unknown or expired event id")

// StreamOf returns the stream an event id names, or false for an id not
// of the form stream/position.
func StreamOf(id string) (string, bool) {
	stream, pos, ok := strings.Cut(id, "/")
	return stream, ok && stream != "" && pos != "" && !strings.Contains(pos, "/")
}

// DefaultEventLogSize is how many events a MemoryEventLog keeps per stream
// when MaxEvents is zero.
const DefaultEventLogSize = 1024

// maxEndedStreams is how many finished streams a MemoryEventLog keeps
// per session; older ones are forgotten first.
const maxEndedStreams = 64

// MemoryEventLog is the in-process [EventLog], the server's default. It
// keeps the last MaxEvents events of each stream, and the streams of a
// session until the session ends. Positions are numbered across all
// sessions, so an id of one session is unknown in every other.
type MemoryEventLog struct {
	// MaxEvents bounds the events kept per stream. Zero means
	// DefaultEventLogSize.
	MaxEvents int

	seq      atomic.Uint64
	mu       sync.Mutex
	sessions map[string]*memSession
}

type memSession struct {
	streams map[string]*memStream
	ended   []string // finished streams, oldest first
	closed  chan struct{}
}

type memStream struct {
	events  []memEvent
	evicted uint64 // position of the last event dropped for the bound; 0: none
	ended   bool
	changed chan struct{} // closed and replaced on every change
	held    bool          // Hold was called: the stream lapses at until
	until   time.Time
	will    []byte
}

type memEvent struct {
	pos  uint64
	data []byte
}

func (l *MemoryEventLog) session(id string, create bool) *memSession {
	ms := l.sessions[id]
	if ms == nil && create {
		if l.sessions == nil {
			l.sessions = make(map[string]*memSession)
		}
		ms = &memSession{streams: make(map[string]*memStream), closed: make(chan struct{})}
		l.sessions[id] = ms
	}
	return ms
}

// isClosed reports whether the log closed the session; its streams are
// forgotten and end with it.
func (ms *memSession) isClosed() bool {
	select {
	case <-ms.closed:
		return true
	default:
		return false
	}
}

func (ms *memSession) stream(name string) *memStream {
	st := ms.streams[name]
	if st == nil {
		st = &memStream{changed: make(chan struct{})}
		ms.streams[name] = st
	}
	return st
}

func (st *memStream) signal() {
	close(st.changed)
	st.changed = make(chan struct{})
}

// Append implements [EventLog].
func (l *MemoryEventLog) Append(_ context.Context, session, stream string, data []byte) (string, error) {
	pos := l.seq.Add(1)
	l.mu.Lock()
	defer l.mu.Unlock()
	st := l.session(session, true).stream(stream)
	if st.ended {
		return "", errors.New("mcpserver: append to an ended stream")
	}
	l.add(st, pos, data)
	return stream + "/" + strconv.FormatUint(pos, 10), nil
}

// add appends data as the event at pos, dropping the oldest beyond the
// bound; l.mu is held.
func (l *MemoryEventLog) add(st *memStream, pos uint64, data []byte) {
	limit := l.MaxEvents
	if limit <= 0 {
		limit = DefaultEventLogSize
	}
	if len(st.events) >= limit {
		st.evicted = st.events[0].pos
		st.events = append(st.events[:0], st.events[1:]...)
	}
	st.events = append(st.events, memEvent{pos: pos, data: append([]byte(nil), data...)})
	st.signal()
}

// End implements [EventLog].
func (l *MemoryEventLog) End(_ context.Context, session, stream string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	ms := l.session(session, false)
	if ms == nil {
		return nil
	}
	if st := ms.streams[stream]; st != nil && !st.ended {
		ms.end(stream, st)
	}
	return nil
}

// end marks st, the stream name of ms, finished and forgets the oldest
// finished streams beyond the bound; the log's mu is held.
func (ms *memSession) end(name string, st *memStream) {
	st.ended, st.will = true, nil
	st.signal()
	ms.ended = append(ms.ended, name)
	if len(ms.ended) > maxEndedStreams {
		delete(ms.streams, ms.ended[0])
		ms.ended = ms.ended[1:]
	}
}

// Hold implements [EventLog]. In one process a hold lapses only when its
// writer stops renewing it without ending the stream; the followers'
// wait looks at its deadline.
func (l *MemoryEventLog) Hold(_ context.Context, session, stream string, ttl time.Duration, will []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	st := l.session(session, true).stream(stream)
	if st.ended {
		return nil
	}
	first := !st.held
	st.held, st.until, st.will = true, time.Now().Add(ttl), append(st.will[:0], will...)
	if first {
		st.signal() // followers already waiting learn the deadline
	}
	return nil
}

// lapse ends st with its will when its hold has lapsed, and returns how
// long until it lapses otherwise (0: never); l.mu is held.
func (l *MemoryEventLog) lapse(ms *memSession, name string, st *memStream) time.Duration {
	if !st.held || st.ended || ms.isClosed() {
		return 0
	}
	if left := time.Until(st.until); left > 0 {
		return left
	}
	if len(st.will) > 0 {
		l.add(st, l.seq.Add(1), st.will)
	}
	ms.end(name, st)
	return 0
}

// find returns the session and stream of the event id, and its position;
// l.mu is held.
func (l *MemoryEventLog) find(session, stream, id string) (*memSession, *memStream, uint64, error) {
	name, ok := StreamOf(id)
	if !ok || name != stream {
		return nil, nil, 0, ErrUnknownEvent
	}
	pos, err := strconv.ParseUint(id[len(name)+1:], 10, 64)
	if err != nil {
		return nil, nil, 0, ErrUnknownEvent
	}
	ms := l.session(session, false)
	if ms == nil || ms.streams[stream] == nil || !ms.streams[stream].holds(pos) {
		return nil, nil, 0, ErrUnknownEvent
	}
	return ms, ms.streams[stream], pos, nil
}

// Check implements [EventLog].
func (l *MemoryEventLog) Check(_ context.Context, session, stream, id string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _, _, err := l.find(session, stream, id)
	return err
}

// Follow implements [EventLog].
func (l *MemoryEventLog) Follow(ctx context.Context, session, stream, after string, fn func(id string, data []byte) error) error {
	l.mu.Lock()
	ms, st, last, err := l.find(session, stream, after)
	if err != nil {
		l.mu.Unlock()
		return err
	}
	closed := ms.closed
	l.mu.Unlock()
	for {
		l.mu.Lock()
		var next []memEvent
		for i := len(st.events); i > 0 && st.events[i-1].pos > last; i-- {
			next = st.events[i-1:]
		}
		if st.evicted > last {
			l.mu.Unlock()
			return ErrUnknownEvent // the reader fell behind the bound
		}
		next = append([]memEvent(nil), next...)
		ended, changed := st.ended, st.changed
		l.mu.Unlock()
		for _, e := range next {
			if err := fn(stream+"/"+strconv.FormatUint(e.pos, 10), e.data); err != nil {
				return err
			}
			last = e.pos
		}
		if len(next) > 0 {
			continue
		}
		if ended {
			return nil
		}
		// A held stream's wait ends at its deadline too, to look at it
		// again; its lapse ends it, which closes changed.
		var lapsed <-chan time.Time
		timer := l.lapseTimer(ms, stream, st)
		if timer != nil {
			lapsed = timer.C
		}
		var stop bool
		select {
		case <-changed:
		case <-lapsed:
		case <-closed:
			stop = true
		case <-ctx.Done():
			stop, err = true, ctx.Err()
		}
		if timer != nil {
			timer.Stop()
		}
		if stop {
			return err
		}
	}
}

// lapseTimer ends st with its will if its hold lapsed, and returns a
// timer of the time left otherwise (nil: none, or never held).
func (l *MemoryEventLog) lapseTimer(ms *memSession, name string, st *memStream) *time.Timer {
	l.mu.Lock()
	defer l.mu.Unlock()
	if left := l.lapse(ms, name, st); left > 0 {
		return time.NewTimer(left)
	}
	return nil
}

// holds reports whether pos is an event of st, kept or the last one
// dropped for the bound (the events after it are all kept).
func (st *memStream) holds(pos uint64) bool {
	if pos != 0 && pos == st.evicted {
		return true
	}
	for _, e := range st.events {
		if e.pos == pos {
			return true
		}
	}
	return false
}

// Close implements [EventLog].
func (l *MemoryEventLog) Close(_ context.Context, session string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if ms := l.sessions[session]; ms != nil {
		close(ms.closed)
		delete(l.sessions, session)
	}
	return nil
}
