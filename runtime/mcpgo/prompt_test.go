package mcpgo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

var priority = 0.5

// kindsResult is a rendered prompt with a message of every content kind.
func kindsResult(who string) mcprt.PromptResult {
	return mcprt.PromptResult{Description: "Greets " + who, Messages: []mcprt.PromptMessage{
		{Role: mcprt.RoleAssistant, Content: mcprt.Text("Hello, " + who).With(mcprt.Annotations{Audience: []string{"user"}, Priority: &priority, LastModified: "2026-01-02T15:04:05Z"})},
		{Content: mcprt.Image(pngBytes(), "image/png")}, // no role: the user's
		{Role: mcprt.RoleUser, Content: mcprt.Audio([]byte{1, 2, 3}, "audio/wav")},
		{Role: mcprt.RoleUser, Content: mcprt.Content{Type: mcprt.TypeResourceLink, URI: "kb://a", Name: "a", Description: "Article a", MIMEType: "text/markdown"}},
		{Role: mcprt.RoleUser, Content: mcprt.TextResource("kb://b", "text/plain", "embedded")},
		{Role: mcprt.RoleUser, Content: mcprt.BlobResource("kb://c", "image/png", pngBytes())},
	}}
}

// missing is the error generated code returns for a required argument
// the client left out.
func missing(name string) error {
	return &mcpimpl.ArgumentError{Problems: []mcpimpl.Problem{{Path: name, Message: "required argument is missing"}}}
}

// kinds renders kindsResult for its required argument "who".
var kinds = mcprt.Prompt{
	Name: "kinds", Title: "Every kind", Description: "A message of every content kind.",
	Arguments: []mcprt.PromptArgument{{Name: "who", Title: "Who", Description: "Whom to greet.", Required: true}, {Name: "tone"}},
	Icons:     []mcprt.Icon{{Src: "https://example.com/k.png", MIMEType: "image/png", Sizes: []string{"48x48"}}},
	Get: func(ctx context.Context, args map[string]string) (mcprt.PromptResult, error) {
		who, ok := args["who"]
		if !ok {
			return mcprt.PromptResult{}, missing("who")
		}
		return kindsResult(who), nil
	},
}

// failing prompts: one whose Get fails, one that panics.
var (
	failing = mcprt.Prompt{Name: "failing", Description: "Fails.", Get: func(context.Context, map[string]string) (mcprt.PromptResult, error) {
		return mcprt.PromptResult{}, errors.New("template store unavailable")
	}}
	boom = mcprt.Prompt{Name: "boom", Description: "Panics.", Get: func(context.Context, map[string]string) (mcprt.PromptResult, error) {
		panic("kaputt")
	}}
)

// TestPromptsAsTheBuiltInServer checks prompts/list and prompts/get
// against the built-in server's writers on every revision: the descriptor
// and the messages trimmed per revision.
func TestPromptsAsTheBuiltInServer(t *testing.T) {
	s := NewServer(mcprt.Identity{Name: "t", Version: "1"})
	AddPrompts(s, kinds)
	for _, rev := range wire.Revisions {
		t.Run(string(rev), func(t *testing.T) {
			sameJSON(t, "prompts/list", call(t, s, string(rev), "prompts/list", `{}`),
				`{"prompts":[`+string(wire.AppendPrompt(nil, &kinds, rev))+`]}`, statelessMembers...)
			res := kindsResult("Ada")
			sameJSON(t, "prompts/get", call(t, s, string(rev), "prompts/get", `{"name":"kinds","arguments":{"who":"Ada","tone":"warm"}}`),
				string(wire.AppendPromptResult(nil, &res, rev)), statelessMembers...)
		})
	}
}

// TestPromptsWithTheSDKClient lists and gets the prompt with the official
// Go SDK's client over Streamable HTTP; it reads every content kind back.
func TestPromptsWithTheSDKClient(t *testing.T) {
	s := NewServer(mcprt.Identity{Name: "t", Version: "1"})
	AddPrompts(s, kinds, failing)
	cs := connect(t, s, "2025-11-25", nil)
	ctx := context.Background()
	list, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Prompts) != 2 || list.Prompts[1].Name != "kinds" || len(list.Prompts[1].Arguments) != 2 || !list.Prompts[1].Arguments[0].Required || list.Prompts[1].Arguments[0].Title != "Who" {
		t.Fatalf("prompts/list: %+v", list.Prompts)
	}
	res, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "kinds", Arguments: map[string]string{"who": "Ada"}})
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
	if img := res.Messages[1].Content.(*sdk.ImageContent); string(img.Data) != string(pngBytes()) {
		t.Errorf("image data %x", img.Data)
	}
	if blob := res.Messages[5].Content.(*sdk.EmbeddedResource).Resource; string(blob.Blob) != string(pngBytes()) || blob.MIMEType != "image/png" {
		t.Errorf("embedded blob %+v", blob)
	}
}

