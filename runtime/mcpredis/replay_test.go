package mcpredis

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/authtest"
	"github.com/mcpgen/mcpgen/internal/replaytest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

var _ mcpstore.ReplayCache = (*ReplayCache)(nil)

// TestReplayCache runs the replay cache contract on miniredis, whose
// clock the test moves.
func TestReplayCache(t *testing.T) {
	t.Parallel()
	b, mr := backend(t)
	replaytest.Run(t, b.Replay, time.Now, mr.FastForward)
}

// TestReplayCacheFails: a Redis that does not answer is an error, not a
// first use.
func TestReplayCacheFails(t *testing.T) {
	t.Parallel()
	b, mr := backend(t)
	mr.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if first, err := b.Replay.Use(ctx, "x", time.Now().Add(time.Minute)); err == nil || first {
		t.Errorf("Use without Redis = %v, %v; want an error", first, err)
	}
}

// TestDPoPReplicas: two replicas attached to one Redis share the proofs
// they took and each other's nonces.
func TestDPoPReplicas(t *testing.T) {
	t.Parallel()
	b1, mr := backend(t)
	b2 := open(t, mr)
	authtest.RunReplicas(t, func(f *authtest.Fixture) (http.Handler, http.Handler) {
		return replica(t, f, b1), replica(t, f, b2)
	})
}

// replica is a server of f's tools behind f's Auth, attached to b.
func replica(t *testing.T, f *authtest.Fixture, b *Backend) http.Handler {
	srv := mcpserver.New(mcprt.Identity{Name: "n", Version: "v"}, f.Tools...)
	b.Attach(srv)
	t.Cleanup(func() { srv.Close() }) // before b's: its reaper reads Redis
	srv.Auth = f.Auth
	srv.AllowedHosts = []string{"*"}
	return srv.HTTPHandler()
}
