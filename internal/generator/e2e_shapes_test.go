package generator

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// shapesMain serves the shapes case on the server path named by -sdk, with
// logging, elicitation and sampling enabled.
const shapesMain = `package main

import (
	"context"
	"flag"
	"log"
	"os"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	shapes "example.com/e2e"
	"github.com/mcpgen/mcpgen/runtime/gosdk"
	"github.com/mcpgen/mcpgen/runtime/mcpgo"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

func main() {
	sdk := flag.String("sdk", "builtin", "server path: builtin, gosdk or mcpgo")
	flag.Parse()
	tools := append(shapes.MCPTools(), (&shapes.Counter{}).MCPTools()...)
	id := mcprt.Identity{Name: "shapes", Version: "1", EnableLogging: true, EnableElicitation: true, EnableSampling: true}
	ctx := context.Background()
	var err error
	switch *sdk {
	case "builtin":
		err = mcpserver.New(id, tools...).ServeStdio(ctx)
	case "gosdk":
		err = gosdk.NewServer(id, tools...).Run(ctx, &mcp.StdioTransport{})
	case "mcpgo":
		err = mcpgoserver.NewStdioServer(mcpgo.NewServer(id, tools...)).Listen(ctx, os.Stdin, os.Stdout)
	default:
		log.Fatalf("unknown -sdk %q", *sdk)
	}
	if err != nil {
		log.Fatal(err)
	}
}
`

// TestEndToEndShapes serves the shapes golden case on each server path and
// calls one tool of each shape: structured output, a returned error, a
// panic (the server keeps serving), full-control results, a method bound to
// a receiver, and handlers that report progress, log, elicit and sample.
func TestEndToEndShapes(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a server")
	}
	b := sharedModule(t)
	bin, listJSON := b.binary("shapes-server"), b.list["shapes"]

	for _, p := range serverPaths {
		t.Run(p.name, func(t *testing.T) {
			newCmd := func() *exec.Cmd { return exec.Command(bin, "-sdk", p.name) }
			t.Run("behaviour", func(t *testing.T) { behaviour(t, newCmd, listJSON, p, shapesSuite) })
			t.Run("shapes", func(t *testing.T) { shapesBehaviour(t, exec.Command(bin, "-sdk", p.name), listJSON, p) })
			t.Run("caller", func(t *testing.T) {
				callerBehaviour(t, func() *exec.Cmd { return exec.Command(bin, "-sdk", p.name) }, p.name)
			})
		})
	}
}

// connect starts cmd and connects client to it.
func connect(t *testing.T, client *mcp.Client, cmd *exec.Cmd, opts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	session, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { session.Close() })
	return session
}

// checkStructured checks a structured result the way a client would: its
// structuredContent validates against the output schema the server listed
// for the tool, in an independent validator, and its text block holds the
// same JSON value (inside {"result": ...} when the value is wrapped).
func checkStructured(t *testing.T, session *mcp.ClientSession, name string, res *mcp.CallToolResult) {
	t.Helper()
	list, err := session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var schema []byte
	for _, tool := range list.Tools {
		if tool.Name == name {
			schema, _ = json.Marshal(tool.OutputSchema)
		}
	}
	structured, _ := json.Marshal(res.StructuredContent)
	compiled := compileSchema(t, name+".output", schema)
	doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(structured))
	if err := compiled.Validate(doc); err != nil {
		t.Errorf("%s: structuredContent %s does not validate against the listed output schema %s: %v", name, structured, schema, err)
	}
	var fromText, fromStructured any
	if err := json.Unmarshal([]byte(resultText(res)), &fromText); err != nil {
		t.Fatalf("%s: the text block is not JSON: %v", name, err)
	}
	json.Unmarshal(structured, &fromStructured)
	if m, ok := fromStructured.(map[string]any); ok && len(m) == 1 && m["result"] != nil {
		if _, isObject := fromText.(map[string]any); !isObject {
			fromStructured = m["result"]
		}
	}
	if diff := cmp.Diff(fromText, fromStructured); diff != "" {
		t.Errorf("%s: text block and structuredContent differ (-text +structured):\n%s", name, diff)
	}
}

// callTool calls a tool and fails the test on a protocol error.
func callTool(t *testing.T, session *mcp.ClientSession, params *mcp.CallToolParams) *mcp.CallToolResult {
	t.Helper()
	res, err := session.CallTool(context.Background(), params)
	if err != nil {
		t.Fatalf("CallTool %s: %v", params.Name, err)
	}
	return res
}

