package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// EventLog checks an event log against the contract of
// [mcpstore.EventLog], one subtest per clause:
//
//   - ids name their stream and differ
//   - an id of one session is unknown in another
//   - bad ids are refused
//   - follow replays what followed then follows live
//   - an ended stream ends its followers
//   - follow stops when its context ends
//   - follow stops with the error of its function
//   - closing a session ends its followers and forgets its events
//   - a stream keeps a bounded number of events
//   - hold lapses leaves will
//   - a waiting follower gets the will at the lapse
//   - renewed hold does not lapse
//   - ended stream never lapses
//   - stream never held never lapses
//   - each hold sets the will
//   - empty will ends the stream without an event
//
// The bound is checked by appending 4 × [mcpstore.DefaultEventLogSize]
// events to a stream: its first must then be forgotten.
func EventLog(t *testing.T, newLog func(t *testing.T) mcpstore.EventLog) {
	t.Helper()
	run(t, newLog, []clause[mcpstore.EventLog]{
		{"ids name their stream and differ", idsNameStream},
		{"an id of one session is unknown in another", idsOfSession},
		{"bad ids are refused", badIDsRefused},
		{"follow replays what followed then follows live", followReplays},
		{"an ended stream ends its followers", endedStreamEnds},
		{"follow stops when its context ends", followStopsWithContext},
		{"follow stops with the error of its function", followStopsWithFn},
		{"closing a session ends its followers and forgets its events", closeEnds},
		{"a stream keeps a bounded number of events", streamBounded},
		{"hold lapses leaves will", holdLapses},
		{"a waiting follower gets the will at the lapse", waitingFollowerGetsWill},
		{"renewed hold does not lapse", renewedHold},
		{"ended stream never lapses", endedNeverLapses},
		{"stream never held never lapses", neverHeld},
		{"each hold sets the will", eachHoldSetsWill},
		{"empty will ends the stream without an event", emptyWill},
	})
}

type logEnv = env[mcpstore.EventLog]

// ttl is the hold of the suite's held streams.
const ttl = time.Minute

// will is the answer that stands for one never written.
const will = `{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"stopped"}}`

func appendEvent(t *testing.T, l mcpstore.EventLog, session, stream, data string) string {
	t.Helper()
	var b []byte
	if data != "" {
		b = []byte(data)
	}
	id, err := l.Append(context.Background(), session, stream, b)
	if err != nil {
		t.Fatalf("Append to %s: %v", stream, err)
	}
	return id
}

func hold(t *testing.T, l mcpstore.EventLog, session, stream string, will []byte) {
	t.Helper()
	if err := l.Hold(context.Background(), session, stream, ttl, will); err != nil {
		t.Fatalf("Hold of %s: %v", stream, err)
	}
}

func endStream(t *testing.T, l mcpstore.EventLog, session, stream string) {
	t.Helper()
	if err := l.End(context.Background(), session, stream); err != nil {
		t.Fatalf("End of %s: %v", stream, err)
	}
}

// event is one event a follower got.
type event struct{ id, data string }

// follower is a Follow running in the background.
type follower struct {
	events chan event
	done   chan error
	stop   context.CancelFunc
}

