package mcpstore

import (
	"context"
	"errors"
	"strconv"
	"testing"
)

// TestMemoryEventLogBound checks that the log keeps MaxEvents per stream:
// a reader whose last event is still kept, or was the last dropped, gets
// every later event; an older one gets ErrUnknownEvent. Ended streams
// beyond the per-session limit are forgotten, oldest first.
func TestMemoryEventLogBound(t *testing.T) {
	t.Parallel()
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