func shapesBehaviour(t *testing.T, cmd *exec.Cmd, listJSON string, p serverPath) {
	session := connect(t, mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil), cmd, nil)
	call := func(name, args string) *mcp.CallToolResult {
		t.Helper()
		return callTool(t, session, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	}
	checkList(t, context.Background(), session, listJSON, p)

	res := call("measure", `{"x":3,"y":"4"}`)
	if res.IsError || resultText(res) != `{"value":25,"unit":"square units"}` {
		t.Errorf("measure: isError=%v text %q", res.IsError, resultText(res))
	}
	if js, _ := json.Marshal(res.StructuredContent); string(js) != `{"unit":"square units","value":25}` && string(js) != `{"value":25,"unit":"square units"}` {
		t.Errorf("measure: structuredContent %s", js)
	}
	res = call("nearby", `{"n":2}`)
	if res.IsError || resultText(res) != `[{"x":0,"y":0},{"x":1,"y":1}]` {
		t.Errorf("nearby: isError=%v text %q", res.IsError, resultText(res))
	}
	for _, name := range []string{"measure", "nearby", "regions"} {
		args := map[string]string{"measure": `{"x":3,"y":4}`, "nearby": `{"n":3}`, "regions": `{}`}[name]
		checkStructured(t, session, name, call(name, args))
	}
	// An mcprt.Structured result: the text block is its Text, the
	// structured content its Value; without a Text, the JSON.
	res = call("read_file", `{"name":"a.txt"}`)
	if js, _ := json.Marshal(res.StructuredContent); res.IsError || resultText(res) != "line 1\n\"line\" 2\n" || string(js) != `{"lines":2,"name":"a.txt","tags":[],"text":"line 1\n\"line\" 2\n"}` {
		t.Errorf("read_file: isError=%v text %q structuredContent %s", res.IsError, resultText(res), js)
	}
	checkStructured(t, session, "read_file", call("read_file", `{"name":"empty"}`))
	if res := call("fail", `{}`); !res.IsError || resultText(res) != "it failed" {
		t.Errorf("fail: isError=%v text %q, want the handler's error", res.IsError, resultText(res))
	}
	if res := call("panic", `{}`); !res.IsError || !strings.Contains(resultText(res), "panicked: boom") {
		t.Errorf("panic: isError=%v text %q, want a recovered panic", res.IsError, resultText(res))
	}
	if res := call("repeat.word", `{"word":"ab","times":2}`); res.IsError || resultText(res) != "abab" {
		t.Errorf("repeat.word after a panic: isError=%v text %q", res.IsError, resultText(res))
	}
	if res := call("repeat.word", `{"word":"","times":11}`); !res.IsError || resultText(res) != "invalid arguments:\nword: 0 characters, fewer than the minimum length 1\ntimes: 11 is greater than the maximum 10" {
		t.Errorf("repeat.word out of bounds: isError=%v text %q", res.IsError, resultText(res))
	}
	res = call("picture", `{}`)
	if img, ok := res.Content[len(res.Content)-1].(*mcp.ImageContent); !ok || img.MIMEType != "image/png" || string(img.Data) != "\x01\x02\x03" || resultText(res) != "a dot" {
		t.Errorf("picture: content %+v, want a text and a 3-byte PNG", res.Content)
	}
	call("add", `{"by":1}`)
	if res := call("add", `{"by":2}`); resultText(res) != "3" {
		t.Errorf("add on a bound receiver: %q, want 3", resultText(res))
	}
	// This client declared neither elicitation nor sampling. It speaks
	// 2026-07-28, on which the built-in server and go-sdk answer a call
	// that fails for a capability the client lacks with
	// MissingRequiredClientCapability; mcp-go answers an isError result
	// naming it (docs/adapters.md).
	res, err := session.CallTool(context.Background(), &mcp.CallToolParams{Name: "ask", Arguments: json.RawMessage(`{"question":"colour?"}`)})
	var rpcErr *jsonrpc.Error
	switch {
	case p.name != "mcpgo":
		if !errors.As(err, &rpcErr) || rpcErr.Code != -32021 || !strings.Contains(string(rpcErr.Data), `"elicitation"`) {
			t.Errorf("ask without the elicitation capability: %v, want error -32021 naming elicitation", err)
		}
	case err != nil || !res.IsError || !strings.Contains(resultText(res), "elicitation"):
		t.Errorf("ask without the elicitation capability: %v %+v, want an isError result about elicitation", err, res)
	}
}

// notes records what a client receives from the server beside results.
type notes struct {
	mu       sync.Mutex
	changed  chan struct{}
	progress []string
	logs     []string
	elicited []string
	sampled  []string
}

func (n *notes) add(list *[]string, v any) {
	js, _ := json.Marshal(v)
	n.mu.Lock()
	*list = append(*list, string(js))
	n.mu.Unlock()
	select {
	case n.changed <- struct{}{}:
	default:
	}
}

// wait waits until there are at least nProgress progress notifications and
// nLogs log messages, or fails the test after a generous deadline.
func (n *notes) wait(t *testing.T, nProgress, nLogs int) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		n.mu.Lock()
		done := len(n.progress) >= nProgress && len(n.logs) >= nLogs
		n.mu.Unlock()
		if done {
			return
		}
		select {
		case <-n.changed:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("waiting for %d progress notifications and %d log messages: got %q and %q", nProgress, nLogs, n.progress, n.logs)
		}
	}
}

