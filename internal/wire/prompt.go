package wire

import (
	"errors"
	"slices"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// PromptIn returns what revision rev publishes of p's descriptor: p
// without the titles (its own and its arguments') before 2025-06-18 and
// without icons before 2025-11-25. The built-in server writes it
// ([AppendPrompt]); the adapters map it onto their SDK's type.
func PromptIn(p *mcprt.Prompt, rev Revision) mcprt.Prompt {
	out := *p
	if !rev.HasStructuredOutput() {
		out.Title = ""
		if slices.ContainsFunc(p.Arguments, func(a mcprt.PromptArgument) bool { return a.Title != "" }) {
			out.Arguments = slices.Clone(p.Arguments)
			for i := range out.Arguments {
				out.Arguments[i].Title = ""
			}
		}
	}
	if !rev.HasIcons() {
		out.Icons = nil
	}
	return out
}

// AppendPrompt appends the JSON descriptor of p as a prompts/list entry of
// revision rev, as [PromptIn] trims it.
func AppendPrompt(dst []byte, p *mcprt.Prompt, rev Revision) []byte {
	v := PromptIn(p, rev)
	dst = jsonx.AppendString(append(dst, `{"name":`...), v.Name)
	if v.Title != "" {
		dst = jsonx.AppendString(append(dst, `,"title":`...), v.Title)
	}
	if v.Description != "" {
		dst = jsonx.AppendString(append(dst, `,"description":`...), v.Description)
	}
	if len(v.Arguments) > 0 {
		dst = append(dst, `,"arguments":[`...)
		for i := range v.Arguments {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendPromptArgument(dst, &v.Arguments[i])
		}
		dst = append(dst, ']')
	}
	if len(v.Icons) > 0 {
		dst = AppendIcons(append(dst, `,"icons":`...), v.Icons)
	}
	return appendMeta(dst, PromptMeta(p), rev)
}

// appendPromptArgument appends one PromptArgument. required is written
// only when true: absent means not required on every revision.
func appendPromptArgument(dst []byte, a *mcprt.PromptArgument) []byte {
	dst = jsonx.AppendString(append(dst, `{"name":`...), a.Name)
	if a.Title != "" {
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
