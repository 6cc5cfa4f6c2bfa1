package mcpredis

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// until returns the events of a follower from collect until it stops,
// without their ids, failing when it does not stop.
func until(t *testing.T, out <-chan string, errc <-chan error) []string {
	t.Helper()
	var got []string
	for {
		select {
		case e, ok := <-out:
			if !ok {
				if err := <-errc; err != nil {
					t.Errorf("follow: %v", err)
				}
				return got
			}
			_, data, _ := strings.Cut(e, " ")
			got = append(got, data)
		case <-time.After(10 * time.Second):
			t.Fatalf("the follower did not stop; got %q", got)
		}
	}
}

// readAll follows stream from after to its end and returns its events.
func readAll(t *testing.T, l *EventLog, session, stream, after string) []string {
	t.Helper()
	out, errc := collect(l, context.Background(), session, stream, after)
	return until(t, out, errc)
}

// TestEventLogHold: when the writer of a held stream stops renewing it,
// followers on two other replicas both get its will, appended once, then
// the end, and so does a client resuming after the lapse, whether or not
// another follower saw the lapse first; a held stream ended by its
// writer, or renewed in time, never gets its will; a stream never held
// never lapses.
func TestEventLogHold(t *testing.T) {
	b1, mr := backend(t)
	b2, b3 := open(t, mr), open(t, mr)
	b1.Events.idle, b2.Events.idle, b3.Events.idle = time.Hour, time.Hour, time.Hour
	ctx := context.Background()
	const will = `{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"stopped"}}`
	const ttl = 2 * time.Second
	prime, _ := b1.Events.Append(ctx, "S1", "p1", nil)
	b1.Events.Append(ctx, "S1", "p1", []byte("one"))
	if err := b1.Events.Hold(ctx, "S1", "p1", ttl, []byte(will)); err != nil {
		t.Fatal(err)
	}
	first3, _ := b1.Events.Append(ctx, "S1", "p3", nil)
	b1.Events.Hold(ctx, "S1", "p3", ttl, []byte(will))
	first4, _ := b1.Events.Append(ctx, "S1", "p4", nil)
	b1.Events.Hold(ctx, "S1", "p4", ttl, []byte(will)) // followed only after its lapse
	g, _ := b1.Events.Append(ctx, "S1", "g", nil)
	out2, errc2 := collect(b2.Events, ctx, "S1", "p1", prime)
	out3, errc3 := collect(b3.Events, ctx, "S1", "p1", prime)
	outp3, errcp3 := collect(b2.Events, ctx, "S1", "p3", first3)
	outg, errcg := collect(b3.Events, ctx, "S1", "g", g)
	next(t, out2)
	next(t, out3)

	mr.FastForward(ttl * 3 / 4)
	b1.Events.Hold(ctx, "S1", "p3", ttl, []byte(will)) // p3 is renewed, p1 is not
	mr.FastForward(ttl * 3 / 4)
	for i, got := range [][]string{until(t, out2, errc2), until(t, out3, errc3)} {
		if !slices.Equal(got, []string{will}) {
			t.Errorf("follower %d after the lapse: %q, want the will then the end", i+2, got)
		}
	}
	entries, err := b1.client.Do(ctx, b1.client.B().Xrange().Key(b1.streamKey("S1", "p1")).Start("-").End("+").Build()).AsXRange()
	if err != nil {
		t.Fatal(err)
	}
	wills := 0
	for _, e := range entries {
		if e.FieldValues[eData] == will {
			wills++
		}
	}
	if wills != 1 {
		t.Errorf("the will appended %d times, want once", wills)
	}
	if got := readAll(t, b1.Events, "S1", "p1", prime); !slices.Equal(got, []string{"one", will}) {
		t.Errorf("resumed after the lapse: %q, want one and the will", got)
	}
	if got := readAll(t, b3.Events, "S1", "p4", first4); !slices.Equal(got, []string{will}) {
		t.Errorf("first followed after its lapse: %q, want the will", got)
	}

	// p3 and g were followed past a lapse check (XREAD blocks a second).
	time.Sleep(followBlock + followBlock/4)
	for _, s := range []string{"p3", "g"} {
		b1.Events.Append(ctx, "S1", s, []byte("answer"))
		b1.Events.End(ctx, "S1", s)
	}
	if got := until(t, outp3, errcp3); !slices.Equal(got, []string{"answer"}) {
		t.Errorf("a renewed stream: %q, want its answer only", got)
	}
	if got := until(t, outg, errcg); !slices.Equal(got, []string{"answer"}) {
		t.Errorf("a stream never held: %q, want its answer only", got)
	}

	// Ended by its writer: the hold and the will go with the end.
	first2, _ := b1.Events.Append(ctx, "S1", "p2", nil)
	b1.Events.Hold(ctx, "S1", "p2", ttl, []byte(will))
	b1.Events.Append(ctx, "S1", "p2", []byte("answer"))
	if err := b1.Events.End(ctx, "S1", "p2"); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{b1.holdKey("S1", "p2"), b1.willKey("S1", "p2")} {
		if mr.Exists(key) {
			t.Errorf("%s is kept after the end", key)
		}
	}
	// A renewal that lands after the end, then lapses, changes nothing
	// for a follower that looked just before the end.
	b1.Events.Hold(ctx, "S1", "p2", ttl, []byte(will))
	mr.FastForward(2 * ttl)
	if live, err := b2.Events.lapse(ctx, "S1", "p2"); !live || err != nil {
		t.Errorf("lapse of an ended stream: %v, %v", live, err)
	}
	if got := readAll(t, b2.Events, "S1", "p2", first2); !slices.Equal(got, []string{"answer"}) {
		t.Errorf("a stream ended by its writer: %q, want its answer only", got)
	}
	if n, _ := b1.client.Do(ctx, b1.client.B().Xlen().Key(b1.streamKey("S1", "p2")).Build()).AsInt64(); n != 3 {
		t.Errorf("the ended stream has %d entries, want 3: priming, answer, end", n)
	}
}

// TestEventIDsOfSession: two sessions' streams of one name, appended to
// in the same millisecond, give each event an id the other session does
// not know, though Redis gives their entries the same ids.
func TestEventIDsOfSession(t *testing.T) {
	t.Parallel()
	b, mr := backend(t)
	mr.SetTime(time.Now()) // every entry in one millisecond
	ctx := context.Background()
	one, _ := b.Events.Append(ctx, "S1", "g", nil)
	two, _ := b.Events.Append(ctx, "S2", "g", nil)
	if one == two {
		t.Fatalf("both sessions' first events have the id %s", one)
	}
	if err := b.Events.Check(ctx, "S2", "g", one); !errors.Is(err, mcpstore.ErrUnknownEvent) {
		t.Errorf("Check in S2 of S1's event %s: %v, want ErrUnknownEvent", one, err)
	}
	if err := b.Events.Check(ctx, "S1", "g", one); err != nil {
		t.Errorf("Check in S1 of its event %s: %v", one, err)
	}
}
