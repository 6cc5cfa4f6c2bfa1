package wire

import (
	"bytes"
	"encoding/json"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TasksExtension is the key of the tasks extension of 2026-07-28 in a
// capabilities object's extensions.
const TasksExtension = "io.modelcontextprotocol/tasks"

// ClientCapabilities reads a ClientCapabilities object as the client sent
// it, for [mcprt.ClientInfo]. A member that is absent or null is not
// declared; raw that is no object declares nothing.
func ClientCapabilities(raw []byte) mcprt.ClientCapabilities {
	var c struct {
		Elicitation *struct {
			URL json.RawMessage `json:"url"`
		} `json:"elicitation"`
		Sampling *struct {
			Tools json.RawMessage `json:"tools"`
		} `json:"sampling"`
		Roots *struct {
			ListChanged bool `json:"listChanged"`
		} `json:"roots"`
		Tasks      json.RawMessage            `json:"tasks"`
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &c)
	}
	return mcprt.ClientCapabilities{
		Elicitation:      c.Elicitation != nil,
		ElicitationURL:   c.Elicitation != nil && declared(c.Elicitation.URL),
		Sampling:         c.Sampling != nil,
		SamplingTools:    c.Sampling != nil && declared(c.Sampling.Tools),
		Roots:            c.Roots != nil,
		RootsListChanged: c.Roots != nil && c.Roots.ListChanged,
		Tasks:            declared(c.Tasks) || declared(c.Extensions[TasksExtension]),
		JSON:             bytes.Clone(raw),
	}
}

// declared reports whether v is a member that is present and not null.
func declared(v json.RawMessage) bool {
	return len(v) > 0 && string(v) != "null"
}

// ClientInfo reads the Implementation object a client names itself with
// (initialize's clientInfo, or the clientInfo of a 2026-07-28 request's
// _meta): its name and version, empty where raw has none.
func ClientInfo(raw []byte) (name, version string) {
	var c struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &c)
	}
	return c.Name, c.Version
}
