package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// SessionStore checks a session store against the contract of
// [mcpstore.SessionStore], one subtest per clause:
//
//   - created session is found with every field
//   - unknown session is not found
//   - deleted session is not found
//   - log level is set
//   - subscribe adds and removes a uri
//   - changes made at once keep each other
//   - idle session expires after its touch
func SessionStore(t *testing.T, newStore func(t *testing.T) mcpstore.SessionStore) {
	t.Helper()
	run(t, newStore, []clause[mcpstore.SessionStore]{
		{"created session is found with every field", createdSessionIsFound},
		{"unknown session is not found", unknownSessionNotFound},
		{"deleted session is not found", deletedSessionNotFound},
		{"log level is set", logLevelIsSet},
		{"subscribe adds and removes a uri", subscribeAddsRemoves},
		{"changes made at once keep each other", concurrentChanges},
		{"idle session expires after its touch", idleSessionExpires},
	})
}

type sessionEnv = env[mcpstore.SessionStore]

func record(id string) *mcpstore.SessionRecord {
	return &mcpstore.SessionRecord{ID: id, Revision: "2025-06-18", Capabilities: []byte(`{"roots":{"listChanged":true}}`),
		LogLevel: "info", Subscriptions: []string{"file:///a", "file:///b"}, TaskOwner: id, Owner: "https://issuer\nsubject"}
}

func createSession(t *testing.T, s mcpstore.SessionStore, rec *mcpstore.SessionRecord) {
	t.Helper()
	if err := s.Create(context.Background(), rec); err != nil {
		t.Fatalf("Create(%s): %v", rec.ID, err)
	}
}

func getSession(t *testing.T, s mcpstore.SessionStore, id string) *mcpstore.SessionRecord {
	t.Helper()
	rec, err := s.Get(context.Background(), id)
	if err != nil {
		t.Fatalf("Get(%s): %v", id, err)
	}
	return rec
}

// subscriptions returns the subscriptions of rec in order.
func subscriptions(rec *mcpstore.SessionRecord) []string {
	subs := slices.Clone(rec.Subscriptions)
	slices.Sort(subs)
	return subs
}

// createdSessionIsFound: Create returns once a Get on any replica finds
// the session, with every field as given (subscriptions in any order).
func createdSessionIsFound(t *testing.T, e *sessionEnv) {
	want := record("S1")
	createSession(t, e.s, want)
	got := getSession(t, e.r, "S1")
	if got.ID != want.ID || got.Revision != want.Revision || !bytes.Equal(got.Capabilities, want.Capabilities) ||
		got.LogLevel != want.LogLevel || got.TaskOwner != want.TaskOwner || got.Owner != want.Owner ||
		!slices.Equal(subscriptions(got), want.Subscriptions) {
		t.Errorf("found %+v\nwant  %+v", *got, *want)
	}
}

// notFound fails t unless each call about session id fails with
// ErrSessionNotFound.
func notFound(t *testing.T, s mcpstore.SessionStore, id, what string) {
	t.Helper()
	ctx := context.Background()
	_, err := s.Get(ctx, id)
	for call, err := range map[string]error{
		"Get":         err,
		"SetLogLevel": s.SetLogLevel(ctx, id, "debug"),
		"Subscribe":   s.Subscribe(ctx, id, "file:///c", true),
		"Touch":       s.Touch(ctx, id, time.Minute),
	} {
		if !errors.Is(err, mcpstore.ErrSessionNotFound) {
			t.Errorf("%s of %s: %v, want ErrSessionNotFound", call, what, err)
		}
	}
}

// unknownSessionNotFound: every call about a session the store does not
// hold fails with ErrSessionNotFound.
func unknownSessionNotFound(t *testing.T, e *sessionEnv) {
	createSession(t, e.s, record("S1"))
	notFound(t, e.s, "nope", "an unknown session")
}

