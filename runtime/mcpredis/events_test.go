package mcpredis

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// TestEventLogEndDropsHold: End takes the hold and the will of a stream
// with it, so that no key of an ended stream outlives the stream.
func TestEventLogEndDropsHold(t *testing.T) {
	t.Parallel()
	b, mr := backend(t)
	ctx := context.Background()
	b.Events.Append(ctx, "S1", "p1", nil)
	if err := b.Events.Hold(ctx, "S1", "p1", time.Minute, []byte("will")); err != nil {
		t.Fatal(err)
	}
	if err := b.Events.End(ctx, "S1", "p1"); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{b.holdKey("S1", "p1"), b.willKey("S1", "p1")} {
		if mr.Exists(key) {
			t.Errorf("%s is kept after the end", key)
		}
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