// follow follows stream after the event after until the stream ends, or
// the test does.
func follow(t *testing.T, l mcpstore.EventLog, session, stream, after string) *follower {
	ctx, stop := context.WithCancel(t.Context())
	f := &follower{events: make(chan event, 64), done: make(chan error, 1), stop: stop}
	go func() {
		f.done <- l.Follow(ctx, session, stream, after, func(id string, data []byte) error {
			select {
			case f.events <- event{id, string(data)}:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
		close(f.events)
	}()
	return f
}

// next returns the follower's next event.
func (f *follower) next(t *testing.T) event {
	t.Helper()
	var e event
	var ok bool
	select {
	case e, ok = <-f.events:
	case <-time.After(wait):
		t.Fatalf("no event after %v", wait)
	}
	if !ok {
		t.Fatalf("the follower stopped (%v), want an event", <-f.done)
	}
	return e
}

// rest returns the data of the follower's events until Follow returns
// nil, failing t when it returns an error or does not return.
func (f *follower) rest(t *testing.T) []string {
	t.Helper()
	var got []string
	for {
		select {
		case e, ok := <-f.events:
			if !ok {
				if err := <-f.done; err != nil {
					t.Errorf("Follow returned %v, want nil at the end", err)
				}
				return got
			}
			got = append(got, e.data)
		case <-time.After(wait):
			t.Fatalf("the follower did not stop after %v; got %q", wait, got)
		}
	}
}

// bounded returns a context that ends after the suite's wait, so that a
// Follow that should return at once fails the test rather than hang.
func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	t.Cleanup(cancel)
	return ctx
}

// readAll follows stream after the event after to its end.
func readAll(t *testing.T, l mcpstore.EventLog, session, stream, after string) []string {
	t.Helper()
	return follow(t, l, session, stream, after).rest(t)
}

// idsNameStream: an event's id is its stream, "/" and a position; ids
// differ along a stream and between the streams of a session, priming
// events (empty data) included.
func idsNameStream(t *testing.T, e *logEnv) {
	seen := map[string]bool{}
	for _, stream := range []string{"g", "p1", "p2"} {
		for _, data := range []string{"", "one", "two"} {
			id := appendEvent(t, e.s, "S1", stream, data)
			if name, ok := mcpstore.StreamOf(id); !ok || name != stream {
				t.Errorf("id %q of stream %s names stream %q (%v)", id, stream, name, ok)
			}
			if seen[id] {
				t.Errorf("id %q given twice", id)
			}
			seen[id] = true
		}
	}
}

// idsOfSession: Check and Follow refuse with ErrUnknownEvent an id of
// another session's stream of the same name.
func idsOfSession(t *testing.T, e *logEnv) {
	ctx := bounded(t)
	id := appendEvent(t, e.s, "S1", "g", "")
	appendEvent(t, e.s, "S2", "g", "")
	if err := e.r.Check(ctx, "S2", "g", id); !errors.Is(err, mcpstore.ErrUnknownEvent) {
		t.Errorf("Check in another session: %v, want ErrUnknownEvent", err)
	}
	if err := e.r.Follow(ctx, "S2", "g", id, func(string, []byte) error { return nil }); !errors.Is(err, mcpstore.ErrUnknownEvent) {
		t.Errorf("Follow in another session: %v, want ErrUnknownEvent", err)
	}
}

// badIDsRefused: Check and Follow refuse with ErrUnknownEvent an id that
// is not one of the stream's events, and accept one that is.
func badIDsRefused(t *testing.T, e *logEnv) {
	ctx := bounded(t)
	id := appendEvent(t, e.s, "S1", "p1", "")
	appendEvent(t, e.s, "S1", "p2", "")
	_, pos, _ := strings.Cut(id, "/")
	if err := e.r.Check(ctx, "S1", "p1", id); err != nil {
		t.Errorf("Check of an event of the stream: %v", err)
	}
	for _, bad := range []string{"", "p1", "p1/", "p2/" + pos, id + "/1", "p1/x", "p1/" + pos + "x"} {
		if err := e.r.Check(ctx, "S1", "p1", bad); !errors.Is(err, mcpstore.ErrUnknownEvent) {
			t.Errorf("Check(%q): %v, want ErrUnknownEvent", bad, err)
		}
		if err := e.r.Follow(ctx, "S1", "p1", bad, func(string, []byte) error { return nil }); !errors.Is(err, mcpstore.ErrUnknownEvent) {
			t.Errorf("Follow(%q): %v, want ErrUnknownEvent", bad, err)
		}
	}
}

// followReplays: a follower on any replica gets the events that followed
// the id it starts after, once each and in order with their ids, then
// the events appended since, live.
func followReplays(t *testing.T, e *logEnv) {
	prime := appendEvent(t, e.s, "S1", "p1", "")
	one := appendEvent(t, e.s, "S1", "p1", "one")
	two := appendEvent(t, e.s, "S1", "p1", "two")
	f := follow(t, e.r, "S1", "p1", prime)
	for _, want := range []event{{one, "one"}, {two, "two"}} {
		if got := f.next(t); got != want {
			t.Errorf("replayed %+v, want %+v", got, want)
		}
	}
	three := appendEvent(t, e.s, "S1", "p1", "three")
	if got := f.next(t); got != (event{three, "three"}) {
		t.Errorf("live %+v, want %+v", got, event{three, "three"})
	}
	endStream(t, e.s, "S1", "p1")
	if rest := f.rest(t); rest != nil {
		t.Errorf("after the end: %q", rest)
	}
	if got := readAll(t, e.r, "S1", "p1", one); !slices.Equal(got, []string{"two", "three"}) {
		t.Errorf("resumed after the first = %q, want [two three]", got)
	}
}

// endedStreamEnds: End stops the followers of a stream on every replica
// after its last event; a follower that comes later reads to the end and
// stops.
func endedStreamEnds(t *testing.T, e *logEnv) {
	prime := appendEvent(t, e.s, "S1", "p1", "")
	f := follow(t, e.r, "S1", "p1", prime)
	appendEvent(t, e.s, "S1", "p1", "answer")
	if got := f.next(t); got.data != "answer" {
		t.Errorf("event %+v, want the answer", got)
	}
	endStream(t, e.s, "S1", "p1")
	if rest := f.rest(t); rest != nil {
		t.Errorf("after the end: %q", rest)
	}
	if got := readAll(t, e.r, "S1", "p1", prime); !slices.Equal(got, []string{"answer"}) {
		t.Errorf("followed after the end = %q, want [answer]", got)
	}
}

// followStopsWithContext: Follow returns its context's error when it
// ends.
func followStopsWithContext(t *testing.T, e *logEnv) {
	prime := appendEvent(t, e.s, "S1", "g", "")
	f := follow(t, e.r, "S1", "g", prime)
	appendEvent(t, e.s, "S1", "g", "x")
	f.next(t)
	f.stop()
	if err := within(t, f.done, "Follow after its context ended"); !errors.Is(err, context.Canceled) {
		t.Errorf("Follow returned %v, want context.Canceled", err)
	}
}

// followStopsWithFn: Follow returns the error of its function, and calls
// it no more.
func followStopsWithFn(t *testing.T, e *logEnv) {
	prime := appendEvent(t, e.s, "S1", "g", "")
	appendEvent(t, e.s, "S1", "g", "x")
	appendEvent(t, e.s, "S1", "g", "y")
	stop := errors.New("enough")
	calls := 0
	err := e.r.Follow(bounded(t), "S1", "g", prime, func(string, []byte) error {
		calls++
		return stop
	})
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("Follow returned %v after %d calls, want its function's error after 1", err, calls)
	}
}

// closeEnds: Close stops the session's followers on every replica; its
// events are forgotten, within a minute.
func closeEnds(t *testing.T, e *logEnv) {
	prime := appendEvent(t, e.s, "S1", "g", "")
	other := appendEvent(t, e.s, "S2", "g", "")
	f := follow(t, e.r, "S1", "g", prime)
	appendEvent(t, e.s, "S1", "g", "x")
	f.next(t)
	if err := e.s.Close(context.Background(), "S1"); err != nil {
		t.Fatal(err)
	}
	if rest := f.rest(t); rest != nil {
		t.Errorf("after Close: %q", rest)
	}
	e.clock.Advance(time.Minute + time.Second)
	if err := e.r.Check(context.Background(), "S1", "g", prime); !errors.Is(err, mcpstore.ErrUnknownEvent) {
		t.Errorf("Check of a closed session's event: %v, want ErrUnknownEvent", err)
	}
	if err := e.r.Check(context.Background(), "S2", "g", other); err != nil {
		t.Errorf("Check of another session's event after Close: %v", err)
	}
}

// streamBounded: a stream keeps a bounded number of events, so that its
// first is forgotten after many more; the events after a kept one are
// all replayed.
func streamBounded(t *testing.T, e *logEnv) {
	ctx := context.Background()
	first := appendEvent(t, e.s, "S1", "g", "")
	n := 4 * mcpstore.DefaultEventLogSize
	var last []string
	for i := range n {
		id := appendEvent(t, e.s, "S1", "g", fmt.Sprint(i))
		if i >= n-3 {
			last = append(last, id)
		}
	}
	if err := e.r.Check(ctx, "S1", "g", first); !errors.Is(err, mcpstore.ErrUnknownEvent) {
		t.Errorf("Check of the first of %d events: %v, want ErrUnknownEvent", n+1, err)
	}
	endStream(t, e.s, "S1", "g")
	if got := readAll(t, e.r, "S1", "g", last[0]); !slices.Equal(got, []string{fmt.Sprint(n - 2), fmt.Sprint(n - 1)}) {
		t.Errorf("after a kept event = %q, want the two after it", got)
	}
}

// holdLapses: when a held stream's hold lapses before End, as when its
// writer died, the first to follow it appends the will, once, and ends
// it; every follower gets the will, then the end.
func holdLapses(t *testing.T, e *logEnv) {
	prime := appendEvent(t, e.s, "S1", "p1", "")
	appendEvent(t, e.s, "S1", "p1", "one")
	hold(t, e.s, "S1", "p1", []byte(will))
	e.clock.Advance(2 * ttl)
	for i := range 2 {
		if got := readAll(t, e.r, "S1", "p1", prime); !slices.Equal(got, []string{"one", will}) {
			t.Errorf("follower %d after the lapse = %q, want one and the will once", i+1, got)
		}
	}
}

// waitingFollowerGetsWill: a follower waiting on a held stream when its
// hold lapses gets the will, then the end, without another event.
func waitingFollowerGetsWill(t *testing.T, e *logEnv) {
	prime := appendEvent(t, e.s, "S1", "p1", "")
	appendEvent(t, e.s, "S1", "p1", "one")
	hold(t, e.s, "S1", "p1", []byte(will))
	f := follow(t, e.r, "S1", "p1", prime)
	if got := f.next(t); got.data != "one" {
		t.Fatalf("event %+v, want one", got)
	}
	e.clock.Advance(2 * ttl)
	if got := f.rest(t); !slices.Equal(got, []string{will}) {
		t.Errorf("the waiting follower got %q, want the will", got)
	}
}

// renewedHold: a hold renewed before it lapses does not lapse.
func renewedHold(t *testing.T, e *logEnv) {
	prime := appendEvent(t, e.s, "S1", "p1", "")
	hold(t, e.s, "S1", "p1", []byte(will))
	f := follow(t, e.r, "S1", "p1", prime)
	e.clock.Advance(ttl * 3 / 4)
	hold(t, e.s, "S1", "p1", []byte(will))
	e.clock.Advance(ttl * 3 / 4)
	appendEvent(t, e.s, "S1", "p1", "answer")
	endStream(t, e.s, "S1", "p1")
	if got := f.rest(t); !slices.Equal(got, []string{"answer"}) {
		t.Errorf("a renewed stream = %q, want its answer only", got)
	}
	if got := readAll(t, e.r, "S1", "p1", prime); !slices.Equal(got, []string{"answer"}) {
		t.Errorf("a renewed stream, followed after its end = %q, want its answer only", got)
	}
}

// endedNeverLapses: a held stream that End ended never gets its will,
// even when a renewal comes after the end.
func endedNeverLapses(t *testing.T, e *logEnv) {
	prime := appendEvent(t, e.s, "S1", "p1", "")
	hold(t, e.s, "S1", "p1", []byte(will))
	appendEvent(t, e.s, "S1", "p1", "answer")
	endStream(t, e.s, "S1", "p1")
	hold(t, e.s, "S1", "p1", []byte(will)) // a renewal that lands after the end
	e.clock.Advance(2 * ttl)
	for i := range 2 {
		if got := readAll(t, e.r, "S1", "p1", prime); !slices.Equal(got, []string{"answer"}) {
			t.Errorf("follower %d of a stream ended by its writer = %q, want its answer only", i+1, got)
		}
	}
}

// neverHeld: a stream never held never lapses, however long it waits.
func neverHeld(t *testing.T, e *logEnv) {
	prime := appendEvent(t, e.s, "S1", "g", "")
	f := follow(t, e.r, "S1", "g", prime)
	e.clock.Advance(2 * ttl)
	late := follow(t, e.r, "S1", "g", prime)
	e.clock.Advance(2 * ttl)
	appendEvent(t, e.s, "S1", "g", "x")
	endStream(t, e.s, "S1", "g")
	for i, f := range []*follower{f, late} {
		if got := f.rest(t); !slices.Equal(got, []string{"x"}) {
			t.Errorf("follower %d of a stream never held = %q, want x only", i+1, got)
		}
	}
}

// eachHoldSetsWill: the will of a lapsed stream is the last Hold's.
func eachHoldSetsWill(t *testing.T, e *logEnv) {
	prime := appendEvent(t, e.s, "S1", "p1", "")
	hold(t, e.s, "S1", "p1", []byte(`"first"`))
	hold(t, e.s, "S1", "p1", []byte(will))
	e.clock.Advance(2 * ttl)
	if got := readAll(t, e.r, "S1", "p1", prime); !slices.Equal(got, []string{will}) {
		t.Errorf("after the lapse = %q, want the last will", got)
	}
}

// emptyWill: a stream held with an empty will ends at its lapse with no
// event.
func emptyWill(t *testing.T, e *logEnv) {
	prime := appendEvent(t, e.s, "S1", "p1", "")
	hold(t, e.s, "S1", "p1", nil)
	e.clock.Advance(2 * ttl)
	if got := readAll(t, e.r, "S1", "p1", prime); got != nil {
		t.Errorf("after the lapse = %q, want the end only", got)
	}
}
