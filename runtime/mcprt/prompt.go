package mcprt

import "context"

// Prompt is one prompt template as generated code declares it: its
// descriptor and the function that renders it.
type Prompt struct {
	Name        string
	Title       string
	Description string
	Arguments   []PromptArgument
	Icons       []Icon
	// Scopes are the OAuth scopes prompts/get needs, all of them, on a
	// server with authorization; they are not published.
	Scopes []string
	// Get renders the prompt with the client's arguments, every one a
	// string on the wire. Generated code parses them with the coercion of
	// tool arguments; a missing required argument, an unknown one or one
	// that does not parse is an error the server answers with -32602,
	// naming the argument. Any other error is an internal error.
	Get func(ctx context.Context, args map[string]string) (PromptResult, error)
	// Complete suggests values for the argument named argument, which the
	// user has typed as value; args are the other arguments already filled
	// in. Nil means no argument completes.
	Complete Completer
	// Meta is the prompt's _meta object as JSON, for anything a client
	// reads there; nil for none.
	Meta []byte
	// Groups are the names of the groups the prompt belongs to, as a
	// tool's.
	Groups []string
}

// PromptArgument describes one argument of a [Prompt].
type PromptArgument struct {
	Name        string
	Title       string // omitted when empty (2025-06-18 on)
	Description string
	Required    bool
}

// Role is who speaks a [PromptMessage].
type Role string

// The roles of a conversation.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// PromptMessage is one message of a rendered prompt: a content block of
// any kind (text, image, audio, resource link or embedded resource).
type PromptMessage struct {
	Role    Role
	Content Content
}

// PromptResult is a rendered prompt: an optional description and its
// messages.
type PromptResult struct {
	Description string
	Messages    []PromptMessage
}

// Completer suggests values for the argument named argument of a prompt or
// a resource template, which the user has typed as value; args are the
// other arguments the client has already filled in. A server sends at
// most 100 of the values it returns and says how many there were.
type Completer func(ctx context.Context, argument, value string, args map[string]string) ([]string, error)
