package generator

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestEndToEnd runs the basics example as the shared module generated and
// built it, and drives the server over stdio with the go-sdk client: the
// listed descriptors, good calls, coercion and every kind of bad call.
func TestEndToEnd(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a server")
	}
	b := sharedModule(t)
	bin, listJSON := b.binary("basics"), b.list["basics"]

	for _, p := range serverPaths {
		t.Run(p.name, func(t *testing.T) {
			behaviour(t, func() *exec.Cmd { return exec.Command(bin, "-sdk", p.name) }, listJSON, p, basicsSuite)
		})
	}
}

// serverPath is one way to serve generated tools, with what its SDK
// sends differently from the built-in server, as its package documents.
// Each difference is allowed for exactly where it shows, and checked to
// be there, so that a change in an SDK shows.
type serverPath struct {
	name string
	// sorted: lists are sorted by name, not in source order (the SDK's
	// cursors are positions in that order).
	sorted bool
	// emptyAnnotations: annotations is always written, {} when a tool has
	// no title and no hints, and on 2024-11-05 (mcp-go's Tool has no
	// omitempty on it).
	emptyAnnotations bool
	// serverInfo: on 2026-07-28 every result carries _meta naming the
	// server (io.modelcontextprotocol/serverInfo), which the SDK adds.
	serverInfo bool
	// linkFields: a resource_link block always has description and
	// mimeType, "" when not set (mcp-go's ResourceLink has no omitempty).
	linkFields bool
	// noTaskSupport: no tool publishes execution.taskSupport: go-sdk has
	// no tasks, and mcp-go runs as a task every call of a tool that
	// publishes it, so the adapter publishes it only with
	// Identity.EnableTasks, which these servers leave off.
	noTaskSupport bool
}

// serverPaths are the three server paths every behaviour test runs on.
var serverPaths = []serverPath{
	{name: "builtin"},
	{name: "gosdk", sorted: true, serverInfo: true, noTaskSupport: true},
	{name: "mcpgo", sorted: true, emptyAnnotations: true, serverInfo: true, linkFields: true, noTaskSupport: true},
}

// suite is what behaviour asks of a server's tools: calls through go-sdk's
// client, and calls on every revision whose answers depend on it.
type suite struct {
	calls     []callCase
	revisions []revisionCall
	// tasks are the task support of the tools that have one: -list shows
	// the latest revision, which publishes none (2025-11-25 does).
	tasks map[string]string
	// wrapped are the tools whose result is a list or a map, whose output
	// schema 2025-06-18 and 2025-11-25 publish wrapped.
	wrapped map[string]bool
}

var basicsSuite = suite{calls: callCases, revisions: basicsRevisionCalls}

// behaviour is the suite every server path passes: descriptors, good calls,
// coercion, argument problems, handler errors and unknown tools, through
// go-sdk's client; then, on every protocol revision, the tools listed and
// calls answered as the bytes the server sends (see revisionBehaviour).
func behaviour(t *testing.T, newCmd func() *exec.Cmd, listJSON string, p serverPath, s suite) {
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: newCmd()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()

	t.Run("list", func(t *testing.T) { checkList(t, ctx, session, listJSON, p) })
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) { revisionBehaviour(t, startRaw(t, newCmd(), rev), listJSON, p, s) })
	}
	for _, tc := range s.calls {
		t.Run(tc.name, func(t *testing.T) {
			res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: tc.tool, Arguments: json.RawMessage(tc.args)})
			if err != nil {
				t.Fatalf("CallTool: %v", err)
			}
			if got := resultText(res); res.IsError != tc.isError || got != tc.want {
				t.Errorf("call %s %s:\n got isError=%v %q\nwant isError=%v %q", tc.tool, tc.args, res.IsError, got, tc.isError, tc.want)
			}
		})
	}
	t.Run("unknown tool", func(t *testing.T) {
		_, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}})
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("calling an unknown tool: err = %v, want JSON-RPC error -32602", err)
		}
	})
}

// callCase is a call through go-sdk's client and the text of its result.
type callCase struct {
	name, tool, args string
	isError          bool
	want             string
}

