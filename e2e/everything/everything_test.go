// Package everything_test calls every tool, prompt and resource template
// of the MCP reference server @modelcontextprotocol/server-everything
// (the version package.json pins; npm ci installs it) through the
// client generated from it, examples/everything, over stdio and over
// Streamable HTTP. It is skipped under -short, and where node or the
// installed server is missing, unless CI is set.
package everything_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/examples/everything"
	"github.com/mcpgen/mcpgen/internal/generator"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// entry is the server's program, as npm ci installs it here.
var entry = filepath.Join("node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")

// nodeAndServer returns node's path, or skips the test where node or
// the server is missing and CI is unset.
func nodeAndServer(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("starts the reference server")
	}
	missing := func(what string) {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s (CI is set)", what)
		}
		t.Skip(what)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed")
	}
	if _, err := os.Stat(entry); err != nil {
		missing("the reference server is not installed: run npm ci in e2e/everything")
	}
	return node
}

// options answer what the server's tools ask: roots, a sample, a form
// and a URL to open.
func options() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{
			RootsV2:     &mcp.RootCapabilities{},
			Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}},
		},
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Role: "assistant", Model: "test-model", Content: &mcp.TextContent{Text: "a sampled answer"}}, nil
		},
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			if req.Params.Mode == "url" {
				return &mcp.ElicitResult{Action: "accept"}, nil
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada Lovelace", "check": true}}, nil
		},
	}
}

// connect connects go-sdk's client with options over transport.
func connect(t *testing.T, transport mcp.Transport) *everything.Client {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "mcpgen-everything-test", Version: "1"}, options())
	c.AddRoots(&mcp.Root{URI: "file:///tmp/everything", Name: "scratch"})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return everything.NewClient(cs)
}

func TestStdio(t *testing.T) {
	t.Parallel()
	node := nodeAndServer(t)
	callAll(t, connect(t, &mcp.CommandTransport{Command: exec.Command(node, entry, "stdio")}))
}

