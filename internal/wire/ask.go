package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// This file holds the checks every server path (the built-in server and
// both adapters) makes before it sends a handler's progress, log message
// or question to the client, so that they agree word for word. Each
// server prefixes the errors with its own name.

// CheckProgress refuses progress that is not a finite number.
func CheckProgress(progress, total float64) error {
	if math.IsNaN(progress) || math.IsInf(progress, 0) || math.IsNaN(total) || math.IsInf(total, 0) {
		return errors.New("progress must be a finite number")
	}
	return nil
}

// CheckLevel refuses a log level that is not one of the eight.
func CheckLevel(level mcprt.LogLevel) error {
	if !ValidLevel(level) {
		return fmt.Errorf("invalid log level %q", level)
	}
	return nil
}

// LogData encodes data, the payload of a log message about to be sent.
func LogData(data any) ([]byte, error) {
	js, err := json.Marshal(data)
	if err != nil {
		return nil, fmt.Errorf("encoding log data: %w", err)
	}
	return js, nil
}

// NotEnabled is the error of a question (elicitation, sampling) the
// server's identity does not switch on.
func NotEnabled(kind string) error {
	return NotSupported("%s is not enabled in the server's identity", kind)
}

// NotDeclared is the error of a question whose capability the client did
// not declare.
func NotDeclared(kind string) error {
	return NotSupported("the client did not declare the %s capability", kind)
}

// NotSupported is the error of a question that cannot be asked, with the
// text format says: it matches [mcprt.ErrNotSupported], so that a handler
// can fall back.
func NotSupported(format string, args ...any) error {
	return &notSupported{fmt.Sprintf(format, args...)}
}

type notSupported struct{ text string }

func (e *notSupported) Error() string { return e.text }

func (e *notSupported) Unwrap() error { return mcprt.ErrNotSupported }

// RequestedSchema is the schema an elicitation asks for: schema, or an
// object schema of no fields when there is none.
func RequestedSchema(schema []byte) []byte {
	if len(schema) == 0 {
		return []byte(`{"type":"object","properties":{}}`)
	}
	return schema
}

// AppendURLElicitation appends the params of a URL-mode elicitation/create:
// its id only when there is one (2026-07-28 has none).
func AppendURLElicitation(dst []byte, id, message, url string) []byte {
	dst = jsonx.AppendString(append(dst, `{"mode":"url","message":`...), message)
	if id != "" {
		dst = jsonx.AppendString(append(dst, `,"elicitationId":`...), id)
	}
	dst = jsonx.AppendString(append(dst, `,"url":`...), url)
	return append(dst, '}')
}

// AppendElicitParams appends the params of a form-mode elicitation/create:
// the message and the requested schema ([RequestedSchema]).
func AppendElicitParams(dst []byte, message string, schema []byte) []byte {
	schema = RequestedSchema(schema)
	dst = jsonx.AppendString(append(dst, `{"message":`...), message)
	return append(append(append(dst, `,"requestedSchema":`...), schema...), '}')
}

// AppendSampleParams appends the params of a sampling/createMessage for
// revision rev: the messages, the token limit, the system prompt, the
// model preferences and the tools, each when there is one.
func AppendSampleParams(dst []byte, req *mcprt.SampleRequest, rev Revision) []byte {
	dst = append(dst, `{"messages":[`...)
	for i := range req.Messages {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendString(append(dst, `{"role":`...), req.Messages[i].Role)
		dst = AppendSampleContent(append(dst, `,"content":`...), &req.Messages[i], rev)
		dst = append(dst, '}')
	}
	dst = strconv.AppendInt(append(dst, `],"maxTokens":`...), int64(req.MaxTokens), 10)
	if req.SystemPrompt != "" {
		dst = jsonx.AppendString(append(dst, `,"systemPrompt":`...), req.SystemPrompt)
	}
	if len(req.ModelPreferences) > 0 {
		dst = append(append(dst, `,"modelPreferences":`...), req.ModelPreferences...)
	}
	return append(AppendSampleTools(dst, req), '}')
}

// ParseElicitResult reads the result of an elicitation/create, which
// must name an action.
func ParseElicitResult(raw []byte) (mcprt.ElicitResult, error) {
	var r struct {
		Action  string          `json:"action"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || r.Action == "" {
		return mcprt.ElicitResult{}, fmt.Errorf("malformed elicitation result: %s", raw)
	}
	return mcprt.ElicitResult{Action: r.Action, Content: r.Content}, nil
}

// ParseSampleResult reads the result of a sampling/createMessage, which
// must name a role: its content and the tools the model asked for.
func ParseSampleResult(raw []byte) (mcprt.SampleResult, error) {
	var r struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		Model      string          `json:"model"`
		StopReason string          `json:"stopReason"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || r.Role == "" {
		return mcprt.SampleResult{}, fmt.Errorf("malformed sampling result: %s", raw)
	}
	c, uses, err := ParseSampled(r.Content)
	if err != nil {
		return mcprt.SampleResult{}, fmt.Errorf("malformed sampling result: %s", raw)
	}
	return mcprt.SampleResult{Role: r.Role, Content: c, ToolUses: uses, Model: r.Model, StopReason: r.StopReason}, nil
}

// ParseRoots reads the result of a roots/list, which must list roots.
func ParseRoots(raw []byte) ([]mcprt.Root, error) {
	var r struct {
		Roots []mcprt.Root `json:"roots"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || r.Roots == nil {
		return nil, fmt.Errorf("malformed roots result: %s", raw)
	}
	return r.Roots, nil
}

// MissingCapabilityData is the data of a MissingRequiredClientCapability
// error (2026-07-28) for kind, a capability or, dotted, a member of one
// (elicitation.url), written as nested objects.
func MissingCapabilityData(kind string) []byte {
	caps := "{}"
	parts := strings.Split(kind, ".")
	for i := len(parts) - 1; i >= 0; i-- {
		caps = "{" + strconv.Quote(parts[i]) + ":" + caps + "}"
	}
	return []byte(`{"requiredCapabilities":` + caps + `}`)
}

// CodeMissingCapability is the JSON-RPC code of the error of a 2026-07-28
// request that needs a client capability it did not declare.
const CodeMissingCapability = -32021

// MissingCapabilityMessage is the message of that error for kind.
func MissingCapabilityMessage(kind string) string {
	return "Missing required client capability: " + kind
}
