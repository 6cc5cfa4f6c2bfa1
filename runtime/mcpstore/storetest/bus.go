package storetest

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// Bus checks a bus against the contract of [mcpstore.Bus], one subtest
// per clause:
//
//   - every subscriber gets every event
//   - events arrive with every field
//   - a subscriber gets only what follows its subscribe
//   - a stopped subscriber gets no more
//
// A bus delivers each event at least once: the suite accepts repeats.
func Bus(t *testing.T, newBus func(t *testing.T) mcpstore.Bus) {
	t.Helper()
	run(t, newBus, []clause[mcpstore.Bus]{
		{"every subscriber gets every event", everySubscriberGetsEvery},
		{"events arrive with every field", eventsKeepFields},
		{"a subscriber gets only what follows its subscribe", onlyWhatFollows},
		{"a stopped subscriber gets no more", stoppedGetsNoMore},
	})
}

type busEnv = env[mcpstore.Bus]

// inbox keeps the events one subscriber got.
type inbox struct {
	mu      sync.Mutex
	got     []mcpstore.BusEvent
	changed chan struct{} // closed and replaced at each event
	stop    func()
}

// subscribe subscribes an inbox to b until the test ends.
func subscribe(t *testing.T, b mcpstore.Bus) *inbox {
	t.Helper()
	in := &inbox{changed: make(chan struct{})}
	stop, err := b.Subscribe(func(e mcpstore.BusEvent) {
		in.mu.Lock()
		in.got = append(in.got, e)
		close(in.changed)
		in.changed = make(chan struct{})
		in.mu.Unlock()
	})
	if err != nil {
		t.Fatalf("Subscribe: %v", err)
	}
	in.stop = stop
	t.Cleanup(stop)
	return in
}

// ids returns the ids of the events the inbox got, in order.
func (in *inbox) ids() []string {
	in.mu.Lock()
	defer in.mu.Unlock()
	var ids []string
	for _, e := range in.got {
		ids = append(ids, e.ID)
	}
	return ids
}

// await waits until the inbox got an event of each id, and returns the
// first of each; it fails t after the suite's wait.
func (in *inbox) await(t *testing.T, name string, ids ...string) map[string]mcpstore.BusEvent {
	t.Helper()
	deadline := time.After(wait)
	for {
		in.mu.Lock()
		found, changed := map[string]mcpstore.BusEvent{}, in.changed
		for _, e := range in.got {
			if _, ok := found[e.ID]; !ok {
				found[e.ID] = e
			}
		}
		in.mu.Unlock()
		missing := false
		for _, id := range ids {
			if _, ok := found[id]; !ok {
				missing = true
			}
		}
		if !missing {
			return found
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("subscriber %s got %v after %v, want %v", name, in.ids(), wait, ids)
		}
	}
}

func publish(t *testing.T, b mcpstore.Bus, e mcpstore.BusEvent) {
	t.Helper()
	if err := b.Publish(context.Background(), e); err != nil {
		t.Fatalf("Publish(%s): %v", e.ID, err)
	}
}

// everySubscriberGetsEvery: an event published on any replica reaches
// every subscriber of every replica, the publisher's own included.
func everySubscriberGetsEvery(t *testing.T, e *busEnv) {
	subs := map[string]*inbox{"a": subscribe(t, e.s), "b": subscribe(t, e.r), "c": subscribe(t, e.r)}
	publish(t, e.s, mcpstore.BusEvent{Kind: mcpstore.BusTaskChanged, ID: "e1"})
	publish(t, e.r, mcpstore.BusEvent{Kind: mcpstore.BusNotify, ID: "e2"})
	for name, in := range subs {
		in.await(t, name, "e1", "e2")
	}
}

// eventsKeepFields: an event arrives on every replica with each field as
// published, its data as bytes.
func eventsKeepFields(t *testing.T, e *busEnv) {
	here, there := subscribe(t, e.s), subscribe(t, e.r)
	want := mcpstore.BusEvent{Kind: mcpstore.BusReply, Origin: "r1", Target: "r2", ID: "e1",
		Session: "S1", Owner: "S1.p", Data: []byte("{\"id\":1}\x00\xff")}
	publish(t, e.s, want)
	for name, in := range map[string]*inbox{"on the publisher": here, "on the replica": there} {
		got := in.await(t, name, "e1")["e1"]
		if got.Kind != want.Kind || got.Origin != want.Origin || got.Target != want.Target || got.Session != want.Session ||
			got.Owner != want.Owner || !bytes.Equal(got.Data, want.Data) {
			t.Errorf("the event %s: %+v, want %+v", name, got, want)
		}
	}
}

// onlyWhatFollows: a subscriber gets the events published after its
// Subscribe, and none before.
func onlyWhatFollows(t *testing.T, e *busEnv) {
	early := subscribe(t, e.s)
	publish(t, e.s, mcpstore.BusEvent{Kind: mcpstore.BusNotify, ID: "before"})
	early.await(t, "subscribed first", "before")
	late := subscribe(t, e.r)
	publish(t, e.s, mcpstore.BusEvent{Kind: mcpstore.BusNotify, ID: "after"})
	late.await(t, "subscribed later", "after")
	for _, id := range late.ids() {
		if id == "before" {
			t.Errorf("a subscriber got %v, an event published before it subscribed", late.ids())
		}
	}
}

// stoppedGetsNoMore: after its stop, a subscriber gets no event
// published later, while others on its replica still do.
func stoppedGetsNoMore(t *testing.T, e *busEnv) {
	stopped, going := subscribe(t, e.r), subscribe(t, e.r)
	publish(t, e.s, mcpstore.BusEvent{Kind: mcpstore.BusNotify, ID: "e1"})
	stopped.await(t, "to be stopped", "e1")
	stopped.stop()
	for i := range 3 {
		publish(t, e.s, mcpstore.BusEvent{Kind: mcpstore.BusNotify, ID: fmt.Sprint("later", i)})
	}
	going.await(t, "still subscribed", "e1", "later0", "later1", "later2")
	for _, id := range stopped.ids() {
		if id != "e1" {
			t.Errorf("a stopped subscriber got %v, want e1 only", stopped.ids())
			break
		}
	}
}
