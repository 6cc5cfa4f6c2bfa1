package mcprt

import (
	"context"
	"errors"

	"github.com/mcpgen/mcpgen/internal/ctxkey"
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
// client's model to continue. Content is its text, image or audio block
// (none when the message is only tool uses); an assistant message may
// carry the tools the model asked for (ToolUses), and a user message the
// results of those tools (ToolResults). A message holding tool results
// holds nothing else.
type SampleMessage struct {
	Role        string // "user" or "assistant"
	Content     Content
	ToolUses    []ToolUse
	ToolResults []ToolResult
}

// SampleRequest asks the client to sample its language model.
type SampleRequest struct {
	Messages     []SampleMessage
	MaxTokens    int
	SystemPrompt string // omitted when empty
	// ModelPreferences is the JSON of the request's modelPreferences
	// object (hints and priorities), or nil.
	ModelPreferences []byte
	// Tools are tools the model may ask for while it answers; the server
	// runs them and sends their results in the next request. They need
	// the client's sampling.tools capability and revision 2025-11-25 or
	// later.
	Tools []SampleTool
	// ToolChoice is "auto" (the model decides), "required" (it must use
	// a tool) or "none"; empty sends none, which clients take as "auto".
	ToolChoice string
}

// The tool choices of a [SampleRequest].
const (
	ToolChoiceAuto     = "auto"
	ToolChoiceRequired = "required"
	ToolChoiceNone     = "none"
)

// SampleTool is a tool offered to the client's model in a sampling
// request: a name, what it does, and its input schema (a JSON object
// schema; nil means an object of any properties).
type SampleTool struct {
	Name        string
	Description string
	InputSchema []byte
}

// ToolUse is the model's request to call a tool: an id that its result
// answers to, the tool's name and its input as a JSON object.
type ToolUse struct {
	ID    string
	Name  string
	Input []byte
}

// ToolResult is the result of a tool the model asked for, sent back in a
// user message: the id of the [ToolUse] it answers, its content, and
// whether the tool failed.
type ToolResult struct {
	ToolUseID string
	Content   []Content
	IsError   bool
}

// SampleResult is what the client's model answered. StopReason is
// "toolUse" when the model asks for the tools in ToolUses.
type SampleResult struct {
	Role       string
	Content    Content
	ToolUses   []ToolUse
	Model      string
	StopReason string
}

// StopToolUse is the StopReason of a model that asks for tools.
const StopToolUse = "toolUse"

// Caller is the client end of a call, as a server offers it to the handler
// running the call. The built-in server and the SDK adapters install one in
// every call's context with [WithCaller]; handlers use the package functions
// [Progress], [Log], [Elicit], [ElicitURL], [Sample] and [ListRoots], which find it
// there. A test of a handler may install its own.
type Caller interface {
	// Progress reports progress of the call, when the client asked for it.
	Progress(ctx context.Context, progress, total float64, message string) error
	// Log sends a log message when level is at or above the client's level.
	Log(ctx context.Context, level LogLevel, logger string, data any) error
	// Elicit asks the client's user for input matching requestedSchema.
	Elicit(ctx context.Context, message string, requestedSchema []byte) (ElicitResult, error)
	// ElicitURL asks the client to send its user to url; it returns the
	// answer and the elicitation's id (empty on 2026-07-28).
	ElicitURL(ctx context.Context, message, url string) (ElicitResult, string, error)
	// Sample asks the client to sample its model.
	Sample(ctx context.Context, req SampleRequest) (SampleResult, error)
	// ListRoots asks the client for its roots.
	ListRoots(ctx context.Context) ([]Root, error)
}

// Root is a location the client lets the server work in: a directory, a
// repository, any URI.
type Root struct {
	URI  string
	Name string // optional
}

// ErrInputRequired is returned by [Elicit], [ElicitForm], [Sample] and
// [ListRoots] on revision 2026-07-28 when the client has not answered the
// question yet: the handler should return it (or any error) so that its
// run ends; the client is sent the question and retries the request with
// the answer.
var ErrInputRequired = errors.New("the client must answer a question first: the request is retried with the answer")

// ErrNoCaller is returned by [Log], [Elicit], [Sample] and [ListRoots] when the context
// carries no [Caller]: the handler was not called by an MCP server.
var ErrNoCaller = errors.New("mcprt: no MCP server in the context: the handler was not called by a server")

// callerKey is the key of the Caller; a server's own context may answer
// it too (see package ctxkey).
type callerKey = ctxkey.Caller

// WithCaller returns a context that carries c, for the handler of one call.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// callerFrom returns the [Caller] in ctx, if any.
func callerFrom(ctx context.Context) (Caller, bool) {
	c, ok := ctx.Value(callerKey{}).(Caller)
	return c, ok && c != nil
}

// Progress sends a progress notification for the running call: progress so
// far, the total when known (zero or less: unknown) and an optional
// message. It does nothing and returns nil when the request had no progress
// token or ctx carries no [Caller].
func Progress(ctx context.Context, progress, total float64, message string) error {
	c, ok := callerFrom(ctx)
	if !ok {
		return nil
	}
	return c.Progress(ctx, progress, total, message)
}

// Log sends a log message to the client. data is any value encoding/json
// can marshal; logger names the source and may be empty. It returns nil
// without sending when the client did not ask for messages of this level.
func Log(ctx context.Context, level LogLevel, logger string, data any) error {
	c, ok := callerFrom(ctx)
	if !ok {
		return ErrNoCaller
	}
	return c.Log(ctx, level, logger, data)
}

// Elicit asks the client to collect input from its user: message says what
// is wanted, requestedSchema is a flat JSON object schema of the fields. It
// fails with an error matching [ErrNotSupported] when the server does not
// enable elicitation or the client did not declare it.
//
// On sessions of the revisions up to 2025-11-25 the question is a request
// to the client and Elicit waits for the answer. On 2026-07-28 a request
// cannot wait: an unanswered question ends the handler's run (Elicit
// returns an error the handler should return), the client is sent the
// question, and its retry runs the handler again from the start, when
// Elicit returns the answer. A handler that asks must therefore be safe to
// run again up to its last question, and ask the same questions each time.
// The same holds for [ElicitForm], [Sample] and [ListRoots]. Questions
// asked at once from several goroutines go to the client in one round.
func Elicit(ctx context.Context, message string, requestedSchema []byte) (ElicitResult, error) {
	c, ok := callerFrom(ctx)
	if !ok {
		return ElicitResult{}, ErrNoCaller
	}
	return c.Elicit(ctx, message, requestedSchema)
}

// Sample asks the client to have its model answer req. It fails when the
// server does not enable sampling or the client did not declare it. See
// [Elicit] for how a question is asked on each revision.
func Sample(ctx context.Context, req SampleRequest) (SampleResult, error) {
	c, ok := callerFrom(ctx)
	if !ok {
		return SampleResult{}, ErrNoCaller
	}
	return c.Sample(ctx, req)
}

// ListRoots asks the client for its roots. It fails when the client did not
// declare the roots capability. See [Elicit] for how a question is asked on
// each revision.
func ListRoots(ctx context.Context) ([]Root, error) {
	c, ok := callerFrom(ctx)
	if !ok {
		return nil, ErrNoCaller
	}
	return c.ListRoots(ctx)
}

// WithInputKey returns a context whose questions ([Elicit], [ElicitForm],
// [Sample], [ListRoots]) are named key on revision 2026-07-28, where a
// client sees the name in the input request and answers under it. Without
// it a question is named after its method and content, which is stable
// across the runs of a handler. It changes nothing on other revisions.
func WithInputKey(ctx context.Context, key string) context.Context {
	return ctxkey.WithInputKey(ctx, key)
}
