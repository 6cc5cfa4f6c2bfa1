package mcpserver

import (
	"context"
	"strconv"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

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
	values, total, more, err := wire.Complete(ctx, s.logger(), completer, kind, name, p.Argument.Name, p.Argument.Value, args)
	switch {
	case err != nil && s.MaskErrors:
		return nil, errorf(codeInternalError, wire.Mask(ctx, s.logger(), kind+" completion", name, err))
	case err != nil:
		return nil, errorf(codeInternalError, err.Error())
	}
	return x.withResultType(appendCompletion(make([]byte, 0, 64+16*len(values)), values, total, more)), nil
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

// appendCompletion writes the completion result of values (at most
// wire.MaxCompletions of them, as wire.Complete cut them), with the total
// count and whether there were more.
func appendCompletion(dst []byte, values []string, total int, hasMore bool) []byte {
	dst = append(dst, `{"completion":{"values":[`...)
	for i, v := range values {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendString(dst, v)
	}
	dst = jsonx.AppendInt(append(dst, `],"total":`...), int64(total))
	dst = jsonx.AppendBool(append(dst, `,"hasMore":`...), hasMore)
	return append(dst, `}}`...)
}
