package replicas

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/authtest"
	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/internal/replaytest"
	"github.com/mcpgen/mcpgen/runtime/mcpredis"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// TestDPoPReplicas: two replicas on one redis-server, each with its own
// connection, share the DPoP proofs they took and each other's nonces: a
// proof replayed on the other replica is refused, a nonce from one is
// taken by the other.
func TestDPoPReplicas(t *testing.T) {
	skipShort(t)
	r := redistest.Start(t)
	authtest.RunReplicas(t, func(f *authtest.Fixture) (http.Handler, http.Handler) {
		return dpopReplica(t, f, r), dpopReplica(t, f, r)
	})
}

// TestDPoPReplayCacheOnRedis runs the replay cache contract on
// redis-server, whose entries expire in real time.
func TestDPoPReplayCacheOnRedis(t *testing.T) {
	skipShort(t)
	r := redistest.Start(t)
	b, err := mcpredis.Open(context.Background(), r.URL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	replaytest.Run(t, b.Replay, time.Now, time.Sleep)
}

// dpopReplica is a server of f's tools behind f's Auth, attached to its
// own backend on r.
func dpopReplica(t *testing.T, f *authtest.Fixture, r *redistest.Server) http.Handler {
	b, err := mcpredis.Open(context.Background(), r.URL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	srv := mcpserver.New(mcprt.Identity{Name: "n", Version: "v"}, f.Tools...)
	b.Attach(srv)
	t.Cleanup(func() { srv.Close() }) // before b's: its reaper reads Redis
	srv.Auth = f.Auth
	return srv.HTTPHandler()
}