func TestStreamableHTTP(t *testing.T) {
	t.Parallel()
	node := nodeAndServer(t)
	port := freePort(t)
	cmd := exec.Command(node, entry, "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+port)
	var logs bytes.Buffer // the server logs every request: shown when the test fails
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("the server wrote:\n%s", logs.String())
		}
	})
	addr := "127.0.0.1:" + port
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if conn, err := net.Dial("tcp", addr); err == nil {
			conn.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server did not listen on %s", addr)
		}
	}
	callAll(t, connect(t, &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp"}))
	// The listing over HTTP is the one the client was made from over
	// stdio: -check -from the URL finds no change.
	var stdout, stderr bytes.Buffer
	code := generator.Main([]string{"-C", filepath.Join("..", "..", "examples", "everything"), "-check", "-client=.", "-from=http://" + addr + "/mcp"}, &stdout, &stderr)
	if code != generator.ExitOK || stdout.Len() > 0 {
		t.Errorf("mcpgen -check -client -from %s: exit %d\n%s%s", addr, code, stdout.String(), stderr.String())
	}
}

// TestClientIsCurrent checks the committed client against the live
// server, as CI runs it: mcpgen -check -from reports no change that
// breaks it, and the client is what its saved listing makes.
func TestClientIsCurrent(t *testing.T) {
	t.Parallel()
	node := nodeAndServer(t)
	abs, err := filepath.Abs(entry)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := generator.Main([]string{"-C", filepath.Join("..", "..", "examples", "everything"), "-check", "-client=.", "-from=" + node + " " + abs + " stdio"}, &stdout, &stderr)
	if code != generator.ExitOK || stdout.Len() > 0 {
		t.Errorf("mcpgen -check -client -from the live server: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
}

// text is the text of a result's text blocks.
func text(r mcprt.Result) string {
	var parts []string
	for _, c := range r.Content {
		if c.Type == mcprt.TypeText {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// kinds counts a result's content blocks by type.
func kinds(r mcprt.Result) map[mcprt.ContentType]int {
	n := map[mcprt.ContentType]int{}
	for _, c := range r.Content {
		n[c.Type]++
	}
	return n
}

// callAll calls every tool, prompt and template with typed arguments and
// checks what each returns.
func callAll(t *testing.T, c *everything.Client) {
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	check := func(what string, r mcprt.Result, err error, ok func(mcprt.Result) bool) {
		t.Helper()
		if err != nil {
			t.Errorf("%s: %v", what, err)
			return
		}
		if !ok(r) {
			t.Errorf("%s: unexpected result %+v", what, r)
		}
	}
	r, err := c.Echo(ctx, everything.EchoInput{Message: "hello, typed world"})
	check("Echo", r, err, func(r mcprt.Result) bool { return text(r) == "Echo: hello, typed world" })

	r, err = c.GetAnnotatedMessage(ctx, everything.GetAnnotatedMessageInput{MessageType: everything.GetAnnotatedMessageInputMessageTypeError, IncludeImage: true})
	check("GetAnnotatedMessage", r, err, func(r mcprt.Result) bool {
		return kinds(r)[mcprt.TypeImage] == 1 && r.Content[0].Annotations != nil && r.Content[0].Annotations.Priority != nil
	})

	r, err = c.GetEnv(ctx)
	check("GetEnv", r, err, func(r mcprt.Result) bool { return strings.HasPrefix(text(r), "{") })

	r, err = c.GetResourceLinks(ctx, everything.GetResourceLinksInput{Count: 4})
	check("GetResourceLinks", r, err, func(r mcprt.Result) bool { return kinds(r)[mcprt.TypeResourceLink] == 4 })

	r, err = c.GetResourceReference(ctx, everything.GetResourceReferenceInput{ResourceType: everything.GetResourceReferenceInputResourceTypeBlob, ResourceID: 2})
	check("GetResourceReference", r, err, func(r mcprt.Result) bool {
		return kinds(r)[mcprt.TypeResource] == 1 && len(r.Content[1].Data) > 0
	})

	weather, err := c.GetStructuredContent(ctx, everything.GetStructuredContentInput{Location: everything.GetStructuredContentInputLocationChicago})
	if err != nil || weather.Conditions == "" || weather.Humidity <= 0 {
		t.Errorf("GetStructuredContent = %+v, %v", weather, err)
	}

	r, err = c.GetSum(ctx, everything.GetSumInput{A: 2.5, B: 4})
	check("GetSum", r, err, func(r mcprt.Result) bool { return strings.Contains(text(r), "6.5") })

	r, err = c.GetTinyImage(ctx)
	check("GetTinyImage", r, err, func(r mcprt.Result) bool {
		return kinds(r)[mcprt.TypeImage] == 1 && r.Content[1].MIMEType == "image/png"
	})

	data := "data:text/plain;base64," + base64.StdEncoding.EncodeToString([]byte("squeeze me"))
	r, err = c.GzipFileAsResource(ctx, everything.GzipFileAsResourceInput{Name: "note.txt.gz", Data: data, OutputType: everything.GzipFileAsResourceInputOutputTypeResource})
	check("GzipFileAsResource", r, err, func(r mcprt.Result) bool {
		return kinds(r)[mcprt.TypeResource] == 1 && strings.HasSuffix(r.Content[0].URI, "note.txt.gz")
	})

	for _, toggle := range []struct {
		name string
		call func(context.Context) (mcprt.Result, error)
	}{{"ToggleSimulatedLogging", c.ToggleSimulatedLogging}, {"ToggleSubscriberUpdates", c.ToggleSubscriberUpdates}} {
		on, err := toggle.call(ctx)
		check(toggle.name+" on", on, err, func(r mcprt.Result) bool { return strings.Contains(text(r), "tarted") })
		off, err := toggle.call(ctx)
		check(toggle.name+" off", off, err, func(r mcprt.Result) bool { return strings.Contains(text(r), "topped") })
	}

	r, err = c.TriggerLongRunningOperation(ctx, everything.TriggerLongRunningOperationInput{Duration: 0.2, Steps: 2})
	check("TriggerLongRunningOperation", r, err, func(r mcprt.Result) bool { return strings.Contains(text(r), "ompleted") })

	r, err = c.GetRootsList(ctx)
	check("GetRootsList", r, err, func(r mcprt.Result) bool { return strings.Contains(text(r), "file:///tmp/everything") })

	r, err = c.TriggerElicitationRequest(ctx)
	check("TriggerElicitationRequest", r, err, func(r mcprt.Result) bool { return strings.Contains(text(r), "Ada Lovelace") })

	r, err = c.TriggerURLElicitation(ctx, everything.TriggerURLElicitationInput{URL: "https://example.com/consent"})
	check("TriggerURLElicitation", r, err, func(r mcprt.Result) bool { return strings.Contains(text(r), "accept") })

	r, err = c.TriggerSamplingRequest(ctx, everything.TriggerSamplingRequestInput{Prompt: "Say something", MaxTokens: 20})
	check("TriggerSamplingRequest", r, err, func(r mcprt.Result) bool { return strings.Contains(text(r), "a sampled answer") })

	// The research tool runs only as a task, which go-sdk's client does
	// not ask for: the server answers the call it is sent with a failed
	// result saying so, a *mcprt.ToolResultError.
	_, err = c.SimulateResearchQuery(ctx, everything.SimulateResearchQueryInput{Topic: "typed clients"})
	var te *mcprt.ToolResultError
	if !errors.As(err, &te) || te.Tool != "simulate-research-query" || !strings.Contains(te.Text(), "requires task augmentation") {
		t.Errorf("SimulateResearchQuery = %v, want a *mcprt.ToolResultError refusing a call that is not a task", err)
	}

	p, err := c.SimplePrompt(ctx)
	if err != nil || len(p.Messages) != 1 {
		t.Errorf("SimplePrompt = %+v, %v", p, err)
	}
	p, err = c.ArgsPrompt(ctx, everything.ArgsPromptArgs{City: "Lyon", State: "Rhône"})
	if err != nil || len(p.Messages) != 1 || !strings.Contains(p.Messages[0].Content.Text, "Lyon") || !strings.Contains(p.Messages[0].Content.Text, "Rhône") {
		t.Errorf("ArgsPrompt = %+v, %v", p, err)
	}
	p, err = c.CompletablePrompt(ctx, everything.CompletablePromptArgs{Department: "Engineering", Name: "Grace"})
	if err != nil || len(p.Messages) == 0 || !strings.Contains(p.Messages[0].Content.Text, "Grace") {
		t.Errorf("CompletablePrompt = %+v, %v", p, err)
	}
	p, err = c.ResourcePrompt(ctx, everything.ResourcePromptArgs{ResourceType: "Text", ResourceID: "3"})
	if err != nil || len(p.Messages) < 2 || p.Messages[1].Content.Type != mcprt.TypeResource {
		t.Errorf("ResourcePrompt = %+v, %v", p, err)
	}

	rc, err := c.DynamicTextResource(ctx, "7")
	if err != nil || len(rc) != 1 || rc[0].URI != "demo://resource/dynamic/text/7" || rc[0].Text == "" {
		t.Errorf("DynamicTextResource(7) = %+v, %v", rc, err)
	}
	rc, err = c.DynamicBlobResource(ctx, "8")
	if err != nil || len(rc) != 1 || len(rc[0].Blob) == 0 {
		t.Errorf("DynamicBlobResource(8) = %+v, %v", rc, err)
	}
}
