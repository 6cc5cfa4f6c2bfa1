package mcpredis

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// TestSessionShared: a session created on one replica is read on
// another with its level and subscriptions; changes on either are seen by
// both; after Delete or the idle timeout it is not found.
func TestSessionShared(t *testing.T) {
	b1, mr := backend(t)
	b2 := open(t, mr)
	srv1, srv2 := &mcpserver.Server{SessionIdleTimeout: time.Minute}, &mcpserver.Server{SessionIdleTimeout: time.Minute}
	b1.Attach(srv1)
	b2.Attach(srv2)
	ctx := context.Background()
	rec := &mcpserver.SessionRecord{ID: "S1", Revision: "2025-06-18", Capabilities: []byte(`{"roots":{}}`), ClientInfo: []byte(`{"name":"c","version":"1"}`),
		Subscriptions: []string{"file:///a"}, TaskOwner: "S1", Owner: "iss sub"}
	if err := srv1.Sessions.Create(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := srv2.Sessions.SetLogLevel(ctx, "S1", "debug"); err != nil {
		t.Fatal(err)
	}
	if err := srv2.Sessions.Subscribe(ctx, "S1", "file:///b", true); err != nil {
		t.Fatal(err)
	}
	if err := srv1.Sessions.Subscribe(ctx, "S1", "file:///a", false); err != nil {
		t.Fatal(err)
	}
	got, err := srv1.Sessions.Get(ctx, "S1")
	if err != nil {
		t.Fatal(err)
	}
	want := *rec
	want.LogLevel, want.Subscriptions = "debug", []string{"file:///b"}
	if fmt.Sprint(*got) != fmt.Sprint(want) {
		t.Errorf("got  %+v\nwant %+v", *got, want)
	}
	mr.FastForward(50 * time.Second)
	if err := srv2.Sessions.Touch(ctx, "S1", time.Minute); err != nil {
		t.Fatal(err)
	}
	mr.FastForward(50 * time.Second) // alive: touched 50 s ago
	if _, err := srv1.Sessions.Get(ctx, "S1"); err != nil {
		t.Fatalf("a touched session: %v", err)
	}
	mr.FastForward(20 * time.Second)
	if _, err := srv1.Sessions.Get(ctx, "S1"); !errors.Is(err, mcpserver.ErrSessionNotFound) {
		t.Errorf("an idle session: %v, want ErrSessionNotFound", err)
	}
	if err := srv1.Sessions.SetLogLevel(ctx, "S1", "info"); !errors.Is(err, mcpserver.ErrSessionNotFound) {
		t.Errorf("level of an expired session: %v, want ErrSessionNotFound", err)
	}
	if err := srv1.Sessions.Create(ctx, &mcpserver.SessionRecord{ID: "S2", Revision: "2025-11-25"}); err != nil {
		t.Fatal(err)
	}
	if err := srv2.Sessions.Delete(ctx, "S2"); err != nil {
		t.Fatal(err)
	}
	for _, call := range []error{
		func() error { _, err := srv1.Sessions.Get(ctx, "S2"); return err }(),
		srv1.Sessions.Subscribe(ctx, "S2", "x", true),
		srv1.Sessions.Touch(ctx, "S2", time.Minute),
	} {
		if !errors.Is(call, mcpserver.ErrSessionNotFound) {
			t.Errorf("a deleted session: %v, want ErrSessionNotFound", call)
		}
	}
}

// collect follows a stream into a channel of "id data" lines, closed when
// Follow returns; its error goes to errc.
func collect(l *EventLog, ctx context.Context, session, stream, after string) (<-chan string, <-chan error) {
	out, errc := make(chan string, 100), make(chan error, 1)
	go func() {
		errc <- l.Follow(ctx, session, stream, after, func(id string, data []byte) error {
			out <- id + " " + string(data)
			return nil
		})
		close(out)
	}()
	return out, errc
}

func next(t *testing.T, c <-chan string) string {
	t.Helper()
	select {
	case s := <-c:
		return s
	case <-time.After(5 * time.Second):
		t.Fatal("no event")
		return ""
	}
}

// ended fails unless c is closed without a further event.
func ended(t *testing.T, c <-chan string) {
	t.Helper()
	select {
	case s, ok := <-c:
		if ok {
			t.Fatalf("after the end: %q", s)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the follower did not stop at the end of the stream")
	}
}

// TestEventLogResume: a follower on another replica gets what followed
// the id it resumes from, then what is appended live, once each, in
// order, and stops at the stream's end; bad ids are refused.
func TestEventLogResume(t *testing.T) {
	b1, mr := backend(t)
	b2 := open(t, mr)
	ctx := context.Background()
	prime, err := b1.Events.Append(ctx, "S1", "p1", nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range []string{"one", "two"} {
		id, err := b1.Events.Append(ctx, "S1", "p1", []byte(m))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if !strings.HasPrefix(prime, "p1/") || prime == ids[0] || ids[0] == ids[1] {
		t.Errorf("ids %s %v, want distinct ids of stream p1", prime, ids)
	}
	if err := b2.Events.Check(ctx, "S1", "p1", prime); err != nil {
		t.Errorf("check of the priming event: %v", err)
	}
	for _, bad := range []string{"p2/" + prime[3:], "p1/0-1", "p1", "p1/x-y", ids[0] + "/1"} {
		if err := b2.Events.Check(ctx, "S1", "p1", bad); !errors.Is(err, mcpserver.ErrUnknownEvent) {
			t.Errorf("check %q: %v, want ErrUnknownEvent", bad, err)
		}
	}
	if err := b2.Events.Check(ctx, "S2", "p1", prime); !errors.Is(err, mcpserver.ErrUnknownEvent) {
		t.Errorf("check in another session: %v, want ErrUnknownEvent", err)
	}
	out, errc := collect(b2.Events, ctx, "S1", "p1", prime)
	if got := next(t, out); got != ids[0]+" one" {
		t.Errorf("first %q", got)
	}
	if got := next(t, out); got != ids[1]+" two" {
		t.Errorf("second %q", got)
	}
	id3, _ := b1.Events.Append(ctx, "S1", "p1", []byte("three"))
	if got := next(t, out); got != id3+" three" {
		t.Errorf("live %q, want %q", got, id3+" three")
	}
	if err := b1.Events.End(ctx, "S1", "p1"); err != nil {
		t.Fatal(err)
	}
	ended(t, out)
	if err := <-errc; err != nil {
		t.Errorf("follow: %v", err)
	}
	// Resuming in the middle replays only what followed.
	out, _ = collect(b1.Events, ctx, "S1", "p1", ids[1])
	if got := next(t, out); got != id3+" three" {
		t.Errorf("resumed %q", got)
	}
	ended(t, out)
}

// TestEventLogClose: closing a session ends its followers on every
// replica and forgets its events.
func TestEventLogClose(t *testing.T) {
	b1, mr := backend(t)
	b2 := open(t, mr)
	ctx := context.Background()
	id, _ := b1.Events.Append(ctx, "S1", "g", nil)
	out, errc := collect(b2.Events, ctx, "S1", "g", id)
	time.Sleep(50 * time.Millisecond)
	if err := b1.Events.Close(ctx, "S1"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if err != nil {
			t.Errorf("follow: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the follower did not stop")
	}
	if s, ok := <-out; ok {
		t.Errorf("event after close: %q", s)
	}
	mr.FastForward(2 * closedKeep)
	if err := b2.Events.Check(ctx, "S1", "g", id); !errors.Is(err, mcpserver.ErrUnknownEvent) {
		t.Errorf("check after close: %v, want ErrUnknownEvent", err)
	}
}

// TestEventLogBound: a stream keeps about MaxEvents events; an id trimmed
// away cannot be resumed from.
func TestEventLogBound(t *testing.T) {
	b, _ := backend(t)
	b.Events.MaxEvents = 3
	ctx := context.Background()
	first, _ := b.Events.Append(ctx, "S1", "g", nil)
	for i := range 200 {
		if _, err := b.Events.Append(ctx, "S1", "g", []byte(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Events.Check(ctx, "S1", "g", first); !errors.Is(err, mcpserver.ErrUnknownEvent) {
		t.Errorf("check of a trimmed event: %v, want ErrUnknownEvent", err)
	}
}

// TestFollowCancel: a follower stops with its context's error.
func TestFollowCancel(t *testing.T) {
	b, _ := backend(t)
	ctx, cancel := context.WithCancel(context.Background())
	id, _ := b.Events.Append(ctx, "S1", "g", nil)
	_, errc := collect(b.Events, ctx, "S1", "g", id)
	time.Sleep(20 * time.Millisecond)
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("follow: %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the follower did not stop")
	}
}

// TestBus: an event published on one replica reaches every subscriber of
// every replica once, its own at once, with every field.
func TestBus(t *testing.T) {
	b1, mr := backend(t)
	b2 := open(t, mr)
	var mu sync.Mutex
	got := map[string][]string{}
	sub := func(name string, b *Backend) {
		if _, err := b.Bus.Subscribe(func(e mcpserver.BusEvent) {
			mu.Lock()
			got[name] = append(got[name], fmt.Sprintf("%+v", e))
			mu.Unlock()
		}); err != nil {
			t.Fatal(err)
		}
	}
	sub("a", b1)
	sub("b", b2)
	sub("c", b2)
	e := mcpserver.BusEvent{Kind: mcpserver.BusTaskChanged, Origin: "r1", ID: "T1"}
	if err := b1.Bus.Publish(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if len(got["a"]) != 1 {
		t.Errorf("the publisher's own subscriber got %v at once, want the event", got["a"])
	}
	mu.Unlock()
	want := []string{fmt.Sprintf("%+v", e)}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		done := len(got["b"]) > 0 && len(got["c"]) > 0
		mu.Unlock()
		if done || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // time for a repeat to show
	mu.Lock()
	defer mu.Unlock()
	for _, name := range []string{"a", "b", "c"} {
		if !slices.Equal(got[name], want) {
			t.Errorf("subscriber %s got %v, want %v", name, got[name], want)
		}
	}
}

// TestBusCatchesUp: events published while a replica could not read the
// bus reach it when it reads again.
func TestBusCatchesUp(t *testing.T) {
	b1, mr := backend(t)
	b2 := open(t, mr)
	seen := make(chan string, 10)
	if _, err := b2.Bus.Subscribe(func(e mcpserver.BusEvent) { seen <- e.ID }); err != nil {
		t.Fatal(err)
	}
	mr.SetError("LOADING") // every command fails until cleared
	time.Sleep(50 * time.Millisecond)
	mr.SetError("")
	for _, id := range []string{"x", "y"} {
		if err := b1.Bus.Publish(context.Background(), mcpserver.BusEvent{Kind: mcpserver.BusTaskChanged, ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{"x", "y"} {
		select {
		case id := <-seen:
			if id != want {
				t.Errorf("got %s, want %s", id, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("event %s never arrived", want)
		}
	}
}

// TestBusSubscribeDuringOutage: a subscriber that joined while Redis
// failed hears what other replicas publish once it answers again.
func TestBusSubscribeDuringOutage(t *testing.T) {
	b1, mr := backend(t)
	b2 := open(t, mr)
	mr.SetError("LOADING")
	seen := make(chan string, 10)
	if _, err := b2.Bus.Subscribe(func(e mcpserver.BusEvent) { seen <- e.ID }); err != nil {
		t.Fatalf("subscribing during an outage: %v", err)
	}
	time.Sleep(50 * time.Millisecond)
	mr.SetError("")
	deadline := time.Now().Add(5 * time.Second)
	for {
		if err := b1.Bus.Publish(context.Background(), mcpserver.BusEvent{Kind: mcpserver.BusTaskChanged, ID: "x"}); err != nil {
			t.Fatal(err)
		}
		select {
		case <-seen:
			return
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("the event never arrived")
		}
	}
}

// TestServerLinksNoRedis: the built-in server does not link a Redis
// client; only this package and its users do.
func TestServerLinksNoRedis(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/mcpgen/mcpgen/runtime/mcpserver").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v: %s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.Contains(p, "rueidis") || strings.Contains(p, "miniredis") {
			t.Errorf("runtime/mcpserver depends on %s", p)
		}
	}
}

// TestPing: Ping answers nil while Redis answers, an error when it does
// not.
func TestPing(t *testing.T) {
	b, mr := backend(t)
	if err := b.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	mr.SetError("LOADING")
	if err := b.Ping(context.Background()); err == nil {
		t.Error("Ping succeeded while Redis fails")
	}
}
