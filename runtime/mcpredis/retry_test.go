package mcpredis

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/rueidis"

	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// TestRetrierDelay: reads are tried again after any failure, writes only
// after one that says Redis did not run them; the waits grow to 500 ms
// and stop when the budget is spent, which fails the next command at
// once until Redis answers one.
func TestRetrierDelay(t *testing.T) {
	t.Parallel()
	built := cmdsOf(t)
	read, write := built.read, built.write
	dial := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	for _, tc := range []struct {
		name string
		cmd  rueidis.Completed
		err  error
		want time.Duration
	}{
		{"read, connection broken", read, io.EOF, 50 * time.Millisecond},
		{"read, no connection", read, dial, 50 * time.Millisecond},
		{"write, no connection", write, dial, 50 * time.Millisecond},
		{"write, connection broken", write, io.EOF, -1},
		{"write, read timeout", write, &net.OpError{Op: "read", Err: errors.New("i/o timeout")}, -1},
	} {
		r := &retrier{budget: time.Second}
		if got := r.delay(1, tc.cmd, tc.err); got != tc.want {
			t.Errorf("%s: first delay %v, want %v", tc.name, got, tc.want)
		}
	}

	r := &retrier{budget: 2 * time.Second}
	var waits []time.Duration
	for n := 1; ; n++ {
		d := r.delay(n, read, io.EOF)
		if d < 0 {
			break
		}
		waits = append(waits, d)
	}
	want := []time.Duration{50, 100, 200, 400, 500, 500, 250}
	if len(waits) != len(want) {
		t.Fatalf("waits %v, want %v ms", waits, want)
	}
	for i := range want {
		if waits[i] != want[i]*time.Millisecond {
			t.Fatalf("waits %v, want %v ms", waits, want)
		}
	}
	if d := r.delay(1, read, io.EOF); d != -1 {
		t.Errorf("after a spent budget, a new command waits %v, want none", d)
	}
	r.answered(rueidis.RedisResult{})
	if d := r.delay(1, read, io.EOF); d != 50*time.Millisecond {
		t.Errorf("after Redis answered, a new command waits %v, want 50ms", d)
	}
}

// cmds is a read and a write, built by a client that sends nothing.
type cmds struct{ read, write rueidis.Completed }

func cmdsOf(t *testing.T) cmds {
	t.Helper()
	mr := miniredis.RunT(t)
	client, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{mr.Addr()}, DisableCache: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	return cmds{read: client.B().Get().Key("k").Build(), write: client.B().Set().Key("k").Value("v").Build()}
}

// TestWritesRetriedWhileLoading: a write made while Redis answers
// LOADING, for longer than the old read retries lasted, succeeds once
// Redis is ready.
func TestWritesRetriedWhileLoading(t *testing.T) {
	t.Parallel()
	b, mr := backend(t)
	mr.SetError("LOADING Redis is loading the dataset in memory")
	time.AfterFunc(600*time.Millisecond, func() { mr.SetError("") })
	start := time.Now()
	if err := b.Tasks.Create(context.Background(), newTask("t1", "o", time.Minute)); err != nil {
		t.Fatalf("create while loading: %v", err)
	}
	if took := time.Since(start); took < 500*time.Millisecond {
		t.Errorf("create took %v, before Redis was ready", took)
	}
	if _, err := b.Tasks.Get(context.Background(), "o", "t1"); err != nil {
		t.Errorf("the task created while loading: %v", err)
	}
}

// TestWritesRetriedWhileDown: a write made while nothing listens on
// Redis's port succeeds once Redis is back, within the budget.
func TestWritesRetriedWhileDown(t *testing.T) {
	t.Parallel()
	b, mr := backend(t)
	mr.Close()
	// A read finds the connection closed, as the next write would not:
	// a write sent on a connection that broke meanwhile may have run,
	// and fails.
	ctx := context.Background()
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if _, err := b.Tasks.Get(short, "o", "t1"); err == nil {
		t.Fatal("a read while Redis is down succeeded")
	}
	time.AfterFunc(time.Second, func() {
		if err := mr.Restart(); err != nil {
			t.Error(err)
		}
	})
	if err := b.Tasks.Create(ctx, newTask("t1", "o", time.Minute)); err != nil {
		t.Fatalf("create while Redis is down: %v", err)
	}
	if _, err := b.Tasks.Get(ctx, "o", "t1"); err != nil {
		t.Errorf("the task created while Redis was down: %v", err)
	}
}

