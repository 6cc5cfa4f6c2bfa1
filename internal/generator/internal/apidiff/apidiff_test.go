package apidiff

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// base is the old list every case changes: a tool with a few arguments
// and a structured result, a prompt, a resource and a template.
const base = `{
  "tools": [{
    "name": "search", "title": "Search", "description": "Finds things.",
    "inputSchema": {"type": "object", "properties": {
      "query": {"type": "string", "minLength": 1, "pattern": "^[a-z]+$"},
      "kind": {"type": "string", "enum": ["a", "b"]},
      "limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5},
      "ratio": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5},
      "tags": {"type": "array", "items": {"type": "string", "maxLength": 10}, "maxItems": 8},
      "page": {"type": "object", "properties": {"offset": {"type": "integer"}}, "additionalProperties": false}
    }, "required": ["query"], "additionalProperties": false},
    "outputSchema": {"type": "object", "properties": {
      "hits": {"type": "array", "items": {"type": "string"}},
      "total": {"type": "integer", "enum": [1, 2]},
      "note": {"type": "string"}
    }, "required": ["hits", "total"], "additionalProperties": false},
    "annotations": {"readOnlyHint": true}
  }, {
    "name": "remove", "description": "Removes a thing.",
    "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"], "additionalProperties": false},
    "annotations": {"destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
    "execution": {"taskSupport": "optional"}
  }],
  "prompts": [{"name": "summarize", "arguments": [{"name": "id", "required": true}, {"name": "style"}]}],
  "resources": [{"uri": "kb://index", "name": "index", "mimeType": "application/json"}],
  "resourceTemplates": [{"uriTemplate": "kb://articles/{id}", "name": "article", "mimeType": "text/markdown"}]
}`

