package generator

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// This file is the part of behaviour that runs on every protocol revision:
// a client of each revision lists the tools and makes calls. What each
// server path sends, byte for byte but for the order of members, must be
// what that revision publishes (package wire's Has methods say what). It
// is derived here from mcpgen -list, which shows the latest.

// revisions are the protocol revisions every server path is driven on,
// each in a session of its own.
var revisions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

// revisionCall is a call whose answer every server path sends alike on
// each revision: want returns it for rev, as JSON, with resultType on
// 2026-07-28 (see answer). An error answer is compared by its code: the
// message is each SDK's own.
type revisionCall struct {
	name, tool, args string
	want             func(rev string) string
}

// answer is a result of revision rev: body, a JSON object, with the
// resultType of 2026-07-28 when rev is that.
func answer(rev, body string) string {
	if rev < "2026-07-28" {
		return body
	}
	return `{"resultType":"complete",` + body[1:]
}

// text is a result of one text block.
func text(s string, isError bool) func(string) string {
	js, _ := json.Marshal(s)
	body := `{"content":[{"type":"text","text":` + string(js) + `}]}`
	if isError {
		body = `{"content":[{"type":"text","text":` + string(js) + `}],"isError":true}`
	}
	return func(rev string) string { return answer(rev, body) }
}

// invalidParams is the JSON-RPC error of an unknown tool, on every
// revision.
func invalidParams(string) string { return `{"error":{"code":-32602}}` }

var basicsRevisionCalls = []revisionCall{
	{"sum", "calculate_sum", `{"first":1.5,"second":"2"}`, text("3.5", false)},
	{"missing required", "greet_user", `{}`, text("invalid arguments:\nname: required property is missing", true)},
	{"null for a pointer", "bulk_price_update", `{"region":"emea","changes":[{"product_id":"a","new_price":1,"effective_from":null}]}`, text("1", false)},
	{"null for a value", "greet_user", `{"name":null}`, text("invalid arguments:\nname: expected string, got null", true)},
	{"unknown tool", "no_such_tool", `{}`, invalidParams},
}

// shapesSuite runs the shapes case on every revision: structured results,
// a list result (wrapped as {"result": ...} where the output schema is),
// content blocks a revision lacks (audio before 2025-03-26, resource
// links before 2025-06-18) sent as text, and errors.
var shapesSuite = suite{tasks: map[string]string{"add": "optional"}, wrapped: map[string]bool{"nearby": true, "regions": true}, revisions: []revisionCall{
	{"structured", "measure", `{"x":3,"y":4}`, func(rev string) string {
		body := `{"content":[{"type":"text","text":"{\"value\":25,\"unit\":\"square units\"}"}]`
		if rev >= "2025-06-18" {
			body += `,"structuredContent":{"value":25,"unit":"square units"}`
		}
		return answer(rev, body+"}")
	}},
	{"list", "nearby", `{"n":1}`, func(rev string) string {
		body := `{"content":[{"type":"text","text":"[{\"x\":0,\"y\":0}]"}]`
		switch {
		case rev >= "2026-07-28":
			body += `,"structuredContent":[{"x":0,"y":0}]`
		case rev >= "2025-06-18":
			body += `,"structuredContent":{"result":[{"x":0,"y":0}]}`
		}
		return answer(rev, body+"}")
	}},
	{"recursive list", "regions", `{}`, func(rev string) string {
		value := `[{"name":"north","inner":[{"name":"north-east"}]},{"name":"south"}]`
		js, _ := json.Marshal(value)
		body := `{"content":[{"type":"text","text":` + string(js) + `}]`
		switch {
		case rev >= "2026-07-28":
			body += `,"structuredContent":` + value
		case rev >= "2025-06-18":
			body += `,"structuredContent":{"result":` + value + `}`
		}
		return answer(rev, body+"}")
	}},
	{"text of a structured result", "read_file", `{"name":"a.txt"}`, func(rev string) string {
		body := `{"content":[{"type":"text","text":"line 1\n\"line\" 2\n"}]`
		if rev >= "2025-06-18" {
			body += `,"structuredContent":{"name":"a.txt","text":"line 1\n\"line\" 2\n","lines":2,"tags":[]}`
		}
		return answer(rev, body+"}")
	}},
	{"structured result without a text", "read_file", `{"name":"empty"}`, func(rev string) string {
		body := `{"content":[{"type":"text","text":"{\"name\":\"empty\",\"text\":\"\",\"lines\":0,\"tags\":[]}"}]`
		if rev >= "2025-06-18" {
			body += `,"structuredContent":{"name":"empty","text":"","lines":0,"tags":[]}`
		}
		return answer(rev, body+"}")
	}},
	{"blocks", "picture", `{}`, func(rev string) string {
		audio := `{"type":"audio","data":"BAU=","mimeType":"audio/wav"}`
		if rev < "2025-03-26" {
			audio = `{"type":"text","text":"[audio content of type audio/wav, 2 bytes, is not supported by protocol revision ` + rev + `]"}`
		}
		link := `{"type":"resource_link","uri":"https://example.com/p.png","name":"p.png"}`
		if rev < "2025-06-18" {
			link = `{"type":"text","text":"resource: https://example.com/p.png"}`
		}
		return answer(rev, `{"content":[{"type":"text","text":"a dot"},`+audio+`,`+link+`,{"type":"image","data":"AQID","mimeType":"image/png"}]}`)
	}},
	{"handler error", "fail", `{}`, text("it failed", true)},
	{"bad arguments", "repeat.word", `{"word":""}`, text("invalid arguments:\nword: 0 characters, fewer than the minimum length 1\ntimes: required property is missing", true)},
	{"unknown tool", "no_such_tool", `{}`, invalidParams},
}}

