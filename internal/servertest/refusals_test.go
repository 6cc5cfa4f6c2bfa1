package servertest_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/authtest"
	. "github.com/mcpgen/mcpgen/internal/servertest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// TestRefusalsAreSeen checks that every path tells of each request its
// authorization refuses, with the HTTP status, the reason and the
// principal: to the interceptors where the path takes them, else to
// the adapter's logger (mcp-go).
func TestRefusalsAreSeen(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		log, logs := NewLog()
		f := authtest.NewFixture()
		s := m.new(mcprt.Identity{Name: "n", Version: "v"}, f.Tools...)
		s.logTo(log)
		var mu sync.Mutex
		var seen []string
		intercepts := s.use(func(ctx context.Context, req *mcpserver.Request, next mcpserver.Next) mcpserver.Outcome {
			out := next(ctx)
			if out.Refused != nil {
				who := ""
				if tok, ok := mcprt.Token(ctx); ok {
					who = tok.Subject
				}
				mu.Lock()
				seen = append(seen, fmt.Sprintf("%s %s %d %s %s", req.Method, req.Name, out.Refused.Status, out.Refused.Reason, who))
				mu.Unlock()
			}
			return out
		})
		c := authtest.Start(t, s.httpHandler(t, f.Auth, "2025-11-25"), "2025-11-25")
		c.Init("alice-all")
		call := c.Request(1, "tools/call", "w")
		for _, tt := range []struct {
			token  string
			status int
		}{{"", 401}, {"eve", 401}, {"alice-base", 403}, {"bob-all", 404}} {
			if resp := c.Do(http.MethodPost, call, tt.token, nil); resp.StatusCode != tt.status {
				t.Fatalf("token %q: status %d, want %d", tt.token, resp.StatusCode, tt.status)
			}
		}
		want := []string{
			"tools/call w 401 missing_token ",
			"tools/call w 401 invalid_token ",
			"tools/call w 403 insufficient_scope alice",
			"tools/call w 404 unknown_session bob",
		}
		if !intercepts {
			for _, w := range want {
				f := strings.Fields(w)
				line := `msg="mcp request refused" method=` + f[0] + ` target=` + f[1] + ` status=` + f[2] + ` reason=` + f[3]
				if !strings.Contains(logs.String(), line) {
					t.Errorf("the log lacks %s:\n%s", line, logs)
				}
			}
			if !strings.Contains(logs.String(), `reason=unknown_session session=`+c.SID+` principal=bob`) {
				t.Errorf("the 404 is not logged with its session and principal:\n%s", logs)
			}
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if strings.Join(seen, "\n") != strings.Join(want, "\n") {
			t.Errorf("the interceptors saw\n%s\nwant\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
		}
	})
}

// brokenReplay is a DPoP replay cache that fails while down is set.
type brokenReplay struct {
	down atomic.Bool
	mcpserver.ReplayCache
}

func (b *brokenReplay) Use(ctx context.Context, id string, until time.Time) (bool, error) {
	if b.down.Load() {
		return false, errors.New("the cache is down")
	}
	return b.ReplayCache.Use(ctx, id, until)
}

// TestDPoPRefusalsAreSeen checks that the refusals of a gate that takes
// DPoP are told as the others are, with their own reasons: a bad proof,
// a bound token sent as a bearer token, a 403 in the DPoP scheme, and
// the 503 of a replay cache that cannot be reached.
func TestDPoPRefusalsAreSeen(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		log, logs := NewLog()
		f, p := authtest.NewDPoPFixture(t)
		replay := &brokenReplay{ReplayCache: mcpserver.NewMemoryReplayCache()}
		f.Auth.DPoPOptions = &mcpserver.DPoPOptions{Replay: replay}
		s := m.new(mcprt.Identity{Name: "n", Version: "v"}, f.Tools...)
		s.logTo(log)
		var mu sync.Mutex
		var seen []string
		intercepts := s.use(func(ctx context.Context, req *mcpserver.Request, next mcpserver.Next) mcpserver.Outcome {
			out := next(ctx)
			if out.Refused != nil {
				who := ""
				if tok, ok := mcprt.Token(ctx); ok {
					who = tok.Subject
				}
				mu.Lock()
				seen = append(seen, fmt.Sprintf("%s %s %d %s %s", req.Method, req.Name, out.Refused.Status, out.Refused.Reason, who))
				mu.Unlock()
			}
			return out
		})
		c := authtest.Start(t, s.httpHandler(t, f.Auth, "2025-11-25"), "2025-11-25")
		c.DPoP(p)
		c.Init("alice-dpop")
		call := c.Request(1, "tools/call", "w")
		for _, tt := range []struct {
			name, token string
			edit        func(*http.Request)
			status      int
		}{
			{"no proof", "alice-dpop", func(r *http.Request) { r.Header.Del("DPoP") }, 401},
			{"bearer downgrade", "alice-dpop", func(r *http.Request) { r.Header.Set("Authorization", "Bearer alice-dpop") }, 401},
			{"scope", "alice-dpop-base", nil, 403},
			{"replay cache down", "alice-dpop", func(*http.Request) { replay.down.Store(true) }, 503},
		} {
			if resp := c.Do(http.MethodPost, call, tt.token, tt.edit); resp.StatusCode != tt.status {
				t.Fatalf("%s: status %d, want %d", tt.name, resp.StatusCode, tt.status)
			}
		}
		want := []string{
			"tools/call w 401 invalid_dpop_proof ",
			"tools/call w 401 invalid_token ",
			"tools/call w 403 insufficient_scope alice",
			"tools/call w 503 replay_cache ",
		}
		if !intercepts {
			for _, w := range want {
				f := strings.Fields(w)
				line := `msg="mcp request refused" method=` + f[0] + ` target=` + f[1] + ` status=` + f[2] + ` reason=` + f[3]
				if !strings.Contains(logs.String(), line) {
					t.Errorf("the log lacks %s:\n%s", line, logs)
				}
			}
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if strings.Join(seen, "\n") != strings.Join(want, "\n") {
			t.Errorf("the interceptors saw\n%s\nwant\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
		}
	})
}
