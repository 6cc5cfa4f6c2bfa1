package mcpstore

import (
	"context"
	"sync"
)

// Bus carries events between the replicas of a server: what one replica
// changes or receives that another must act on. The default,
// [MemoryBus], connects the mcpserver.Server values of one process that
// share it; a server with neither a Bus nor other replicas needs none.
//
// A shared implementation must provide: every event published reaches
// every subscriber of every replica, the publisher's own included, at
// least once (subscribers tolerate repeats and check the store for the
// truth); events made only of strings and bytes; Publish returning once
// the event is accepted for delivery, without waiting for the
// subscribers of other replicas.
// An event lost despite this costs time, never data: the server also
// polls its [TaskStore] every TaskLease.
//
// The suite [github.com/mcpgen/mcpgen/runtime/mcpstore/storetest.Bus]
// checks each clause but Publish's wait, which only a load shows.
type Bus interface {
	Publish(ctx context.Context, e BusEvent) error
	// Subscribe calls fn with every event published from now on, until
	// stop is called. fn must not block: it hands work to goroutines.
	Subscribe(fn func(BusEvent)) (stop func(), err error)
}

// BusKind says what a [BusEvent] is about.
type BusKind string

// The kinds of bus events.
const (
	// BusTaskChanged: the stored task ID changed (status, answers posted
	// for its handler). Its runner applies what concerns it; replicas
	// waiting for its end look again.
	BusTaskChanged BusKind = "task"
	// BusNotify: send the notification ID, without params, as this
	// replica's broadcast does (the list_changed notifications).
	BusNotify BusKind = "notify"
	// BusResourceUpdated: the resource of URI ID changed.
	BusResourceUpdated BusKind = "resource"
	// BusReply: Data is a client's response, received for Session, to a
	// request that replica Target sent.
	BusReply BusKind = "reply"
	// BusCancel: the client of Session cancelled its request of JSON id
	// Data (notifications/cancelled), whichever replica serves it.
	BusCancel BusKind = "cancel"
	// BusTaskStatus: Data is the notifications/tasks/status of task ID
	// for the 2025-11-25 session whose tasks belong to Owner, from a
	// replica without that session's stream (the runner, or the reaper
	// that failed the task); the replica holding the stream sends it.
	BusTaskStatus BusKind = "status"
	// BusStreamTaken: a replica opened the GET stream of Session; the
	// others stop writing the session's messages to its event log, which
	// they did while it had no stream so that nothing would be lost.
	BusStreamTaken BusKind = "stream"
	// BusTaskMessage: Data is a message of task ID's handler for its
	// 2025-11-25 client (a question, a log message) that its runner has
	// no stream for; a replica where the client waits in tasks/result for
	// the task sends it there.
	BusTaskMessage BusKind = "message"
	// BusTaskWaiting: a client waits in tasks/result for task ID on the
	// publisher; the runner publishes the messages it holds for the
	// client (BusTaskMessage) and forgets them, as it hands them to a
	// tasks/result of its own.
	BusTaskWaiting BusKind = "waiting"
)

// BusEvent is one event on a [Bus].
type BusEvent struct {
	Kind    BusKind
	Origin  string // the ReplicaID of the publisher
	Target  string // the ReplicaID it is for; "": every one
	ID      string // what the event is about: a task, a method, a URI
	Session string // the Mcp-Session-Id it concerns, if any
	Owner   string // the owner of the task it concerns (BusTaskStatus)
	Data    []byte
}

// MemoryBus is the in-process [Bus]: Publish calls every subscriber, in
// the publisher's goroutine.
type MemoryBus struct {
	mu   sync.Mutex
	subs map[*func(BusEvent)]struct{}
}

// Publish implements [Bus].
func (b *MemoryBus) Publish(_ context.Context, e BusEvent) error {
	b.mu.Lock()
	fns := make([]func(BusEvent), 0, len(b.subs))
	for fn := range b.subs {
		fns = append(fns, *fn)
	}
	b.mu.Unlock()
	for _, fn := range fns {
		fn(e)
	}
	return nil
}

// Subscribe implements [Bus].
func (b *MemoryBus) Subscribe(fn func(BusEvent)) (func(), error) {
	key := &fn
	b.mu.Lock()
	if b.subs == nil {
		b.subs = make(map[*func(BusEvent)]struct{})
	}
	b.subs[key] = struct{}{}
	b.mu.Unlock()
	return func() {
		b.mu.Lock()
		delete(b.subs, key)
		b.mu.Unlock()
	}, nil
}
