package replicas

import (
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime/mcpredis"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// slowLink is a TCP proxy to addr that holds every chunk Redis sends for
// delay before passing it on, standing for a replica whose Redis link is
// slow: its cached reads and the invalidations that evict them arrive
// late.
func slowLink(t *testing.T, addr string, delay time.Duration) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", addr)
			if err != nil {
				client.Close()
				continue
			}
			wg.Go(func() { io.Copy(server, client); server.Close() })
			wg.Go(func() { delayed(client, server, delay); client.Close() })
		}
	})
	return ln.Addr().String()
}

// delayed copies src to dst, each chunk delay after it was read, in order.
func delayed(dst io.Writer, src io.Reader, delay time.Duration) {
	type chunk struct {
		at   time.Time
		data []byte
	}
	ch := make(chan chunk, 1024)
	go func() {
		defer close(ch)
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			if n > 0 {
				ch <- chunk{time.Now().Add(delay), append([]byte(nil), buf[:n]...)}
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range ch {
		time.Sleep(time.Until(c.at))
		if _, err := dst.Write(c.data); err != nil {
			return
		}
	}
}

// TestSessionCacheChangesSeenEverywhere: a replica serves sessions from
// its client-side cache, yet once a change returns on one replica, the
// next read on another sees it, even when that replica's link to Redis
// brings the invalidation late (150 ms each way, here): without the wait
// of a change, that replica would serve the copy it read before.
func TestSessionCacheChangesSeenEverywhere(t *testing.T) {
	skipShort(t)
	rs := redistest.Start(t)
	ctx := context.Background()
	const ttl, delay = 500 * time.Millisecond, 150 * time.Millisecond
	open := func(addr string) *mcpredis.SessionStore {
		b, err := mcpredis.Open(ctx, "redis://"+addr+"/0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		b.Sessions.CacheTTL = ttl
		return b.Sessions
	}
	a := open(rs.Addr())
	b := open(slowLink(t, rs.Addr(), delay))

	rec := &mcpstore.SessionRecord{ID: "cached-" + strconv.FormatInt(time.Now().UnixNano(), 36), Revision: "2025-06-18", LogLevel: "info"}
	if err := a.Create(ctx, rec); err != nil {
		t.Fatal(err)
	}
	got, err := b.Get(ctx, rec.ID) // now cached on b
	if err != nil || got.LogLevel != "info" {
		t.Fatalf("b.Get: %+v, %v", got, err)
	}

	start := time.Now()
	if err := a.SetLogLevel(ctx, rec.ID, "debug"); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < ttl {
		t.Errorf("SetLogLevel returned after %v, before the cache's %v", took, ttl)
	}
	if got, err := b.Get(ctx, rec.ID); err != nil || got.LogLevel != "debug" {
		t.Errorf("after SetLogLevel on a, b reads %+v, %v; want level debug", got, err)
	}

	if err := a.Subscribe(ctx, rec.ID, "test://watched", true); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Get(ctx, rec.ID); err != nil || len(got.Subscriptions) != 1 {
		t.Errorf("after Subscribe on a, b reads %+v, %v; want one subscription", got, err)
	}

	if err := a.Delete(ctx, rec.ID); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Get(ctx, rec.ID); !errors.Is(err, mcpstore.ErrSessionNotFound) {
		t.Errorf("after Delete on a, b reads %+v, %v; want ErrSessionNotFound", got, err)
	}

	// A cached read costs no round trip over b's slow link.
	rec.ID += "-2"
	if err := a.Create(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Get(ctx, rec.ID); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	if _, err := b.Get(ctx, rec.ID); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took >= delay {
		t.Errorf("a second read within the cache's life took %v, a round trip", took)
	}
}