// TestWriteNotRetriedAfterSent: a write whose connection breaks after
// Redis ran it fails, and is not run again; a read whose connection
// breaks so is tried again.
func TestWriteNotRetriedAfterSent(t *testing.T) {
	t.Parallel()
	mr := miniredis.RunT(t)
	p := newBreaker(t, mr.Addr())
	// A single client: miniredis answers CLUSTER SHARDS with its own
	// address, which a cluster client would dial past the proxy.
	b, err := OpenOptions(context.Background(), rueidis.ClientOption{InitAddress: []string{p.addr()}, DisableCache: true, ForceSingleClient: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	ctx := context.Background()
	p.breakOn("XADD")
	if _, err := b.Events.Append(ctx, "s", "st", []byte("x")); err == nil {
		t.Error("an append whose answer was lost succeeded")
	}
	if entries, err := mr.Stream(b.streamKey("s", "st")); err != nil || len(entries) != 1 {
		t.Errorf("the stream holds %d entries (%v), want the one append once", len(entries), err)
	}
	p.breakOn("HGETALL")
	if _, err := b.Tasks.Get(ctx, "o", "none"); !errors.Is(err, mcpstore.ErrTaskNotFound) {
		t.Errorf("a read whose answer was lost once: %v, want it tried again (not found)", err)
	}
}

// TestRetryBudgetSpent: a command fails once its budget is spent; the
// next fails at once, until Redis answers a command again.
func TestRetryBudgetSpent(t *testing.T) {
	t.Parallel()
	mr := miniredis.RunT(t)
	b, err := openOptions(context.Background(), rueidis.ClientOption{InitAddress: []string{mr.Addr()}, DisableCache: true}, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	ctx := context.Background()
	mr.SetError("LOADING Redis is loading the dataset in memory")
	timed := func() time.Duration {
		start := time.Now()
		if _, err := b.Tasks.Get(ctx, "o", "t"); err == nil || errors.Is(err, mcpstore.ErrTaskNotFound) {
			t.Fatalf("a read while loading: %v", err)
		}
		return time.Since(start)
	}
	if took := timed(); took < 300*time.Millisecond || took > 2*time.Second {
		t.Errorf("the first read failed after %v, want its budget of 300ms", took)
	}
	if took := timed(); took > 100*time.Millisecond {
		t.Errorf("the read after a spent budget failed after %v, want at once", took)
	}
	mr.SetError("")
	if _, err := b.Tasks.Get(ctx, "o", "t"); !errors.Is(err, mcpstore.ErrTaskNotFound) {
		t.Fatalf("a read once Redis answers: %v", err)
	}
	mr.SetError("LOADING Redis is loading the dataset in memory")
	if took := timed(); took < 300*time.Millisecond {
		t.Errorf("after Redis answered, a read failed after %v, want its budget again", took)
	}
}

// breaker is a TCP proxy to a Redis that, when told, closes a client's
// connection after passing on the next request naming a command, before
// Redis's answer.
type breaker struct {
	ln     net.Listener
	target string
	mu     sync.Mutex // held while a request is broken: no answer passes
	name   []byte     // of the command to break, nil for none
}

func newBreaker(t *testing.T, target string) *breaker {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	p := &breaker{ln: ln, target: target}
	go p.serve()
	return p
}

func (p *breaker) addr() string { return p.ln.Addr().String() }

// breakOn makes the next request naming command lose its answer.
func (p *breaker) breakOn(command string) {
	p.mu.Lock()
	p.name = []byte(command)
	p.mu.Unlock()
}

func (p *breaker) serve() {
	for {
		conn, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.relay(conn)
	}
}

// relay passes what the client sends to Redis and Redis's answers back.
// A request to break it passes on, then closes both connections once
// Redis has had time to run it.
func (p *breaker) relay(conn net.Conn) {
	defer conn.Close()
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		return
	}
	defer up.Close()
	go io.Copy(conn, &gate{r: up, p: p})
	buf := make([]byte, 64<<10)
	for {
		n, err := conn.Read(buf)
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.name != nil && bytes.Contains(buf[:n], p.name) {
			p.name = nil
			up.Write(buf[:n])
			time.Sleep(50 * time.Millisecond)
			conn.Close()
			up.Close()
			p.mu.Unlock()
			return
		}
		p.mu.Unlock()
		if _, err := up.Write(buf[:n]); err != nil {
			return
		}
	}
}

// gate reads Redis's answers, held back while a request is broken.
type gate struct {
	r io.Reader
	p *breaker
}

func (g *gate) Read(b []byte) (int, error) {
	n, err := g.r.Read(b)
	g.p.mu.Lock()
	g.p.mu.Unlock()
	return n, err
}
