package wire

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// This file holds what every server path shares of sampling with tools
// (2025-11-25 on): the checks of a request before it is sent, the tool
// use and tool result blocks of its messages, and the reading of a result
// that may ask for tools.

// UsesTools reports whether req needs the client's sampling.tools
// capability: it offers tools, sets a tool choice, or carries tool uses or
// tool results.
func UsesTools(req *mcprt.SampleRequest) bool {
	if len(req.Tools) > 0 || req.ToolChoice != "" {
		return true
	}
	for i := range req.Messages {
		if len(req.Messages[i].ToolUses) > 0 || len(req.Messages[i].ToolResults) > 0 {
			return true
		}
	}
	return false
}

// CheckSample refuses a sampling request that cannot be sent on rev: tools
// before 2025-11-25, an unknown tool choice, a tool without a name, or a
// message whose tool results share it with anything else.
func CheckSample(req *mcprt.SampleRequest, rev Revision) error {
	if UsesTools(req) && rev < Rev20251125 {
		return NotSupported("sampling with tools needs protocol revision %s or later; the session uses %s", Rev20251125, rev)
	}
	switch req.ToolChoice {
	case "", mcprt.ToolChoiceAuto, mcprt.ToolChoiceRequired, mcprt.ToolChoiceNone:
	default:
		return fmt.Errorf("sampling tool choice %q is not auto, required or none", req.ToolChoice)
	}
	for i := range req.Tools {
		if req.Tools[i].Name == "" {
			return fmt.Errorf("sampling tool %d has no name", i)
		}
	}
	for i := range req.Messages {
		m := &req.Messages[i]
		if len(m.ToolResults) > 0 && (m.Content.Type != "" || len(m.ToolUses) > 0) {
			return fmt.Errorf("sampling message %d holds tool results and other content: a message of tool results holds nothing else", i)
		}
	}
	return nil
}

// SampleBlocks counts the content blocks of m: its content, if any, and
// each tool use and tool result.
func SampleBlocks(m *mcprt.SampleMessage) int {
	n := len(m.ToolUses) + len(m.ToolResults)
	if m.Content.Type != "" {
		n++
	}
	return n
}

// AppendSampleContent appends the content of m: one block as an object, as
// every revision has it, and several (tool uses, tool results) as the
// array of 2025-11-25.
func AppendSampleContent(dst []byte, m *mcprt.SampleMessage, rev Revision) []byte {
	if SampleBlocks(m) == 1 && m.Content.Type != "" {
		return AppendContent(dst, &m.Content, rev)
	}
	dst = append(dst, '[')
	sep := ""
	if m.Content.Type != "" {
		dst = AppendContent(dst, &m.Content, rev)
		sep = ","
	}
	for i := range m.ToolUses {
		dst = AppendToolUse(append(dst, sep...), &m.ToolUses[i])
		sep = ","
	}
	for i := range m.ToolResults {
		dst = appendToolResult(append(dst, sep...), &m.ToolResults[i], rev)
		sep = ","
	}
	return append(dst, ']')
}

// AppendToolUse appends a tool_use block; an empty input is {}.
func AppendToolUse(dst []byte, u *mcprt.ToolUse) []byte {
	dst = jsonx.AppendString(append(dst, `{"type":"tool_use","id":`...), u.ID)
	dst = jsonx.AppendString(append(dst, `,"name":`...), u.Name)
	return append(append(append(dst, `,"input":`...), orObject(u.Input)...), '}')
}

func appendToolResult(dst []byte, r *mcprt.ToolResult, rev Revision) []byte {
	dst = jsonx.AppendString(append(dst, `{"type":"tool_result","toolUseId":`...), r.ToolUseID)
	dst = append(dst, `,"content":[`...)
	for i := range r.Content {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendContent(dst, &r.Content[i], rev)
	}
	dst = append(dst, ']')
	if r.IsError {
		dst = append(dst, `,"isError":true`...)
	}
	return append(dst, '}')
}

// AppendSampleTools appends the members "tools" and "toolChoice" of a
// sampling request, those it has.
func AppendSampleTools(dst []byte, req *mcprt.SampleRequest) []byte {
	if len(req.Tools) > 0 {
		dst = append(dst, `,"tools":[`...)
		for i := range req.Tools {
			t := &req.Tools[i]
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonx.AppendString(append(dst, `{"name":`...), t.Name)
			if t.Description != "" {
				dst = jsonx.AppendString(append(dst, `,"description":`...), t.Description)
			}
			dst = append(append(append(dst, `,"inputSchema":`...), SampleToolSchema(t)...), '}')
		}
		dst = append(dst, ']')
	}
	if req.ToolChoice != "" {
		dst = jsonx.AppendString(append(dst, `,"toolChoice":{"mode":`...), req.ToolChoice)
		dst = append(dst, '}')
	}
	return dst
}

// SampleToolSchema is the input schema of t, an object schema of any
// properties when it has none.
func SampleToolSchema(t *mcprt.SampleTool) []byte {
	if len(t.InputSchema) == 0 {
		return []byte(`{"type":"object"}`)
	}
	return t.InputSchema
}

func orObject(js []byte) []byte {
	if len(js) == 0 {
		return []byte(`{}`)
	}
	return js
}

// ParseSampled reads the content of a sampling result, one block or an
// array: the tools the model asked for, and its first other block (text,
// image or audio), if any. A result with neither is malformed.
func ParseSampled(raw []byte) (mcprt.Content, []mcprt.ToolUse, error) {
	blocks := []json.RawMessage{raw}
	if len(raw) > 0 && raw[0] == '[' {
		if err := json.Unmarshal(raw, &blocks); err != nil {
			return mcprt.Content{}, nil, fmt.Errorf("malformed sampling content: %s", raw)
		}
	}
	var c mcprt.Content
	var uses []mcprt.ToolUse
	for _, b := range blocks {
		var u struct {
			Type  string          `json:"type"`
			ID    string          `json:"id"`
			Name  string          `json:"name"`
			Input json.RawMessage `json:"input"`
		}
		if err := json.Unmarshal(b, &u); err != nil {
			return mcprt.Content{}, nil, fmt.Errorf("malformed sampling content: %s", b)
		}
		if u.Type == "tool_use" {
			if u.ID == "" || u.Name == "" || len(u.Input) == 0 || u.Input[0] != '{' {
				return mcprt.Content{}, nil, fmt.Errorf("malformed tool_use block: %s", b)
			}
			uses = append(uses, mcprt.ToolUse{ID: u.ID, Name: u.Name, Input: u.Input})
			continue
		}
		if c.Type != "" {
			continue
		}
		var err error
		if c, err = ParseContent(b); err != nil {
			return mcprt.Content{}, nil, err
		}
	}
	if c.Type == "" && len(uses) == 0 {
		return mcprt.Content{}, nil, errors.New("sampling result has no content")
	}
	return c, uses, nil
}
