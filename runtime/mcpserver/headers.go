package mcpserver

import (
	"encoding/base64"
	"net/http"
	"strings"
)

// checkHeaders checks the standard request headers of a 2026-07-28 POST
// against its body: Mcp-Method on every request, and Mcp-Name on those
// that name a tool, prompt, resource or task. A missing, malformed or
// different header is a HeaderMismatch, whatever the body holds, so that a
// proxy routing on the headers and this server never see two requests.
func checkHeaders(h http.Header, m *message) *rpcError {
	method, ok := h["Mcp-Method"]
	switch {
	case h.Get("MCP-Protocol-Version") == "":
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
	if want, isString := stringValue(body); !isString || want != value {
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
// are. net/http has trimmed the value's surrounding white space.
func decodeHeaderValue(v string) (string, bool) {
	enc, ok := strings.CutPrefix(v, "=?base64?")
	if !ok {
		return v, true
	}
	enc, ok = strings.CutSuffix(enc, "?=")
	if !ok {
		return "", false
	}
	b, err := base64.StdEncoding.Strict().DecodeString(enc)
	return string(b), err == nil
}