// revisionBehaviour lists the tools and makes the suite's calls in the
// session c, of one revision, and compares what the server sent with what
// that revision should be sent, allowing only for what p documents.
func revisionBehaviour(t *testing.T, c *rawClient, listJSON string, p serverPath, s suite) {
	var listed struct{ Tools []map[string]any }
	if err := json.Unmarshal([]byte(listJSON), &listed); err != nil {
		t.Fatal(err)
	}
	tasks := s.tasks
	if p.noTaskSupport {
		tasks = nil
	}
	want := map[string]any{"tools": descriptorsFor(listed.Tools, c.rev, tasks, s.wrapped, p.sorted)}
	if c.rev >= "2026-07-28" {
		want["resultType"], want["ttlMs"], want["cacheScope"] = "complete", 0.0, "public"
	}
	got := received(t, c, p, "tools/list", `{}`)
	for _, tool := range got["tools"].([]any) {
		allowEmptyAnnotations(t, p, c.rev, tool.(map[string]any), listed.Tools)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tools/list on %s differs from the contract's (-want +got):\n%s", c.rev, diff)
	}
	outputs := outputSchemas(t, got, c.rev)
	for _, call := range s.revisions {
		got := received(t, c, p, "tools/call", `{"name":"`+call.tool+`","arguments":`+call.args+`}`)
		checkStructuredContent(t, outputs, call.tool, got)
		var want map[string]any
		if err := json.Unmarshal([]byte(call.want(c.rev)), &want); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: %s %s on %s (-want +got):\n%s", call.name, call.tool, call.args, c.rev, diff)
		}
	}
}

// outputSchemas compiles the output schema of each tool of a tools/list
// result, as the client was sent it.
func outputSchemas(t *testing.T, list map[string]any, rev string) map[string]*jsonschema.Schema {
	t.Helper()
	out := map[string]*jsonschema.Schema{}
	tools, _ := list["tools"].([]any)
	for _, tool := range tools {
		tool := tool.(map[string]any)
		if schema, ok := tool["outputSchema"]; ok {
			js, _ := json.Marshal(schema)
			name := tool["name"].(string)
			out[name] = compileSchema(t, rev+"/"+name+".output", js)
		}
	}
	return out
}

// checkStructuredContent validates the structuredContent of a tools/call
// result, if any, against the output schema the client was listed for
// tool: a client that checks results as the specification asks would
// accept it.
func checkStructuredContent(t *testing.T, outputs map[string]*jsonschema.Schema, tool string, result map[string]any) {
	t.Helper()
	sc, ok := result["structuredContent"]
	if !ok {
		return
	}
	schema := outputs[tool]
	if schema == nil {
		t.Errorf("%s: structuredContent without an output schema listed", tool)
		return
	}
	if err := schema.Validate(sc); err != nil {
		t.Errorf("%s: structuredContent does not validate against the listed output schema: %v", tool, err)
	}
}

