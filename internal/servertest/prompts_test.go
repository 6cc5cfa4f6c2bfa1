package servertest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	. "github.com/mcpgen/mcpgen/internal/fixture"
	. "github.com/mcpgen/mcpgen/internal/servertest"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestPromptsAsTheBuiltInServer checks prompts/list and prompts/get
// against the built-in server's writers on every revision of the path:
// the descriptor and the messages trimmed per revision.
func TestPromptsAsTheBuiltInServer(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		s := m.new(mcprt.Identity{Name: "t", Version: "1"})
		s.addPrompts(Kinds)
		for _, rev := range m.revisions {
			t.Run(string(rev), func(t *testing.T) {
				c := s.raw(t, string(rev))
				SameJSON(t, "prompts/list", c.Call("prompts/list", `{}`),
					`{"prompts":[`+string(wire.AppendPrompt(nil, &Kinds, rev))+`]}`, m.listExtra...)
				res := KindsResult("Ada")
				SameJSON(t, "prompts/get", c.Call("prompts/get", `{"name":"kinds","arguments":{"who":"Ada","tone":"warm"}}`),
					string(wire.AppendPromptResult(nil, &res, rev)), m.readExtra...)
			})
		}
	})
}

// TestPromptsWithTheSDKClient lists and gets the prompt with go-sdk's
// client, which reads every content kind back.
func TestPromptsWithTheSDKClient(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		s := m.new(mcprt.Identity{Name: "t", Version: "1"})
		s.addPrompts(Kinds, Failing)
		cs := s.connect(t, "2025-11-25", nil)
		ctx := context.Background()
		list, err := cs.ListPrompts(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		i := 0 // kinds, added first
		if m.sorted {
			i = 1
		}
		if len(list.Prompts) != 2 || list.Prompts[i].Name != "kinds" || len(list.Prompts[i].Arguments) != 2 || !list.Prompts[i].Arguments[0].Required || list.Prompts[i].Arguments[0].Title != "Who" {
			t.Fatalf("prompts/list: %s", MustJSON(list.Prompts))
		}
		res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "kinds", Arguments: map[string]string{"who": "Ada"}})
		if err != nil {
			t.Fatal(err)
		}
		var kindsGot []string
		for _, m := range res.Messages {
			kindsGot = append(kindsGot, fmt.Sprintf("%s %T", m.Role, m.Content))
		}
		want := "assistant *mcp.TextContent,user *mcp.ImageContent,user *mcp.AudioContent,user *mcp.ResourceLink,user *mcp.EmbeddedResource,user *mcp.EmbeddedResource"
		if got := strings.Join(kindsGot, ","); got != want {
			t.Errorf("messages\n got %s\nwant %s", got, want)
		}
		if img := res.Messages[1].Content.(*mcp.ImageContent); string(img.Data) != string(PNGBytes()) {
			t.Errorf("image data %x", img.Data)
		}
		if blob := res.Messages[5].Content.(*mcp.EmbeddedResource).Resource; string(blob.Blob) != string(PNGBytes()) || blob.MIMEType != "image/png" {
			t.Errorf("embedded blob %+v", blob)
		}
	})
}

// TestPromptErrors checks the answers to argument errors, handler errors,
// panics and unknown prompts; after a panic the server keeps serving.
func TestPromptErrors(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		log, logs := NewLog()
		s := m.new(mcprt.Identity{Name: "t", Version: "1"})
		s.logTo(log)
		s.addPrompts(Kinds, Failing, Boom)
		cs := s.connect(t, "2025-11-25", nil)
		for _, tt := range []struct {
			name string
			want each
		}{
			// mcp-go answers every error of a prompt handler as -32603.
			{"kinds", each{builtin: "-32602 invalid arguments:\nwho: required argument is missing", gosdk: "-32602 invalid arguments:\nwho: required argument is missing",
				mcpgo: "-32603 invalid arguments:\nwho: required argument is missing"}},
			{"failing", all("-32603 template store unavailable")},
			{"boom", all(`-32603 internal error: prompt "boom" panicked: kaputt`)},
			{"nope", each{builtin: `-32602 invalid params: unknown prompt "nope"`, gosdk: `-32602 unknown prompt "nope"`, mcpgo: `-32602 prompt 'nope' not found: prompt not found`}},
		} {
			_, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: tt.name})
			if got := RPCError(err); got != tt.want.on(m) {
				t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want.on(m))
			}
		}
		if !strings.Contains(logs.String(), `"mcp prompt handler panicked" prompt=boom panic=kaputt`) {
			t.Errorf("the panic was not logged:\n%s", logs)
		}
		if _, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "kinds", Arguments: map[string]string{"who": "x"}}); err != nil {
			t.Errorf("after a panic: %v", err)
		}
	})
}

// TestPromptHandlersReachTheCaller checks that Get has a [mcprt.Caller]:
// it may log, as the identity allows.
func TestPromptHandlersReachTheCaller(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		logged := NewNotifications()
		s := m.new(mcprt.Identity{Name: "t", Version: "1", EnableLogging: true})
		s.addPrompts(mcprt.Prompt{Name: "logs", Description: "Logs.", Get: func(ctx context.Context, _ map[string]string) (mcprt.PromptResult, error) {
			return mcprt.PromptResult{}, mcprt.Log(ctx, mcprt.LevelInfo, "p", "rendering")
		}})
		cs := s.connect(t, "2025-11-25", &mcp.ClientOptions{LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			logged.Add(fmt.Sprint(req.Params.Data))
		}})
		if err := cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
			t.Fatal(err)
		}
		if _, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "logs"}); err != nil {
			t.Fatal(err)
		}
		logged.Wait(t, "log message")
		if got := logged.List(); len(got) != 1 || got[0] != "rendering" {
			t.Errorf("logged %q", got)
		}
	})
}

// TestPromptListChanged checks that adding prompts while serving sends
// notifications/prompts/list_changed with EnablePromptNotifications
// (go-sdk debounces them), and not without it.
func TestPromptListChanged(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		for _, on := range []bool{true, false} {
			t.Run(fmt.Sprint(on), func(t *testing.T) {
				changed := NewNotifications()
				s := m.new(mcprt.Identity{Name: "t", Version: "1", EnablePromptNotifications: on})
				n := 1
				if !m.emptyCapability {
					s.addPrompts(Failing)
					n++
				}
				cs := s.connect(t, "2025-11-25", &mcp.ClientOptions{PromptListChangedHandler: func(context.Context, *mcp.PromptListChangedRequest) {
					changed.Add("prompts")
				}})
				if got := cs.InitializeResult().Capabilities.Prompts; got == nil || got.ListChanged != on {
					t.Errorf("prompts capability %+v", got)
				}
				s.addPrompts(Kinds)
				if on {
					changed.Wait(t, "notifications/prompts/list_changed")
				} else {
					changed.None(t, "notifications/prompts/list_changed")
				}
				if list, err := cs.ListPrompts(context.Background(), nil); err != nil || len(list.Prompts) != n {
					t.Errorf("prompts/list after adding: %v, %v", list, err)
				}
			})
		}
	})
}
