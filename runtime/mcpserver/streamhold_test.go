package mcpserver

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// holdLog is a shared event log seen by one replica: it records that
// replica's holds, and once dead renews none, as a replica that died.
type holdLog struct {
	mcpstore.EventLog
	mu    sync.Mutex
	dead  bool
	holds []holdCall
	ended map[string]bool
	gate  chan struct{} // when set, Hold waits for it to close
}

type holdCall struct {
	stream   string
	ttl      time.Duration
	will     string
	afterEnd bool
}

func (l *holdLog) Hold(ctx context.Context, session, stream string, ttl time.Duration, will []byte) error {
	if l.gate != nil {
		<-l.gate
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.dead {
		return nil
	}
	l.holds = append(l.holds, holdCall{stream, ttl, string(will), l.ended[stream]})
	return l.EventLog.Hold(ctx, session, stream, ttl, will)
}

func (l *holdLog) End(ctx context.Context, session, stream string) error {
	l.mu.Lock()
	if l.ended == nil {
		l.ended = map[string]bool{}
	}
	l.ended[stream] = true
	l.mu.Unlock()
	return l.EventLog.End(ctx, session, stream)
}

func (l *holdLog) die() {
	l.mu.Lock()
	l.dead = true
	l.mu.Unlock()
}

func (l *holdLog) calls() []holdCall {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]holdCall(nil), l.holds...)
}

// holdPair returns clients of two replicas sharing sessions and an event
// log, in one session of rev, the first replica's view of the log, and
// the first replica. They serve over in-memory connections, so that the
// tests can run in synctest bubbles.
func holdPair(t *testing.T, rev wire.Revision, lease time.Duration, tools ...mcprt.Tool) (a, b *httpClient, la *holdLog, ra *Server) {
	store, log := &mcpstore.MemorySessionStore{}, &mcpstore.MemoryEventLog{}
	la = &holdLog{EventLog: log}
	ra, rb := New(mcprt.Identity{Name: "n", Version: "v"}, tools...), New(mcprt.Identity{Name: "n", Version: "v"}, tools...)
	ra.Sessions, ra.Events, ra.TaskLease = store, la, lease
	rb.Sessions, rb.Events = store, log
	a, b = startMemHTTP(t, ra), startMemHTTP(t, rb)
	a.initialize(rev, `{}`)
	b.sid = a.sid
	return a, b, la, ra
}

const stoppedReply = `{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"internal error: the server answering this request stopped"}}`

// TestHTTPResumeWriterStopped: when the replica answering a call over SSE
// stops renewing the hold on its stream, as one that died does, a client
// resuming on another replica gets a -32603 answer to its request and the
// stream's end, not a wait for an answer that never comes. The hold
// lasts two lease periods and carries that answer.
func TestHTTPResumeWriterStopped(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		release, ended := make(chan struct{}), make(chan error, 1)
		const lease = 20 * time.Millisecond
		a, b, la, _ := holdPair(t, wire.Rev20251125, lease, stepTool(release, ended))
		var once sync.Once
		free := func() { once.Do(func() { close(release) }) }
		t.Cleanup(free) // before the servers close, should the test fail
		ev := rawEvents(t, a.do("POST", stepCall, nil))
		nextRaw(t, ev) // the priming event
		one := nextRaw(t, ev)
		if one.data != stepOne {
			t.Fatalf("first event %+v", one)
		}
		la.die()
		resp := b.do("GET", "", header("Last-Event-ID", one.id))
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("resume: status %d", resp.StatusCode)
		}
		var got []string
		for _, e := range rest(t, rawEvents(t, resp)) {
			if e.data != "" {
				got = append(got, e.data)
			}
		}
		if len(got) != 1 {
			t.Fatalf("resumed after the writer stopped: %q, want its -32603 answer", got)
		}
		sameJSON(t, got[0], stoppedReply)
		calls := la.calls()
		if len(calls) == 0 {
			t.Fatal("the stream was never held")
		}
		if c := calls[0]; c.stream != "p1" || c.ttl != 2*lease {
			t.Errorf("hold %+v, want stream p1 for two leases", c)
		}
		sameJSON(t, calls[0].will, stoppedReply)
		free()
		<-ended
		rest(t, ev)
	})
}

