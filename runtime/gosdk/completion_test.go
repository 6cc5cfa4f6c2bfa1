package gosdk

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// show completes with what it was asked: the argument, the value and the
// other arguments, sorted.
func show(ctx context.Context, argument, value string, args map[string]string) ([]string, error) {
	var ctxArgs []string
	for k, v := range args {
		ctxArgs = append(ctxArgs, k+"="+v)
	}
	sort.Strings(ctxArgs)
	return []string{argument, value, strings.Join(ctxArgs, "&")}, nil
}

// many completes with n values.
func many(n int) mcprt.Completer {
	return func(ctx context.Context, argument, value string, args map[string]string) ([]string, error) {
		values := make([]string, n)
		for i := range values {
			values[i] = fmt.Sprint(i)
		}
		return values, nil
	}
}

// completing adds prompts and templates whose completers show what they
// were asked, one of each without a completer, and completers that fail,
// panic and suggest too much.
func completing(s *mcp.Server) *mcp.Server {
	AddPrompts(s,
		mcprt.Prompt{Name: "show", Description: "Shows.", Complete: show},
		mcprt.Prompt{Name: "plain", Description: "No completer."},
		mcprt.Prompt{Name: "many", Description: "150 values.", Complete: many(150)},
		mcprt.Prompt{Name: "hundred", Description: "100 values.", Complete: many(100)},
		mcprt.Prompt{Name: "failing", Description: "Fails.", Complete: func(context.Context, string, string, map[string]string) ([]string, error) {
			return nil, errors.New("index unavailable")
		}},
		mcprt.Prompt{Name: "boom", Description: "Panics.", Complete: func(context.Context, string, string, map[string]string) ([]string, error) {
			panic("kaputt")
		}},
	)
	AddResources(s,
		mcprt.Resource{URI: "kb://articles/{id}", Name: "article", Complete: show},
		mcprt.Resource{URI: "kb://index", Name: "index"},
	)
	return s
}

func TestCompletions(t *testing.T) {
	logs := quietLog(t)
	s := completing(NewServer(mcprt.Identity{Name: "t", Version: "1", EnableCompletions: true}))
	cs := connect(t, s, "2025-11-25", nil)
	if cs.InitializeResult().Capabilities.Completions == nil {
		t.Error("no completions capability")
	}
	ask := func(ref *mcp.CompleteReference, ctxArgs map[string]string) string {
		p := &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: "lang", Value: "g"}}
		if ctxArgs != nil {
			p.Context = &mcp.CompleteContext{Arguments: ctxArgs}
		}
		res, err := cs.Complete(context.Background(), p)
		if err != nil {
			return rpcError(err)
		}
		c := res.Completion
		return fmt.Sprintf("%d values %q... total %d hasMore %v", len(c.Values), c.Values[:min(len(c.Values), 3)], c.Total, c.HasMore)
	}
	prompt := func(name string) *mcp.CompleteReference {
		return &mcp.CompleteReference{Type: "ref/prompt", Name: name}
	}
	resource := func(uri string) *mcp.CompleteReference { return &mcp.CompleteReference{Type: "ref/resource", URI: uri} }
	for _, tt := range []struct {
		name string
		ref  *mcp.CompleteReference
		args map[string]string
		want string
	}{
		{"prompt with context", prompt("show"), map[string]string{"b": "2", "a": "1"}, `3 values ["lang" "g" "a=1&b=2"]... total 3 hasMore false`},
		{"prompt without context", prompt("show"), nil, `3 values ["lang" "g" ""]... total 3 hasMore false`},
		{"template", resource("kb://articles/{id}"), map[string]string{"x": "y"}, `3 values ["lang" "g" "x=y"]... total 3 hasMore false`},
		{"no completer", prompt("plain"), nil, `0 values []... total 0 hasMore false`},
		{"resource without completer", resource("kb://index"), nil, `0 values []... total 0 hasMore false`},
		{"more than 100", prompt("many"), nil, `100 values ["0" "1" "2"]... total 150 hasMore true`},
		{"exactly 100", prompt("hundred"), nil, `100 values ["0" "1" "2"]... total 100 hasMore false`},
		{"completer error", prompt("failing"), nil, `-32603 index unavailable`},
		{"completer panic", prompt("boom"), nil, `-32603 internal error: prompt completion "boom" panicked: kaputt`},
		{"unknown prompt", prompt("nope"), nil, `-32602 invalid params: unknown prompt "nope"`},
		{"unknown resource", resource("kb://nope"), nil, `-32602 invalid params: unknown resource "kb://nope"`},
	} {
		if got := ask(tt.ref, tt.args); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
	if !strings.Contains(logs.String(), `"mcp prompt completion handler panicked" "prompt completion"=boom panic=kaputt`) {
		t.Errorf("the panic was not logged:\n%s", logs)
	}
}

// TestCompletionsNeedTheSwitch checks that completion/complete is not a
// method without EnableCompletions, nor on a server NewServer did not
// make (go-sdk takes its completion handler only when a server is made).
func TestCompletionsNeedTheSwitch(t *testing.T) {
	for name, s := range map[string]*mcp.Server{
		"switch off":   NewServer(mcprt.Identity{Name: "t", Version: "1"}),
		"caller's own": mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil),
	} {
		t.Run(name, func(t *testing.T) {
			cs := connect(t, completing(s), "2025-11-25", nil)
			if cs.InitializeResult().Capabilities.Completions != nil {
				t.Error("completions capability published")
			}
			_, err := cs.Complete(context.Background(), &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "show"}, Argument: mcp.CompleteParamsArgument{Name: "a"}})
			if got := rpcError(err); !strings.HasPrefix(got, "-32601 ") {
				t.Errorf("complete: %s, want -32601", got)
			}
		})
	}
}

// TestCompletionsCapabilityPerRevision: the completions capability, which
// go-sdk publishes on every revision, is dropped on 2024-11-05, which has
// no completions, by the adapter's middleware.
func TestCompletionsCapabilityPerRevision(t *testing.T) {
	s := NewServer(mcprt.Identity{Name: "t", Version: "1", EnableCompletions: true})
	for rev, want := range map[string]bool{"2024-11-05": false, "2025-03-26": true, "2025-11-25": true} {
		if got := connect(t, s, rev, nil).InitializeResult().Capabilities.Completions != nil; got != want {
			t.Errorf("%s: completions published %v, want %v", rev, got, want)
		}
	}
}
