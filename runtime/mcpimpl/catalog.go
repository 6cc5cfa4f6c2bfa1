package mcpimpl

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// This file holds what generated prompts and resources call. Prompt
// arguments and template variables are strings on the wire; generated
// code writes them as a JSON object of strings and reads it with the
// decoder of tool arguments, whose coercion turns "42" into a number and
// whose checks hold them to their types, enums and bounds.

// StringArgs returns args as a JSON object of strings, in key order, so
// that problems are reported in the same order every time.
func StringArgs(args map[string]string) []byte {
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst := make([]byte, 0, 64)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendString(dst, k)
		dst = append(dst, ':')
		dst = jsonx.AppendString(dst, args[k])
	}
	return append(dst, '}')
}

// MatchArgs matches uri as Match does and returns the variables as a JSON
// object of strings, for the decoder of the template's function.
func (t *Template) MatchArgs(uri string) ([]byte, bool) {
	vals, ok := t.Match(uri)
	if !ok {
		return nil, false
	}
	dst := make([]byte, 0, 64)
	dst = append(dst, '{')
	k := 0
	for _, p := range t.Parts {
		if p.Var == "" {
			continue
		}
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendString(dst, p.Var)
		dst = append(dst, ':')
		dst = jsonx.AppendString(dst, vals[k])
		k++
	}
	return append(dst, '}'), true
}

// Float returns a pointer to f, for the priority of a resource literal.
func Float(f float64) *float64 { return &f }

// NotFound is the error of a template whose variables do not parse: the
// resource does not exist, and err says why. It is a [*VariableError].
func NotFound(err error) error {
	return &VariableError{Err: err}
}

// VariableError is the error of a URI whose template variables do not
// parse. It matches [mcprt.ErrNotFound]; Err says what is wrong with the
// URI, which servers send the client as the reason.
type VariableError struct {
	Err error
}

func (e *VariableError) Error() string { return mcprt.ErrNotFound.Error() + ": " + e.Err.Error() }

// Is reports that e is a not found: errors.Is(e, mcprt.ErrNotFound).
func (e *VariableError) Is(target error) bool { return target == mcprt.ErrNotFound }

func (e *VariableError) Unwrap() error { return e.Err }

// PromptText is the rendered prompt of a prompt function that returns a
// string: one user message of one text block.
func PromptText(text string) mcprt.PromptResult {
	return mcprt.PromptResult{Messages: []mcprt.PromptMessage{{Role: mcprt.RoleUser, Content: mcprt.Text(text)}}}
}

// TextContents is what a resource function returning a string read.
func TextContents(text string) []mcprt.ResourceContents {
	return []mcprt.ResourceContents{{Text: text}}
}

// BlobContents is what a resource function returning []byte read; no
// bytes at all are an empty blob, not a text.
func BlobContents(b []byte) []mcprt.ResourceContents {
	if b == nil {
		b = []byte{}
	}
	return []mcprt.ResourceContents{{Blob: b}}
}

// Contents is the JSON the encoder wrote, as the text of a resource.
func (e *Encoder) Contents() ([]mcprt.ResourceContents, error) {
	if e.err != nil {
		return nil, fmt.Errorf("encoding the resource: %w", e.err)
	}
	return []mcprt.ResourceContents{{Text: string(e.B)}}, nil
}

// CompleteFrom returns the values that start with what the user typed,
// in their order: the completion of an enum.
func CompleteFrom(values []string, typed string) []string {
	var out []string
	for _, v := range values {
		if strings.HasPrefix(v, typed) {
			out = append(out, v)
		}
	}
	return out
}