// TestCompare applies one edit a case to base and checks the changes
// named, each as breaking (!) or compatible.
func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new string // replaced in base; empty old: the new list is base
		want     []string
	}{
		{"nothing", "", "", nil},
		// Tools, prompts and resources as wholes.
		{"tool removed", `"name": "remove", "description": "Removes a thing.",
    "inputSchema": {"type": "object", "properties": {"id"`, `"name": "erase", "description": "Erases a thing.",
    "inputSchema": {"type": "object", "properties": {"key"`,
			[]string{"! tool remove: removed", "  tool erase: added"}},
		{"tool renamed, described anew", `"name": "remove", "description": "Removes a thing."`, `"name": "erase", "description": "Erases a thing."`,
			[]string{"! tool remove: renamed to erase", "  tool erase: description changed"}},
		{"tool renamed", `"name": "remove",`, `"name": "delete",`, []string{"! tool remove: renamed to delete"}},
		{"title and description", `"title": "Search", "description": "Finds things."`, `"title": "Find", "description": "Finds."`,
			[]string{"  tool search: title changed", "  tool search: description changed"}},
		{"prompt renamed", `"name": "summarize"`, `"name": "summary"`, []string{"! prompt summarize: renamed to summary"}},
		{"prompt removed", `"prompts": [{"name": "summarize", "arguments": [{"name": "id", "required": true}, {"name": "style"}]}]`, `"prompts": []`,
			[]string{"! prompt summarize: removed"}},
		{"resource moved", `"uri": "kb://index"`, `"uri": "kb://all"`, []string{"! resource kb://index: renamed to kb://all"}},
		{"resource removed", `"uri": "kb://index", "name": "index"`, `"uri": "kb://all", "name": "all"`,
			[]string{"! resource kb://index: removed", "  resource kb://all: added"}},
		{"resource name", `"name": "index"`, `"name": "the_index"`, []string{"  resource kb://index: name changed from index to the_index"}},
		{"resource MIME type", `"mimeType": "application/json"`, `"mimeType": "text/plain"`,
			[]string{`! resource kb://index: MIME type changed from "application/json" to "text/plain"`}},
		{"template variable renamed", `"kb://articles/{id}"`, `"kb://articles/{n}"`,
			[]string{"! resource template kb://articles/{id}: renamed to kb://articles/{n}"}},
		// Arguments.
		{"argument removed", `"page": {"type": "object", "properties": {"offset": {"type": "integer"}}, "additionalProperties": false}`, `"other": {}`,
			[]string{"! tool search: argument page: removed", "  tool search: argument other: added"}},
		{"argument renamed", `"kind": {`, `"sort": {`, []string{"! tool search: argument kind: removed", "  tool search: argument sort: added"}},
		{"argument newly required", `"required": ["query"]`, `"required": ["query", "kind"]`, []string{"! tool search: argument kind: now required"}},
		{"argument no longer required", `"required": ["query"]`, `"required": []`, []string{"  tool search: argument query: no longer required"}},
		{"required argument added", `"required": ["query"]`, `"required": ["query", "new"]`, nil}, // not a property: nothing to say
		{"required property added", `"ratio": {`, `"new": {"type": "string"}, "ratio": {`, []string{"  tool search: argument new: added"}},
		{"type changed", `"query": {"type": "string"`, `"query": {"type": "integer"`, []string{"! tool search: argument query: type changed from string to integer"}},
		{"type widened", `"limit": {"type": "integer"`, `"limit": {"type": "number"`, []string{"  tool search: argument limit: type widened from integer to number"}},
		{"type narrowed", `"ratio": {"type": "number"`, `"ratio": {"type": "integer"`, []string{"! tool search: argument ratio: type narrowed from number to integer"}},
		{"nullable", `"query": {"type": "string"`, `"query": {"type": ["string", "null"]`, []string{`  tool search: argument query: type widened from string to ["string","null"]`}},
		// A property that takes null for absent is anyOf its schema and null:
		// the same widening, and its keywords still compare.
		{"null for absent", `"limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5}`,
			`"limit": {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 10}, {"type": "null"}], "default": 5}`,
			[]string{`  tool search: argument limit: type widened from integer to ["integer","null"]`,
				"! tool search: argument limit: upper bound tightened from <= 20 to <= 10"}},
		{"enum value removed", `"enum": ["a", "b"]`, `"enum": ["a"]`, []string{`! tool search: argument kind: enum value "b" removed`}},
		{"enum value added", `"enum": ["a", "b"]`, `"enum": ["a", "b", "c"]`, []string{`  tool search: argument kind: enum value "c" added`}},
		{"enum dropped", `, "enum": ["a", "b"]`, ``, []string{`  tool search: argument kind: no longer limited to "a", "b"`}},
		{"maximum lowered", `"maximum": 20`, `"maximum": 10`, []string{"! tool search: argument limit: upper bound tightened from <= 20 to <= 10"}},
		{"maximum raised", `"maximum": 20`, `"maximum": 30`, []string{"  tool search: argument limit: upper bound relaxed from <= 20 to <= 30"}},
		{"minimum made exclusive", `"minimum": 1,`, `"exclusiveMinimum": 1,`, []string{"! tool search: argument limit: lower bound tightened from >= 1 to > 1"}},
		{"minimum removed", `"minimum": 1,`, ``, []string{"  tool search: argument limit: lower bound >= 1 removed"}},
		{"bound added", `"exclusiveMinimum": 0,`, `"exclusiveMinimum": 0, "maximum": 1,`, []string{"! tool search: argument ratio: upper bound <= 1 added"}},
		{"minLength raised", `"minLength": 1`, `"minLength": 2`, []string{"! tool search: argument query: minLength changed from 1 to 2"}},
		{"maxItems lowered", `"maxItems": 8`, `"maxItems": 4`, []string{"! tool search: argument tags: maxItems changed from 8 to 4"}},
		{"maxItems removed", `, "maxItems": 8`, ``, []string{"  tool search: argument tags: maxItems 8 removed"}},
		{"item bound", `"maxLength": 10`, `"maxLength": 5`, []string{"! tool search: argument tags[]: maxLength changed from 10 to 5"}},
		{"unique items", `"maxItems": 8`, `"maxItems": 8, "uniqueItems": true`, []string{"! tool search: argument tags: items must now be unique"}},
		{"pattern changed", `"^[a-z]+$"`, `"^[a-z0-9]+$"`, []string{`! tool search: argument query: pattern changed from "^[a-z]+$" to "^[a-z0-9]+$"`}},
		{"format added", `"minLength": 1,`, `"minLength": 1, "format": "email",`, []string{`! tool search: argument query: format "email" added`}},
		{"multipleOf divided", `"multipleOf": 0.5`, `"multipleOf": 0.25`, []string{"  tool search: argument ratio: multipleOf changed from 0.5 to 0.25"}},
		{"multipleOf doubled", `"multipleOf": 0.5`, `"multipleOf": 1`, []string{"! tool search: argument ratio: multipleOf changed from 0.5 to 1"}},
		{"default changed", `"default": 5`, `"default": 10`, []string{"  tool search: argument limit: default changed from 5 to 10"}},
		{"nested property removed", `"properties": {"offset": {"type": "integer"}}`, `"properties": {}`, []string{"! tool search: argument page.offset: removed"}},
		{"nested object opened", `"properties": {"offset": {"type": "integer"}}, "additionalProperties": false}`, `"properties": {"offset": {"type": "integer"}}}`,
			[]string{"  tool search: argument page: accepts more properties than it names (additionalProperties)"}},
		// The structured result.
		{"result field removed", `"hits": {"type": "array", "items": {"type": "string"}},`, ``, []string{"! tool search: result field hits: removed"}},
		{"optional result field removed", `,
      "note": {"type": "string"}`, ``, []string{"  tool search: result field note: removed"}},
		{"result field added", `"note": {"type": "string"}`, `"note": {"type": "string"}, "more": {"type": "string"}`, []string{"  tool search: result field more: added"}},
		{"result field may be absent", `"required": ["hits", "total"]`, `"required": ["hits"]`, []string{"! tool search: result field total: no longer required"}},
		{"result enum value added", `"enum": [1, 2]`, `"enum": [1, 2, 3]`, []string{"! tool search: result field total: enum value 3 added"}},
		{"result enum value removed", `"enum": [1, 2]`, `"enum": [1]`, []string{"  tool search: result field total: enum value 2 removed"}},
		{"result type narrowed", `"note": {"type": "string"}`, `"note": {"type": "string", "maxLength": 3}`, []string{"  tool search: result field note: maxLength 3 added"}},
		{"structured result removed", `"outputSchema"`, `"oldOutputSchema"`, []string{"! tool search: structured result removed"}},
		// Hints and tasks.
		{"becomes destructive", `"destructiveHint": false,`, ``, []string{"! tool remove: now destructive"}},
		{"no longer read-only", `"annotations": {"readOnlyHint": true}`, `"annotations": {"readOnlyHint": false}`,
			[]string{"! tool search: no longer read-only", "! tool search: now destructive"}},
		{"no longer idempotent", `"idempotentHint": true`, `"idempotentHint": false`, []string{"! tool remove: no longer idempotent"}},
		{"open world", `"openWorldHint": false`, `"openWorldHint": true`, []string{"! tool remove: now reaches an open world"}},
		{"becomes read-only", `"destructiveHint": false,`, `"readOnlyHint": true,`, []string{"  tool remove: now read-only"}},
		{"task required", `"taskSupport": "optional"`, `"taskSupport": "required"`, []string{"! tool remove: must now run as a task (taskSupport required, was optional)"}},
		{"task forbidden", `"taskSupport": "optional"`, `"taskSupport": "forbidden"`, []string{"! tool remove: can no longer run as a task (taskSupport forbidden, was optional)"}},
		// Prompt arguments.
		{"prompt argument newly required", `{"name": "style"}`, `{"name": "style", "required": true}`, []string{"! prompt summarize: argument style: now required"}},
		{"prompt argument removed", `, {"name": "style"}`, ``, []string{"! prompt summarize: argument style: removed"}},
		{"prompt argument added", `{"name": "style"}`, `{"name": "style"}, {"name": "tone"}`, []string{"  prompt summarize: argument tone: added"}},
		{"required prompt argument added", `{"name": "style"}`, `{"name": "style"}, {"name": "tone", "required": true}`, []string{"! prompt summarize: argument tone: added, required"}},
		{"prompt argument optional", `{"name": "id", "required": true}`, `{"name": "id"}`, []string{"  prompt summarize: argument id: no longer required"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			edited := base
			if tc.old != "" {
				if !strings.Contains(base, tc.old) {
					t.Fatalf("the case's text %q is not in the base list", tc.old)
				}
				edited = strings.Replace(base, tc.old, tc.new, 1)
			}
			changes, err := Compare([]byte(base), []byte(edited))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range changes {
				mark := "  "
				if c.Breaking {
					mark = "! "
				}
				got = append(got, mark+c.Where+": "+c.What)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("changes (-want +got):\n%s", diff)
			}
			wantBreaking := slices.ContainsFunc(tc.want, func(w string) bool { return strings.HasPrefix(w, "!") })
			if Breaking(changes) != wantBreaking {
				t.Errorf("Breaking = %v, want %v", Breaking(changes), wantBreaking)
			}
		})
	}
}

func TestBadLists(t *testing.T) {
	for _, bad := range []string{`[]`, `{"prompts":[]}`, `{`} {
		if _, err := Compare([]byte(bad), []byte(base)); err == nil {
			t.Errorf("old list %s accepted", bad)
		}
		if _, err := Compare([]byte(base), []byte(bad)); err == nil {
			t.Errorf("new list %s accepted", bad)
		}
	}
}

func TestString(t *testing.T) {
	c := Change{Breaking: true, Where: "tool x", What: "removed"}
	if c.String() != "breaking: tool x: removed" {
		t.Error(c.String())
	}
	c.Breaking = false
	if c.String() != "compatible: tool x: removed" {
		t.Error(c.String())
	}
}