var callCases = []callCase{
	{"greet", "greet_user", `{"name":"Ada"}`, false, "Hello, Ada!"},
	{"sum", "calculate_sum", `{"first":1.5,"second":2}`, false, "3.5"},
	{"sum coerced", "calculate_sum", `{"first":"1.5","second":"2"}`, false, "3.5"},
	{"status", "set_status", `{"item_id":"T-1","status":"done"}`, false, "T-1 is now done"},
	{"order", "process_order", `{"order_id":"O-1","items":[{"product_id":"P","quantity":"2","unit_price":3}]}`, false, "true"},
	{"order handler error", "process_order", `{"order_id":"O-1","items":[{"product_id":"P","quantity":0}]}`, true, "item P: quantity must be positive, got 0"},
	{"bulk", "bulk_price_update", `{"region":"emea","rounding":"nearest_cent","changes":[{"product_id":"a","new_price":1.5,"effective_from":"2026-01-01T00:00:00Z"},{"product_id":"b","new_price":"2"}]}`, false, "2"},
	{"missing required", "greet_user", `{}`, true, "invalid arguments:\nname: required property is missing"},
	{"bad enum", "set_status", `{"item_id":"T-1","status":"finished"}`, true, "invalid arguments:\nstatus: \"finished\" is not one of \"open\", \"in_progress\", \"blocked\", \"done\""},
	{"deep wrong type", "bulk_price_update", `{"region":"emea","changes":[{"product_id":"a","new_price":1},{"product_id":"b","new_price":"abc"}]}`, true, "invalid arguments:\nchanges[1].new_price: expected number, got \"abc\""},
	{"unknown property", "set_status", `{"item_id":"T-1","status":"done","statuss":"x"}`, true, "invalid arguments:\nstatuss: unknown property; did you mean \"status\"?"},
	{"number is not a boolean", "process_order", `{"order_id":1,"items":[]}`, true, "invalid arguments:\norder_id: expected string, got 1"},
	{"every problem", "bulk_price_update", `{"region":"mars","changes":[{"new_price":true}]}`, true, "invalid arguments:\nregion: \"mars\" is not one of \"emea\", \"amer\", \"apac\"\nchanges[0].new_price: expected number, got true\nchanges[0].product_id: required property is missing"},
	{"after errors", "greet_user", `{"name":"Bo"}`, false, "Hello, Bo!"},
}

func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// checkList compares the tools the client lists with the -list output, in
// source order unless the path sorts them, allowing only for what the
// path's SDK documents it always writes (see [serverPath]).
func checkList(t *testing.T, ctx context.Context, session *mcp.ClientSession, listJSON string, p serverPath) {
	res, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var want struct{ Tools []map[string]any }
	if err := json.Unmarshal([]byte(listJSON), &want); err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(res)
	var got struct{ Tools []map[string]any }
	if err := json.Unmarshal(js, &got); err != nil {
		t.Fatal(err)
	}
	for _, w := range want.Tools {
		delete(w, "execution") // -list's task support, which the latest revision, the client's, does not publish
	}
	for _, tool := range got.Tools {
		for _, w := range want.Tools {
			if w["name"] == tool["name"] {
				allowSDKDefaults(p, w, tool)
			}
		}
	}
	byName := func(ts []map[string]any) {
		slices.SortFunc(ts, func(a, b map[string]any) int { return strings.Compare(a["name"].(string), b["name"].(string)) })
	}
	if p.sorted {
		byName(want.Tools)
	}
	if diff := cmp.Diff(want.Tools, got.Tools); diff != "" {
		t.Errorf("listed tools differ from mcpgen -list (-want +got):\n%s", diff)
	}
}

// allowSDKDefaults removes from a listed tool what -list (want) does not
// have but the tool shows anyway: false readOnlyHint and idempotentHint,
// on every path, because the go-sdk client reads annotations into plain
// bools for those two (what each server sends is compared byte for byte
// by revisionBehaviour); and an empty annotations object on mcp-go.
// Anything else added or dropped still shows as a difference.
func allowSDKDefaults(p serverPath, want, got map[string]any) {
	ann, _ := got["annotations"].(map[string]any)
	wann, hasAnn := want["annotations"].(map[string]any)
	for _, k := range []string{"readOnlyHint", "idempotentHint"} {
		if _, ok := wann[k]; !ok && ann[k] == false {
			delete(ann, k)
		}
	}
	if p.emptyAnnotations && !hasAnn && ann != nil && len(ann) == 0 {
		delete(got, "annotations")
	}
}
