package gosdk

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/fixture"
	"github.com/mcpgen/mcpgen/internal/servertest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestCompletionsNeedTheSwitch checks that completion/complete is not a
// method on a server NewServer did not make: go-sdk takes its completion
// handler only when a server is made. Without EnableCompletions it is not
// one on any path (see internal/servertest).
func TestCompletionsNeedTheSwitch(t *testing.T) {
	t.Parallel()
	t.Run("caller's own", func(t *testing.T) {
		s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
		AddPrompts(s, fixture.CompletingPrompts()...)
		AddResources(s, fixture.CompletingResources()...)
		cs := connect(t, s, "2025-11-25", nil)
		if cs.InitializeResult().Capabilities.Completions != nil {
			t.Error("completions capability published")
		}
		_, err := cs.Complete(context.Background(), &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "show"}, Argument: mcp.CompleteParamsArgument{Name: "a"}})
		if got := servertest.RPCError(err); !strings.HasPrefix(got, "-32601 ") {
			t.Errorf("complete: %s, want -32601", got)
		}
	})
}

// TestCompletionsCapabilityPerRevision: the completions capability, which
// go-sdk publishes on every revision, is dropped on 2024-11-05, which has
// no completions, by the adapter's middleware.
func TestCompletionsCapabilityPerRevision(t *testing.T) {
	t.Parallel()
	s := NewServer(mcprt.Identity{Name: "t", Version: "1", EnableCompletions: true})
	for rev, want := range map[string]bool{"2024-11-05": false, "2025-03-26": true, "2025-11-25": true} {
		if got := connect(t, s, rev, nil).InitializeResult().Capabilities.Completions != nil; got != want {
			t.Errorf("%s: completions published %v, want %v", rev, got, want)
		}
	}
}