// TestHTTPHoldOnlySSE: a call answered as plain JSON takes no hold; a
// call answered over SSE holds its stream until its end, and renews it no
// more after.
func TestHTTPHoldOnlySSE(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		release, ended := make(chan struct{}), make(chan error, 1)
		close(release)
		const lease = 5 * time.Millisecond
		a, _, la, _ := holdPair(t, wire.Rev20251125, lease, stepTool(release, ended), textTool("plain", "P"))
		a.post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"plain"}}`, 200, "", nil)
		if calls := la.calls(); len(calls) != 0 {
			t.Errorf("a plain JSON answer took holds %+v", calls)
		}
		got := rest(t, rawEvents(t, a.do("POST", stepCall, nil)))
		<-ended
		if last := got[len(got)-1]; last.data != stepReply {
			t.Errorf("last event %+v, want the answer", last)
		}
		time.Sleep(6 * lease) // time for renewals that should not come
		synctest.Wait()
		calls := la.calls()
		if len(calls) == 0 {
			t.Error("the SSE answer was never held")
		}
		for _, c := range calls {
			if c.afterEnd {
				t.Errorf("hold %+v renewed after the stream's end", c)
			}
		}
	})
}

// TestHTTPHeldBeforeSeen: no event id of a call's stream reaches the
// client before the stream is held, on every resumable revision: a
// client could resume from it on another replica just as this one dies,
// and follow a stream without a will forever.
func TestHTTPHeldBeforeSeen(t *testing.T) {
	t.Parallel()
	for _, rev := range []wire.Revision{wire.Rev20250326, wire.Rev20250618, wire.Rev20251125} {
		t.Run(string(rev), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				release, ended := make(chan struct{}), make(chan error, 1)
				close(release)
				a, _, la, _ := holdPair(t, rev, time.Minute, stepTool(release, ended))
				gate := make(chan struct{})
				var once sync.Once
				open := func() { once.Do(func() { close(gate) }) }
				t.Cleanup(open) // before the servers close, should the test fail
				la.mu.Lock()
				la.gate = gate
				la.mu.Unlock()
				seen := make(chan sseEvent, 1)
				go func() {
					ev := rawEvents(t, a.do("POST", stepCall, nil))
					seen <- <-ev
					for range ev {
					}
				}()
				select {
				case e := <-seen:
					t.Fatalf("event %+v sent before the stream was held", e)
				case <-time.After(50 * time.Millisecond):
				}
				open()
				select {
				case e := <-seen:
					if e.id == "" {
						t.Errorf("first event %+v without an id", e)
					}
				case <-time.After(timeout):
					t.Fatal("no event once the stream was held")
				}
				<-ended
			})
		})
	}
}

// TestHTTPHoldWillOfBatch: the will of a 2025-03-26 batch's stream is a
// -32603 answer to each request of the batch.
func TestHTTPHoldWillOfBatch(t *testing.T) {
	t.Parallel()
	p := &postStream{batch: []json.RawMessage{
		json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`),
		json.RawMessage(`{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`),
		json.RawMessage(`{"jsonrpc":"2.0","id":"two","method":"ping"}`),
	}}
	sameJSON(t, string(p.will()), `[`+
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"internal error: the server answering this request stopped"}},`+
		`{"jsonrpc":"2.0","id":"two","error":{"code":-32603,"message":"internal error: the server answering this request stopped"}}]`)
	if w := (&postStream{batch: []json.RawMessage{[]byte(`{"jsonrpc":"2.0","method":"x"}`)}}).will(); w != nil {
		t.Errorf("the will of a batch of notifications: %s, want none", w)
	}
}

// TestHTTPOwnLogTakesNoHold: a server with the event log it made itself,
// which no other replica follows, holds none of its streams: they would
// outlive it no more than its followers do.
func TestHTTPOwnLogTakesNoHold(t *testing.T) {
	t.Parallel()
	release, ended := make(chan struct{}), make(chan error, 1)
	close(release)
	srv := New(mcprt.Identity{Name: "n", Version: "v"}, stepTool(release, ended))
	// The log the server made, seen through a recorder: still its own.
	log := &holdLog{EventLog: srv.eventLog()}
	srv.Events = log
	a := startHTTP(t, srv)
	a.initialize(wire.Rev20251125, `{}`)
	rest(t, rawEvents(t, a.do("POST", stepCall, nil)))
	<-ended
	if holds := log.calls(); len(holds) != 0 {
		t.Errorf("holds taken %+v, want none", holds)
	}
}