// received makes a request and returns the answer, less what p documents
// its SDK adds: the serverInfo _meta of 2026-07-28 (which must be there)
// and empty resource_link fields. An error keeps only its code.
func received(t *testing.T, c *rawClient, p serverPath, method, params string) map[string]any {
	t.Helper()
	raw := c.call(method, params)
	var got map[string]any
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatalf("%s: %v: %s", method, err, raw)
	}
	if e, ok := got["error"].(map[string]any); ok {
		return map[string]any{"error": map[string]any{"code": e["code"]}}
	}
	if p.serverInfo && c.rev >= "2026-07-28" {
		meta, _ := got["_meta"].(map[string]any)
		if _, ok := meta["io.modelcontextprotocol/serverInfo"]; !ok || len(meta) != 1 {
			t.Errorf("%s on %s: _meta %v, want the serverInfo %s adds", method, c.rev, got["_meta"], p.name)
		}
		delete(got, "_meta")
	}
	if content, ok := got["content"].([]any); ok && p.linkFields {
		for _, b := range content {
			if b := b.(map[string]any); b["type"] == "resource_link" && b["description"] == "" && b["mimeType"] == "" {
				delete(b, "description")
				delete(b, "mimeType")
			}
		}
	}
	return got
}

// descriptorsFor returns tools, the latest revision's descriptors, as
// revision rev publishes them, by the contract's table: no annotations
// before 2025-03-26; no top-level title or output schema before
// 2025-06-18, and the output schema of a list or a map (the tools that
// wrapped names) wrapped as the property "result" of an object until
// 2026-07-28; no icons before 2025-11-25; execution.taskSupport (from
// tasks) on 2025-11-25 alone. sorted sorts them by name.
func descriptorsFor(tools []map[string]any, rev string, tasks map[string]string, wrapped map[string]bool, sorted bool) []any {
	var out []any
	for _, tool := range tools {
		d := map[string]any{}
		for k, v := range tool {
			d[k] = v
		}
		if rev < "2025-03-26" {
			delete(d, "annotations")
		}
		if rev < "2025-06-18" {
			delete(d, "title")
			delete(d, "outputSchema")
		} else if out, ok := d["outputSchema"].(map[string]any); ok && rev < "2026-07-28" && wrapped[d["name"].(string)] {
			d["outputSchema"] = wrapSchema(out)
		}
		if rev < "2025-11-25" {
			delete(d, "icons")
		}
		// -list shows task support as 2025-11-25 publishes it; the suite
		// says which tools the path publishes it for.
		delete(d, "execution")
		if task := tasks[d["name"].(string)]; task != "" && rev == "2025-11-25" {
			d["execution"] = map[string]any{"taskSupport": task}
		}
		out = append(out, d)
	}
	if sorted {
		slices.SortFunc(out, func(a, b any) int {
			return strings.Compare(a.(map[string]any)["name"].(string), b.(map[string]any)["name"].(string))
		})
	}
	return out
}

// wrapSchema is out wrapped as the required property "result" of an object
// schema, its $defs moved to the wrapper, where its references point.
func wrapSchema(out map[string]any) map[string]any {
	value := maps.Clone(out)
	w := map[string]any{"type": "object", "properties": map[string]any{"result": value}, "required": []any{"result"}}
	if defs, ok := value["$defs"]; ok {
		w["$defs"] = defs
		delete(value, "$defs")
	}
	return w
}

// allowEmptyAnnotations removes the empty annotations a path that always
// writes them (p.emptyAnnotations) sends for a tool that has none on rev,
// and fails the test if they are not empty.
func allowEmptyAnnotations(t *testing.T, p serverPath, rev string, tool map[string]any, listed []map[string]any) {
	if !p.emptyAnnotations {
		return
	}
	ann, ok := tool["annotations"].(map[string]any)
	hasAnn := rev >= "2025-03-26" && slices.ContainsFunc(listed, func(l map[string]any) bool { return l["name"] == tool["name"] && l["annotations"] != nil })
	if ok && !hasAnn && len(ann) == 0 {
		delete(tool, "annotations")
	}
}
