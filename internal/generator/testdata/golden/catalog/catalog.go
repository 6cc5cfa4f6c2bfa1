// Package catalog has prompts, resources and resource templates of every
// shape: positional and struct arguments, enums that complete themselves,
// a completer function, every result kind, and methods.
package catalog

import (
	"context"
	"errors"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// Format is how an article is rendered.
type Format string

// The formats.
const (
	Markdown Format = "markdown"
	HTML     Format = "html"
)

// Level is a heading level.
type Level int

// The levels.
const (
	Top Level = iota + 1
	Sub
)

// Greeting returns a static text.
//
//mcp:resource uri=kb://greeting title="Greeting" audience=user priority=0.5
func Greeting() string { return "hello" }

// Logo is an image.
//
//mcp:resource uri=kb://logo.png mime=image/png size=3
func Logo(ctx context.Context) ([]byte, error) { return []byte{1, 2, 3}, nil }

// Stats is the state of the knowledge base.
type Stats struct {
	Articles int    `json:"articles"`
	Owner    string `json:"owner,omitempty"`
}

// Status reports the knowledge base's statistics.
//
//mcp:resource uri=kb://status
func Status(ctx context.Context) (Stats, error) { return Stats{Articles: 2}, nil }

// Article returns one article, by number, rendered in a format.
//
//mcp:resource uri=kb://articles/{id}/{format}
//mcp:param format complete=CompleteFormat
func Article(ctx context.Context, id int, format Format) (string, error) {
	if id > 2 {
		return "", mcprt.ErrNotFound
	}
	return string(format) + " article", nil
}

// CompleteFormat suggests formats.
func CompleteFormat(ctx context.Context, value string, args map[string]string) ([]string, error) {
	return []string{"markdown", "html"}, nil
}

// FileVars are the variables of File.
type FileVars struct {
	Path string `json:"path"` // the file's path
}

// File returns a file's contents, several parts of it.
//
//mcp:resource uri=kb://files/{+path}
func File(ctx context.Context, v FileVars) ([]mcprt.ResourceContents, error) {
	if strings.Contains(v.Path, "..") {
		return nil, errors.New("no parent directories")
	}
	return []mcprt.ResourceContents{{Text: v.Path}, {URI: "kb://files/" + v.Path + ".meta", Text: "meta"}}, nil
}

// Summarize asks for a summary of an article.
//
//mcp:prompt title="Summarize an article"
//mcp:param article description="Article number" max=100
//mcp:param style description="Summary style" complete=CompleteStyle
//mcp:param level description="Heading level"
func Summarize(ctx context.Context, article int, style string, level *Level) (string, error) {
	return "Summarize article " + style, nil
}

// CompleteStyle suggests styles.
func CompleteStyle(ctx context.Context, value string, args map[string]string) ([]string, error) {
	return []string{"short", "long"}, nil
}

// ReviewArgs are the arguments of Review.
type ReviewArgs struct {
	Topic  string `json:"topic"`                               // What to review
	Strict bool   `json:"strict,omitempty" mcp:"title=Strict"` // Whether to be strict
}

// Review is a conversation to start a review.
//
//mcp:prompt name=review_topic
func Review(in ReviewArgs) []mcprt.PromptMessage {
	return []mcprt.PromptMessage{{Role: mcprt.RoleUser, Content: mcprt.Text("Review " + in.Topic)}}
}

// Desk is a help desk.
type Desk struct{ Name string }

// Welcome greets a visitor at the desk.
//
//mcp:prompt
func (d *Desk) Welcome() (mcprt.PromptResult, error) {
	return mcprt.PromptResult{Description: "welcome", Messages: []mcprt.PromptMessage{{Role: mcprt.RoleAssistant, Content: mcprt.Text("Welcome to " + d.Name)}}}, nil
}

// Hours are the desk's opening hours.
//
//mcp:resource uri=desk://hours
func (d *Desk) Hours() mcprt.ResourceContents {
	return mcprt.ResourceContents{Text: d.Name + " opens at 9"}
}

// Ask asks the desk about a topic.
//
//mcp:prompt
//mcp:param topic description="What to ask about" complete=Topics
func (d *Desk) Ask(topic string) string { return "Ask " + d.Name + " about " + topic }

// Topics completes the topics from the desk's own state: a method
// completer, called on the desk the prompt is bound to.
func (d *Desk) Topics(ctx context.Context, value string, args map[string]string) ([]string, error) {
	return []string{d.Name + " hours", d.Name + " staff"}, nil
}
