package mcprt

import (
	"context"
	"errors"
)

// LogLevel is the severity of a log message, as syslog (RFC 5424) names
// them. A client sets the lowest level it wants to receive.
type LogLevel string

// The log levels, from least to most severe.
const (
	LevelDebug     LogLevel = "debug"
	LevelInfo      LogLevel = "info"
	LevelNotice    LogLevel = "notice"
	LevelWarning   LogLevel = "warning"
	LevelError     LogLevel = "error"
	LevelCritical  LogLevel = "critical"
	LevelAlert     LogLevel = "alert"
	LevelEmergency LogLevel = "emergency"
)

// ElicitResult is the client's answer to an elicitation request.
type ElicitResult struct {
	// Action is "accept", "decline" or "cancel".
	Action string
	// Content is the submitted form data as a JSON object, present only
	// when Action is "accept".
	Content []byte
}

// SampleMessage is one message of the conversation a server asks the
// client's model to continue.
type SampleMessage struct {
	Role    string // "user" or "assistant"
	Content Content
}

// SampleRequest asks the client to sample its language model.
type SampleRequest struct {
	Messages     []SampleMessage
	MaxTokens    int
	SystemPrompt string // omitted when empty
	// ModelPreferences is the JSON of the request's modelPreferences
	// object (hints and priorities), or nil.
	ModelPreferences []byte
}

// SampleResult is what the client's model answered.
type SampleResult struct {
	Role       string
	Content    Content
	Model      string
	StopReason string
}

// Caller is the client end of a call, as a server offers it to the handler
// running the call. The built-in server and the SDK adapters install one in
// every call's context with [WithCaller]; handlers use the package functions
// [Progress], [Log], [Elicit] and [Sample], which find it there.
type Caller interface {
	// Progress reports progress of the call, when the client asked for it.
	Progress(ctx context.Context, progress, total float64, message string) error
	// Log sends a log message when level is at or above the client's level.
	Log(ctx context.Context, level LogLevel, logger string, data any) error
	// Elicit asks the client's user for input matching requestedSchema.
	Elicit(ctx context.Context, message string, requestedSchema []byte) (ElicitResult, error)
	// Sample asks the client to sample its model.
	Sample(ctx context.Context, req SampleRequest) (SampleResult, error)
}

// ErrNoCaller is returned by [Log], [Elicit] and [Sample] when the context
// carries no [Caller]: the handler was not called by an MCP server.
var ErrNoCaller = errors.New("mcprt: no MCP server in the context: the handler was not called by a server")

type callerKey struct{}

// WithCaller returns a context that carries c, for the handler of one call.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the [Caller] in ctx, if any.
func CallerFrom(ctx context.Context) (Caller, bool) {
	c, ok := ctx.Value(callerKey{}).(Caller)
	return c, ok && c != nil
}

// Progress sends a progress notification for the running call: progress so
// far, the total when known (zero or less: unknown) and an optional
// message. It does nothing and returns nil when the request had no progress
// token or ctx carries no [Caller].
func Progress(ctx context.Context, progress, total float64, message string) error {
	c, ok := CallerFrom(ctx)
	if !ok {
		return nil
	}
	return c.Progress(ctx, progress, total, message)
}

// Log sends a log message to the client. data is any value encoding/json
// can marshal; logger names the source and may be empty. It returns nil
// without sending when the client did not ask for messages of this level.
func Log(ctx context.Context, level LogLevel, logger string, data any) error {
	c, ok := CallerFrom(ctx)
	if !ok {
		return ErrNoCaller
	}
	return c.Log(ctx, level, logger, data)
}

// Elicit asks the client to collect input from its user: message says what
// is wanted, requestedSchema is a flat JSON object schema of the fields. It
// fails when the server does not enable elicitation or the client did not
// declare it.
func Elicit(ctx context.Context, message string, requestedSchema []byte) (ElicitResult, error) {
	c, ok := CallerFrom(ctx)
	if !ok {
		return ElicitResult{}, ErrNoCaller
	}
	return c.Elicit(ctx, message, requestedSchema)
}

// Sample asks the client to have its model answer req. It fails when the
// server does not enable sampling or the client did not declare it.
func Sample(ctx context.Context, req SampleRequest) (SampleResult, error) {
	c, ok := CallerFrom(ctx)
	if !ok {
		return SampleResult{}, ErrNoCaller
	}
	return c.Sample(ctx, req)
}
