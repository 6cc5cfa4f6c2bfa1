package mcpserver

import (
	"context"
	"strconv"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// maxCompletions is how many values one completion result may carry.
const maxCompletions = 100

// completeParams are the params of completion/complete. They are small
// and rare enough to go through encoding/json.
type completeParams struct {
	Ref *struct {
		Type string `json:"type"`
		Name string `json:"name"`
		URI  string `json:"uri"`
	} `json:"ref"`
	Argument *struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"argument"`
	Context *struct {
		Arguments map[string]string `json:"arguments"`
	} `json:"context"`
}

// complete answers completion/complete: the completer of the prompt or
// resource the ref names suggests values for the argument. A prompt or
// resource without a completer, or with nothing to suggest, gets an empty
// list, never an error: clients ask for every argument.
func (s *Server) complete(ctx context.Context, x *exchange, params []byte) ([]byte, *rpcError) {
	if !s.id.EnableCompletions {
		return nil, methodNotFound("completion/complete")
	}
	var p completeParams
	if err := unmarshalParams(params, &p); err != nil {
		return nil, err
	}
	if p.Ref == nil || p.Argument == nil {
		return nil, errorf(codeInvalidParams, "invalid params: ref and argument are required")
	}
	if p.Argument.Name == "" {
		return nil, errorf(codeInvalidParams, "invalid params: argument name is missing")
	}
	kind, name, completer, rerr := s.completerOf(p.Ref.Type, p.Ref.Name, p.Ref.URI)
	if rerr != nil {
		return nil, rerr
	}
	args := map[string]string{}
	if p.Context != nil && p.Context.Arguments != nil {
		args = p.Context.Arguments
	}
	values, rerr := s.runCompleter(ctx, completer, kind, name, p.Argument.Name, p.Argument.Value, args)
	if rerr != nil {
		return nil, rerr
	}
	return x.withResultType(appendCompletion(make([]byte, 0, 64+16*min(len(values), maxCompletions)), values)), nil
}

// completerOf finds the completer of a ref: a prompt by name, or a
// resource template (by its template, as listed) or resource by URI. An
// unknown prompt or resource is invalid params; a known one may have no
// completer (nil).
func (s *Server) completerOf(refType, name, uri string) (kind, key string, c mcprt.Completer, rerr *rpcError) {
	switch refType {
	case "ref/prompt":
		if e := s.prompts.get(name); e != nil {
			return "prompt", name, e.val.Complete, nil
		}
		return "", "", nil, errorf(codeInvalidParams, "invalid params: unknown prompt "+strconv.Quote(name))
	case "ref/resource":
		e := s.templates.get(uri)
		if e == nil {
			e = s.resources.get(uri)
		}
		if e != nil {
			return "resource", uri, e.val.Complete, nil
		}
		return "", "", nil, errorf(codeInvalidParams, "invalid params: unknown resource "+strconv.Quote(uri))
	}
	return "", "", nil, errorf(codeInvalidParams, "invalid params: unknown ref type "+strconv.Quote(refType)+"; want ref/prompt or ref/resource")
}

// runCompleter runs c, if any. Its error is an internal error with its
// text; a panic is logged and answered as an internal error, and the
// server keeps serving.
func (s *Server) runCompleter(ctx context.Context, c mcprt.Completer, kind, name, argument, value string, args map[string]string) (values []string, rerr *rpcError) {
	if c == nil {
		return nil, nil
	}
	defer func() {
		if v := recover(); v != nil {
			values, rerr = nil, s.panicked(kind+" completion", name, v)
		}
	}()
	values, err := c(ctx, argument, value, args)
	if err != nil {
		return nil, errorf(codeInternalError, err.Error())
	}
	return values, nil
}

// appendCompletion writes the completion result of values: at most 100 of
// them, with the total count and whether there were more.
func appendCompletion(dst []byte, values []string) []byte {
	dst = append(dst, `{"completion":{"values":[`...)
	for i, v := range values[:min(len(values), maxCompletions)] {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendString(dst, v)
	}
	dst = jsonx.AppendInt(append(dst, `],"total":`...), int64(len(values)))
	dst = jsonx.AppendBool(append(dst, `,"hasMore":`...), len(values) > maxCompletions)
	return append(dst, `}}`...)
}
