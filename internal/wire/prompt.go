package wire

import (
	"errors"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// AppendPrompt appends the JSON descriptor of p as a prompts/list entry of
// revision rev: titles (of the prompt and of its arguments) only from
// 2025-06-18, icons only from 2025-11-25.
func AppendPrompt(dst []byte, p *mcprt.Prompt, rev Revision) []byte {
	dst = jsonx.AppendString(append(dst, `{"name":`...), p.Name)
	if p.Title != "" && rev.HasStructuredOutput() {
		dst = jsonx.AppendString(append(dst, `,"title":`...), p.Title)
	}
	if p.Description != "" {
		dst = jsonx.AppendString(append(dst, `,"description":`...), p.Description)
	}
	if len(p.Arguments) > 0 {
		dst = append(dst, `,"arguments":[`...)
		for i := range p.Arguments {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendPromptArgument(dst, &p.Arguments[i], rev)
		}
		dst = append(dst, ']')
	}
	if len(p.Icons) > 0 && rev.HasIcons() {
		dst = AppendIcons(append(dst, `,"icons":`...), p.Icons)
	}
	return append(dst, '}')
}

// appendPromptArgument appends one PromptArgument. required is written
// only when true: absent means not required on every revision.
func appendPromptArgument(dst []byte, a *mcprt.PromptArgument, rev Revision) []byte {
	dst = jsonx.AppendString(append(dst, `{"name":`...), a.Name)
	if a.Title != "" && rev.HasStructuredOutput() {
		dst = jsonx.AppendString(append(dst, `,"title":`...), a.Title)
	}
	if a.Description != "" {
		dst = jsonx.AppendString(append(dst, `,"description":`...), a.Description)
	}
	if a.Required {
		dst = append(dst, `,"required":true`...)
	}
	return append(dst, '}')
}

// AppendPromptResult appends r as the JSON result of prompts/get for
// revision rev, without the resultType of 2026-07-28 (the server adds it).
// Each message's content is written as [AppendContent] writes it, so a
// block rev lacks becomes a text block. A message without a role is the
// user's.
func AppendPromptResult(dst []byte, r *mcprt.PromptResult, rev Revision) []byte {
	dst = append(dst, '{')
	if r.Description != "" {
		dst = jsonx.AppendString(append(dst, `"description":`...), r.Description)
		dst = append(dst, ',')
	}
	dst = append(dst, `"messages":[`...)
	for i := range r.Messages {
		m := &r.Messages[i]
		if i > 0 {
			dst = append(dst, ',')
		}
		role := m.Role
		if role == "" {
			role = mcprt.RoleUser
		}
		dst = jsonx.AppendString(append(dst, `{"role":`...), string(role))
		dst = AppendContent(append(dst, `,"content":`...), &m.Content, rev)
		dst = append(dst, '}')
	}
	return append(dst, `]}`...)
}

// IsArgumentError reports whether err is, or wraps, the error generated
// code returns for arguments that are missing, unknown or do not parse:
// servers answer it as invalid params (-32602) rather than as an internal
// error.
func IsArgumentError(err error) bool {
	var ae *mcpimpl.ArgumentError
	return errors.As(err, &ae)
}
