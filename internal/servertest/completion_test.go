package servertest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	. "github.com/mcpgen/mcpgen/internal/fixture"
	. "github.com/mcpgen/mcpgen/internal/servertest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// complete asks cs to complete the argument "lang" of ref, and describes
// the answer.
func complete(cs *mcp.ClientSession, ref *mcp.CompleteReference, ctxArgs map[string]string) string {
	p := &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: "lang", Value: "g"}}
	if ctxArgs != nil {
		p.Context = &mcp.CompleteContext{Arguments: ctxArgs}
	}
	res, err := cs.Complete(context.Background(), p)
	if err != nil {
		return RPCError(err)
	}
	c := res.Completion
	return fmt.Sprintf("%d values %q... total %d hasMore %v", len(c.Values), c.Values[:min(len(c.Values), 3)], c.Total, c.HasMore)
}

func promptRef(name string) *mcp.CompleteReference {
	return &mcp.CompleteReference{Type: "ref/prompt", Name: name}
}

func resourceRef(uri string) *mcp.CompleteReference {
	return &mcp.CompleteReference{Type: "ref/resource", URI: uri}
}

// completing adds prompts and templates whose completers show what they
// were asked, one of each without a completer, and completers that fail,
// panic and suggest too much.
func completing(s pathServer) pathServer {
	s.addPrompts(CompletingPrompts()...)
	s.addResources(CompletingResources()...)
	return s
}

func TestCompletions(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		log, logs := NewLog()
		s := m.new(mcprt.Identity{Name: "t", Version: "1", EnableCompletions: true})
		s.logTo(log)
		cs := completing(s).connect(t, "2025-11-25", nil)
		if cs.InitializeResult().Capabilities.Completions == nil {
			t.Error("no completions capability")
		}
		for _, tt := range []struct {
			name string
			ref  *mcp.CompleteReference
			args map[string]string
			want each
		}{
			{"prompt with context", promptRef("show"), map[string]string{"b": "2", "a": "1"}, all(`3 values ["lang" "g" "a=1&b=2"]... total 3 hasMore false`)},
			{"prompt without context", promptRef("show"), nil, all(`3 values ["lang" "g" ""]... total 3 hasMore false`)},
			{"template", resourceRef("kb://articles/{id}"), map[string]string{"x": "y"}, all(`3 values ["lang" "g" "x=y"]... total 3 hasMore false`)},
			{"no completer", promptRef("plain"), nil, all(`0 values []... total 0 hasMore false`)},
			{"resource without completer", resourceRef("kb://index"), nil, all(`0 values []... total 0 hasMore false`)},
			{"more than 100", promptRef("many"), nil, all(`100 values ["0" "1" "2"]... total 150 hasMore true`)},
			{"exactly 100", promptRef("hundred"), nil, all(`100 values ["0" "1" "2"]... total 100 hasMore false`)},
			{"completer error", promptRef("failing"), nil, all(`-32603 index unavailable`)},
			{"completer panic", promptRef("boom"), nil, all(`-32603 internal error: prompt completion "boom" panicked: kaputt`)},
			// mcp-go answers every error of a completion provider as -32603.
			{"unknown prompt", promptRef("nope"), nil, each{builtin: `-32602 invalid params: unknown prompt "nope"`, gosdk: `-32602 invalid params: unknown prompt "nope"`,
				mcpgo: `-32603 invalid params: unknown prompt "nope"`}},
			{"unknown resource", resourceRef("kb://nope"), nil, each{builtin: `-32602 invalid params: unknown resource "kb://nope"`, gosdk: `-32602 invalid params: unknown resource "kb://nope"`,
				mcpgo: `-32603 invalid params: unknown resource "kb://nope"`}},
		} {
			if got := complete(cs, tt.ref, tt.args); got != tt.want.on(m) {
				t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want.on(m))
			}
		}
		if !strings.Contains(logs.String(), `"mcp prompt completion handler panicked" "prompt completion"=boom panic=kaputt`) {
			t.Errorf("the panic was not logged:\n%s", logs)
		}
	})
}

// TestCompletionsNeedTheSwitch checks that completion/complete is not a
// method without EnableCompletions.
func TestCompletionsNeedTheSwitch(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		cs := completing(m.new(mcprt.Identity{Name: "t", Version: "1"})).connect(t, "2025-11-25", nil)
		if cs.InitializeResult().Capabilities.Completions != nil {
			t.Error("completions capability published")
		}
		if got := complete(cs, promptRef("show"), nil); !strings.HasPrefix(got, "-32601 ") {
			t.Errorf("complete: %s, want -32601", got)
		}
	})
}