// callerClient is a client that answers elicitation (accept with an
// answer, decline when the message is "decline?", an answer that does not
// fit the form when it is "bad?") and sampling, and
// records every request and notification it receives.
func callerClient(n *notes) *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			n.add(&n.elicited, map[string]any{"message": req.Params.Message, "schema": req.Params.RequestedSchema})
			switch req.Params.Message {
			case "decline?":
				return &mcp.ElicitResult{Action: "decline"}, nil
			case "bad?":
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"answer": 5, "extra": 1}}, nil
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"answer": "blue", "sure": true}}, nil
		},
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			n.add(&n.sampled, req.Params)
			return &mcp.CreateMessageResult{Role: "assistant", Model: "m1", Content: &mcp.TextContent{Text: "nice"}}, nil
		},
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			n.add(&n.progress, req.Params)
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			n.add(&n.logs, req.Params)
		},
	})
}

// callerBehaviour drives the handler ctx API with a client that answers
// elicitation and sampling and receives progress and log messages. It
// speaks 2025-11-25: 2026-07-28 has no server-to-client requests, and
// no logging/setLevel.
func callerBehaviour(t *testing.T, cmd func() *exec.Cmd, path string) {
	n := &notes{changed: make(chan struct{}, 1)}
	session := connect(t, callerClient(n), cmd(), &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	ctx := context.Background()
	if err := session.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	// Without a progress token: logs, but no progress notifications.
	if res := callTool(t, session, &mcp.CallToolParams{Name: "work", Arguments: json.RawMessage(`{"steps":2}`)}); res.IsError || resultText(res) != "did 2 steps" {
		t.Fatalf("work: isError=%v text %q", res.IsError, resultText(res))
	}
	params := &mcp.CallToolParams{Name: "work", Arguments: json.RawMessage(`{"steps":"3"}`)}
	params.SetProgressToken("tok")
	if res := callTool(t, session, params); res.IsError || resultText(res) != "did 3 steps" {
		t.Fatalf("work with a progress token: isError=%v text %q", res.IsError, resultText(res))
	}
	n.wait(t, 3, 5)
	n.mu.Lock()
	progress, logs := strings.Join(n.progress, "\n"), strings.Join(n.logs, "\n")
	n.mu.Unlock()
	wantProgress := `{"progressToken":"tok","message":"step 1","progress":1,"total":3}
{"progressToken":"tok","message":"step 2","progress":2,"total":3}
{"progressToken":"tok","message":"step 3","progress":3,"total":3}`
	if progress != wantProgress {
		t.Errorf("progress notifications:\n%s\nwant\n%s", progress, wantProgress)
	}
	var wantLogs []string
	for _, step := range []int{1, 2, 1, 2, 3} {
		wantLogs = append(wantLogs, fmt.Sprintf(`{"data":{"step":%d},"level":"info","logger":"work"}`, step))
	}
	if logs != strings.Join(wantLogs, "\n") {
		t.Errorf("log messages at level info (debug ones filtered out):\n%s\nwant\n%s", logs, strings.Join(wantLogs, "\n"))
	}

	if res := callTool(t, session, &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{"question": "colour?"}}); res.IsError || resultText(res) != `answer "blue" (sure: true); m1 says "nice" (assistant)` {
		t.Errorf("ask: isError=%v text %q", res.IsError, resultText(res))
	}
	if res := callTool(t, session, &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{"question": "decline?"}}); res.IsError || resultText(res) != "the user chose decline" {
		t.Errorf("ask, declined: isError=%v text %q", res.IsError, resultText(res))
	}
	// The go-sdk client checks its own answer against the requested schema
	// and refuses to send one that does not fit, on every server path; the
	// generated form decoder's messages are tested in runtime/mcprt.
	res := callTool(t, session, &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{"question": "bad?"}})
	if !res.IsError || !strings.Contains(resultText(res), "does not match requested schema") {
		t.Errorf("ask, answered badly, on %s: isError=%v text %q", path, res.IsError, resultText(res))
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	form := `{"properties":{"answer":{"description":"The answer","minLength":1,"type":"string"},"sure":{"description":"Whether the user is sure","type":"boolean"}},"required":["answer"],"type":"object"}`
	wantElicited := []string{
		`{"message":"colour?","schema":` + form + `}`,
		`{"message":"decline?","schema":` + form + `}`,
		`{"message":"bad?","schema":` + form + `}`,
	}
	if diff := cmp.Diff(wantElicited, n.elicited); diff != "" {
		t.Errorf("elicitation requests (-want +got):\n%s", diff)
	}
	wantSampled := []string{`{"maxTokens":50,"messages":[{"content":{"type":"text","text":"Comment on blue"},"role":"user"}],"systemPrompt":"Be brief."}`}
	if diff := cmp.Diff(wantSampled, n.sampled); diff != "" {
		t.Errorf("sampling requests (-want +got):\n%s", diff)
	}
}