// deletedSessionNotFound: after Delete on one replica, every replica
// finds the session gone, as every replica answers 404 after a DELETE.
func deletedSessionNotFound(t *testing.T, e *sessionEnv) {
	createSession(t, e.s, record("S1"))
	getSession(t, e.r, "S1")
	if err := e.r.Delete(context.Background(), "S1"); err != nil {
		t.Fatal(err)
	}
	notFound(t, e.s, "S1", "a deleted session")
	notFound(t, e.r, "S1", "a deleted session on the replica that deleted it")
}

// logLevelIsSet: SetLogLevel on one replica is read on every replica.
func logLevelIsSet(t *testing.T, e *sessionEnv) {
	createSession(t, e.s, record("S1"))
	getSession(t, e.s, "S1")
	if err := e.r.SetLogLevel(context.Background(), "S1", "debug"); err != nil {
		t.Fatal(err)
	}
	if got := getSession(t, e.s, "S1").LogLevel; got != "debug" {
		t.Errorf("log level %q after SetLogLevel, want debug", got)
	}
}

// subscribeAddsRemoves: Subscribe adds a uri once however often it is
// subscribed, and removes it when on is false.
func subscribeAddsRemoves(t *testing.T, e *sessionEnv) {
	ctx := context.Background()
	createSession(t, e.s, record("S1"))
	getSession(t, e.s, "S1")
	for _, c := range []struct {
		uri string
		on  bool
	}{{"file:///c", true}, {"file:///c", true}, {"file:///a", false}, {"file:///z", false}} {
		if err := e.r.Subscribe(ctx, "S1", c.uri, c.on); err != nil {
			t.Fatalf("Subscribe(%s, %v): %v", c.uri, c.on, err)
		}
	}
	if got := subscriptions(getSession(t, e.s, "S1")); !slices.Equal(got, []string{"file:///b", "file:///c"}) {
		t.Errorf("subscriptions %v, want [file:///b file:///c]", got)
	}
}

// concurrentChanges: log levels and subscriptions set at once on two
// replicas are each applied, none undoing another.
func concurrentChanges(t *testing.T, e *sessionEnv) {
	ctx := context.Background()
	rec := record("S1")
	rec.Subscriptions = nil
	createSession(t, e.s, rec)
	var changes sync.WaitGroup
	start := make(chan struct{})
	var want []string
	for i := range 8 {
		s := e.s
		if i%2 == 1 {
			s = e.r
		}
		uri := fmt.Sprint("file:///", i)
		want = append(want, uri)
		changes.Go(func() {
			<-start
			if err := s.Subscribe(ctx, "S1", uri, true); err != nil {
				t.Errorf("Subscribe(%s): %v", uri, err)
			}
		})
	}
	changes.Go(func() {
		<-start
		if err := e.r.SetLogLevel(ctx, "S1", "debug"); err != nil {
			t.Errorf("SetLogLevel: %v", err)
		}
	})
	close(start)
	changes.Wait()
	got := getSession(t, e.s, "S1")
	slices.Sort(want)
	if subs := subscriptions(got); !slices.Equal(subs, want) || got.LogLevel != "debug" {
		t.Errorf("after changes at once: subscriptions %v, level %q; want %v, debug", subs, got.LogLevel, want)
	}
}

// idleSessionExpires: a session lives idle for as long as its last
// Touch allowed, then is not found.
func idleSessionExpires(t *testing.T, e *sessionEnv) {
	ctx := context.Background()
	createSession(t, e.s, record("S1"))
	if err := e.s.Touch(ctx, "S1", time.Minute); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(50 * time.Second)
	if err := e.r.Touch(ctx, "S1", time.Minute); err != nil {
		t.Fatalf("Touch of a live session: %v", err)
	}
	e.clock.Advance(50 * time.Second)
	getSession(t, e.r, "S1") // 100 s old, touched 50 s ago
	e.clock.Advance(20 * time.Second)
	if _, err := e.s.Get(ctx, "S1"); !errors.Is(err, mcpstore.ErrSessionNotFound) {
		t.Errorf("Get of a session idle past its Touch: %v, want ErrSessionNotFound", err)
	}
}
