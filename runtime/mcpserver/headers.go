package mcpserver

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/jsonx"
)

// checkHeaders checks the standard request headers of a 2026-07-28 POST
// against its body: Mcp-Method on every request, and Mcp-Name on those
// that name a tool, prompt, resource or task. A missing, malformed or
// different header is a HeaderMismatch, whatever the body holds, so that a
// proxy routing on the headers and this server never see two requests.
func checkHeaders(h http.Header, m *message) *rpcError {
	method, ok := h["Mcp-Method"]
	switch {
	case headerValue(h, protocolVersionHeader) == "":
		return headerMismatch("the MCP-Protocol-Version header is missing")
	case !ok:
		return headerMismatch("the Mcp-Method header is missing")
	case method[0] != m.method:
		return headerMismatch("Mcp-Method " + method[0] + " does not match method " + m.method)
	}
	body := nameSource(m)
	if body == nil {
		return nil
	}
	name, ok := h["Mcp-Name"]
	if !ok {
		return headerMismatch("the Mcp-Name header is missing; " + m.method + " requests carry it")
	}
	value, ok := decodeHeaderValue(name[0])
	if !ok {
		return headerMismatch("the Mcp-Name header " + name[0] + " is not valid")
	}
	if !stringIs(body, value) {
		return headerMismatch("Mcp-Name " + value + " does not match the request's " + string(body))
	}
	return nil
}

func headerMismatch(msg string) *rpcError {
	return errorf(codeHeaderMismatch, "header mismatch: "+msg)
}

// nameSource is the body value Mcp-Name mirrors, or nil for a method
// without one.
func nameSource(m *message) []byte {
	switch m.method {
	case "tools/call", "prompts/get":
		return orEmpty(m.meta.toolName)
	case "resources/read":
		return orEmpty(m.meta.uri)
	case "tasks/get", "tasks/update", "tasks/cancel":
		return orEmpty(m.meta.taskID)
	}
	return nil
}

// orEmpty stands in for a missing member, which no header matches.
func orEmpty(raw []byte) []byte {
	if raw == nil {
		return []byte(`null`)
	}
	return raw
}

// decodeHeaderValue reads a header value that may be written in the Base64
// sentinel form =?base64?...?=, for values a header cannot hold as they
// are; a value with only one of the two markers is literal text. net/http
// has trimmed the value's surrounding white space.
func decodeHeaderValue(v string) (string, bool) {
	if len(v) < len("=?base64??=") || !strings.HasPrefix(v, "=?base64?") || !strings.HasSuffix(v, "?=") {
		return v, true
	}
	enc := v[len("=?base64?") : len(v)-len("?=")]
	b, err := base64.StdEncoding.Strict().DecodeString(enc)
	return string(b), err == nil
}

// headerParam is a tool property an HTTP client mirrors in the header
// Mcp-Param-{name}: the property's name and JSON type.
type headerParam struct {
	name, property, typ string
}

// headerParams reads the x-mcp-header annotations of a tool's input
// schema. Only schemas that mention the keyword are parsed, once, when
// the tool is added.
func headerParams(schema []byte) []headerParam {
	if !bytes.Contains(schema, []byte(`"x-mcp-header"`)) {
		return nil
	}
	var s struct {
		Properties map[string]struct {
			Header string `json:"x-mcp-header"`
			Type   any    `json:"type"`
		} `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	var out []headerParam
	for prop, p := range s.Properties {
		if p.Header == "" {
			continue
		}
		typ, _ := p.Type.(string)
		out = append(out, headerParam{name: p.Header, property: prop, typ: typ})
	}
	slices.SortFunc(out, func(a, b headerParam) int { return strings.Compare(a.name, b.name) })
	return out
}

// checkParamHeaders checks that each argument of a tools/call that its
// tool mirrors in a header came with that header, holding the same value.
func checkParamHeaders(h http.Header, params []headerParam, args []byte) *rpcError {
	if len(params) == 0 {
		return nil
	}
	values := map[string][]byte{}
	if ok, _ := jsonx.Members(args, func(_, key, val []byte) { values[string(key)] = val }); !ok {
		return nil // not an object: the call fails on its own
	}
	for _, p := range params {
		raw := values[p.property]
		header, sent := h[http.CanonicalHeaderKey("Mcp-Param-"+p.name)]
		switch {
		case raw == nil || isNull(raw):
			continue
		case !sent:
			return headerMismatch("the Mcp-Param-" + p.name + " header is missing; it mirrors argument " + p.property)
		}
		v, ok := decodeHeaderValue(header[0])
		if !ok {
			return headerMismatch("the Mcp-Param-" + p.name + " header " + header[0] + " is not valid")
		}
		if !sameValue(raw, v) {
			return headerMismatch("Mcp-Param-" + p.name + " " + v + " does not match argument " + p.property + " " + string(raw))
		}
	}
	return nil
}

// sameValue reports whether the header text v says what the JSON value
// raw holds: the same string, the same number (compared as numbers, so
// 42 and 42.0 agree) or the same boolean.
func sameValue(raw []byte, v string) bool {
	switch raw[0] {
	case '"':
		s, ok := stringValue(raw)
		return ok && s == v
	case 't', 'f':
		return string(raw) == v
	}
	a, err1 := strconv.ParseFloat(string(raw), 64)
	b, err2 := strconv.ParseFloat(v, 64)
	return err1 == nil && err2 == nil && a == b
}