// TestPromptErrors checks the answers to argument errors, handler errors,
// panics and unknown prompts; after a panic the server keeps serving.
// mcp-go answers every error of a prompt handler as -32603 (see
// TestDifferences).
func TestPromptErrors(t *testing.T) {
	logs := quietLog(t)
	s := NewServer(mcprt.Identity{Name: "t", Version: "1"})
	AddPrompts(s, kinds, failing, boom)
	cs := connect(t, s, "2025-11-25", nil)
	for _, tt := range []struct{ name, want string }{
		{"kinds", "-32603 invalid arguments:\nwho: required argument is missing"},
		{"failing", "-32603 template store unavailable"},
		{"boom", `-32603 internal error: prompt "boom" panicked: kaputt`},
		{"nope", `-32602 prompt 'nope' not found: prompt not found`},
	} {
		_, err := cs.GetPrompt(context.Background(), &sdk.GetPromptParams{Name: tt.name})
		if got := rpcError(err); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
	if !strings.Contains(logs.String(), `"mcp prompt handler panicked" prompt=boom panic=kaputt`) {
		t.Errorf("the panic was not logged:\n%s", logs)
	}
	if _, err := cs.GetPrompt(context.Background(), &sdk.GetPromptParams{Name: "kinds", Arguments: map[string]string{"who": "x"}}); err != nil {
		t.Errorf("after a panic: %v", err)
	}
}

// TestPromptHandlersReachTheCaller checks that Get has a [mcprt.Caller]:
// it may log, as the identity allows.
func TestPromptHandlersReachTheCaller(t *testing.T) {
	logged := newNotifications()
	s := NewServer(mcprt.Identity{Name: "t", Version: "1", EnableLogging: true})
	AddPrompts(s, mcprt.Prompt{Name: "logs", Description: "Logs.", Get: func(ctx context.Context, _ map[string]string) (mcprt.PromptResult, error) {
		return mcprt.PromptResult{}, mcprt.Log(ctx, mcprt.LevelInfo, "p", "rendering")
	}})
	cs := connect(t, s, "2025-11-25", &sdk.ClientOptions{LoggingMessageHandler: func(_ context.Context, req *sdk.LoggingMessageRequest) {
		logged.add(fmt.Sprint(req.Params.Data))
	}})
	if err := cs.SetLoggingLevel(context.Background(), &sdk.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.GetPrompt(context.Background(), &sdk.GetPromptParams{Name: "logs"}); err != nil {
		t.Fatal(err)
	}
	logged.wait(t, "log message")
	if got := logged.list(); len(got) != 1 || got[0] != "rendering" {
		t.Errorf("logged %q", got)
	}
}

// TestPromptListChanged checks that adding prompts while serving sends
// notifications/prompts/list_changed with EnablePromptNotifications, and
// not without it.
func TestPromptListChanged(t *testing.T) {
	for _, on := range []bool{true, false} {
		t.Run(fmt.Sprint(on), func(t *testing.T) {
			changed := newNotifications()
			s := NewServer(mcprt.Identity{Name: "t", Version: "1", EnablePromptNotifications: on})
			AddPrompts(s, failing) // mcp-go publishes prompts once there are some
			cs := connect(t, s, "2025-11-25", &sdk.ClientOptions{PromptListChangedHandler: func(context.Context, *sdk.PromptListChangedRequest) {
				changed.add("prompts")
			}})
			if got := cs.InitializeResult().Capabilities.Prompts; got == nil || got.ListChanged != on {
				t.Errorf("prompts capability %+v", got)
			}
			AddPrompts(s, kinds)
			if on {
				changed.wait(t, "notifications/prompts/list_changed")
			} else {
				changed.none(t, "notifications/prompts/list_changed")
			}
			if list, err := cs.ListPrompts(context.Background(), nil); err != nil || len(list.Prompts) != 2 {
				t.Errorf("prompts/list after adding: %v, %v", list, err)
			}
		})
	}
}

// TestAddingNothing checks that adding no prompts and no resources
// publishes neither capability: mcp-go would publish one for an empty
// addition.
func TestAddingNothing(t *testing.T) {
	s := NewServer(mcprt.Identity{Name: "t", Version: "1"})
	AddPrompts(s)
	AddResources(s)
	got := call(t, s, "2025-11-25", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
	if strings.Contains(got, `"prompts"`) || strings.Contains(got, `"resources"`) {
		t.Errorf("initialize: %s", got)
	}
}
