package mcpstore

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestMemoryEventLogBound checks that the log keeps MaxEvents per stream:
// a reader whose last event is still kept, or was the last dropped, gets
// every later event; an older one gets ErrUnknownEvent. Ended streams
// beyond the per-session limit are forgotten, oldest first.
func TestMemoryEventLogBound(t *testing.T) {
	ctx := context.Background()
	l := &MemoryEventLog{MaxEvents: 3}
	var ids []string
	for i := range 5 {
		id, err := l.Append(ctx, "s", "p1", []byte(strconv.Itoa(i)))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	l.End(ctx, "s", "p1")
	read := func(after string) (string, error) {
		var got string
		err := l.Follow(ctx, "s", "p1", after, func(id string, data []byte) error {
			got += string(data)
			return nil
		})
		return got, err
	}
	if got, err := read(ids[1]); err != nil || got != "234" {
		t.Errorf("after the last dropped event: %q, %v; want 234", got, err)
	}
	if got, err := read(ids[3]); err != nil || got != "4" {
		t.Errorf("after a kept event: %q, %v; want 4", got, err)
	}
	if _, err := read(ids[0]); !errors.Is(err, ErrUnknownEvent) {
		t.Errorf("after an event long dropped: %v, want ErrUnknownEvent", err)
	}
	if err := l.Check(ctx, "other", "p1", ids[3]); !errors.Is(err, ErrUnknownEvent) {
		t.Errorf("another session's id: %v, want ErrUnknownEvent", err)
	}
	for n := 2; n <= maxEndedStreams+1; n++ {
		stream := "p" + strconv.Itoa(n)
		l.Append(ctx, "s", stream, []byte("x"))
		l.End(ctx, "s", stream)
	}
	if err := l.Check(ctx, "s", "p1", ids[3]); !errors.Is(err, ErrUnknownEvent) {
		t.Errorf("the oldest ended stream beyond the limit: %v, want ErrUnknownEvent", err)
	}
	l.Close(ctx, "s")
	if len(l.sessions) != 0 {
		t.Errorf("Close kept %d sessions", len(l.sessions))
	}
}

// follow runs l.Follow in the background, sending each event's data to
// the channel it returns, closed when Follow returns; its error goes to
// errc.
func follow(l EventLog, session, stream, after string) (<-chan string, <-chan error) {
	out, errc := make(chan string, 16), make(chan error, 1)
	go func() {
		errc <- l.Follow(context.Background(), session, stream, after, func(_ string, data []byte) error {
			out <- string(data)
			return nil
		})
		close(out)
	}()
	return out, errc
}

// drain returns the events of out until it closes, and Follow's error.
func drain(t *testing.T, out <-chan string, errc <-chan error) ([]string, error) {
	t.Helper()
	var got []string
	for {
		select {
		case e, ok := <-out:
			if !ok {
				return got, <-errc
			}
			got = append(got, e)
		case <-time.After(timeout):
			t.Fatalf("the follower did not stop; got %q", got)
		}
	}
}

// TestMemoryEventLogHold: a held stream whose writer stops renewing ends
// with its will, once, for a follower waiting before the lapse and for
// one that comes after, even when none looked at the lapse; a held
// stream ended normally, or renewed, never gets its will; a stream never
// held never lapses.
func TestMemoryEventLogHold(t *testing.T) {
	ctx := context.Background()
	l := &MemoryEventLog{}
	const will = `{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"stopped"}}`
	prime, _ := l.Append(ctx, "s", "p1", nil)
	l.Append(ctx, "s", "p1", []byte("one"))
	g, _ := l.Append(ctx, "s", "g", nil)
	gout, gerr := follow(l, "s", "g", g)
	out, errc := follow(l, "s", "p1", prime)
	select {
	case e := <-out:
		if e != "one" {
			t.Fatalf("first event %q", e)
		}
	case <-time.After(timeout):
		t.Fatal("no first event")
	}
	// The follower waits already when the hold begins, and the writer
	// never renews it.
	if err := l.Hold(ctx, "s", "p1", 20*time.Millisecond, []byte(will)); err != nil {
		t.Fatal(err)
	}
	if got, err := drain(t, out, errc); err != nil || !slices.Equal(got, []string{will}) {
		t.Errorf("after the lapse: %q, %v; want the will, then the end", got, err)
	}
	late, lerr := follow(l, "s", "p1", prime)
	if got, err := drain(t, late, lerr); err != nil || !slices.Equal(got, []string{"one", will}) {
		t.Errorf("resumed after the lapse: %q, %v; want one and the will once", got, err)
	}

	// Lapsed before any follower looked.
	first, _ := l.Append(ctx, "s", "p4", nil)
	l.Hold(ctx, "s", "p4", time.Nanosecond, []byte(will))
	out, errc = follow(l, "s", "p4", first)
	if got, err := drain(t, out, errc); err != nil || !slices.Equal(got, []string{will}) {
		t.Errorf("first followed after the lapse: %q, %v; want the will", got, err)
	}

	// Ended before any follower looked, though its hold lapsed.
	first, _ = l.Append(ctx, "s", "p2", nil)
	l.Hold(ctx, "s", "p2", time.Nanosecond, []byte(will))
	l.Append(ctx, "s", "p2", []byte("answer"))
	l.End(ctx, "s", "p2")
	out, errc = follow(l, "s", "p2", first)
	if got, err := drain(t, out, errc); err != nil || !slices.Equal(got, []string{"answer"}) {
		t.Errorf("a stream ended by its writer: %q, %v; want its answer only", got, err)
	}

	// Renewed before it lapsed, then ended while followed.
	first, _ = l.Append(ctx, "s", "p3", nil)
	l.Hold(ctx, "s", "p3", time.Nanosecond, []byte(will))
	l.Hold(ctx, "s", "p3", time.Hour, []byte(will))
	out, errc = follow(l, "s", "p3", first)
	l.Append(ctx, "s", "p3", []byte("answer"))
	l.End(ctx, "s", "p3")
	if got, err := drain(t, out, errc); err != nil || !slices.Equal(got, []string{"answer"}) {
		t.Errorf("a renewed stream: %q, %v; want its answer only", got, err)
	}

	// The GET stream was followed all along, past every lapse.
	l.Append(ctx, "s", "g", []byte("x"))
	l.End(ctx, "s", "g")
	if got, err := drain(t, gout, gerr); err != nil || !slices.Equal(got, []string{"x"}) {
		t.Errorf("the stream never held: %q, %v; want x only", got, err)
	}
}

// timeout bounds every wait of these tests; nothing takes so long when
// the log works.
const timeout = 5 * time.Second
