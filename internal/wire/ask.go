package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

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
