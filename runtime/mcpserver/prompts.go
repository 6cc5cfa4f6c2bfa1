package mcpserver

import (
	"context"
	"strconv"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// AddPrompts adds prompts. Descriptors are serialized for every
// revision now, not per request. It is safe while the server runs; when
// Identity.EnablePromptNotifications is set, every live initialized
// session is sent notifications/prompts/list_changed. A second prompt of
// one name panics and adds none, as [Server.AddTools] says; RemovePrompts
// the first to replace it.
func (s *Server) AddPrompts(prompts ...mcprt.Prompt) {
	entries := make([]*entry[mcprt.Prompt], len(prompts))
	for i, p := range prompts {
		entries[i] = newPromptEntry(p)
	}
	first, second := s.prompts.add(entries)
	duplicate("AddPrompts", "prompt", "RemovePrompts", first, second, func(p *mcprt.Prompt) any { return p.Get })
	s.refreshCapabilities()
	if s.id.EnablePromptNotifications {
		s.broadcast("notifications/prompts/list_changed")
	}
}

// RemovePrompts removes the prompts named names; names of no prompt are
// ignored. When something was removed and Identity.EnablePromptNotifications
// is set, every live initialized session is sent
// notifications/prompts/list_changed.
func (s *Server) RemovePrompts(names ...string) {
	if !s.prompts.remove(names) {
		return
	}
	s.refreshCapabilities()
	if s.id.EnablePromptNotifications {
		s.broadcast("notifications/prompts/list_changed")
	}
}

// listPrompts answers prompts/list.
func (s *Server) listPrompts(x *exchange, params []byte) ([]byte, *rpcError) {
	start, err := pageStart(x, params)
	if err != nil {
		return nil, err
	}
	return s.listPage(x, start, "prompts", s.prompts.appendPage)
}

// getPrompt answers prompts/get: it renders the named prompt with the
// client's arguments, with a [mcprt.Caller] in its context, and writes
// the messages for the request's revision.
func (s *Server) getPrompt(ctx context.Context, x *exchange, params []byte) ([]byte, *rpcError) {
	if err := objectParams(params); err != nil {
		return nil, err
	}
	name, err := nameParam(x.meta.toolName, "prompt")
	if err != nil {
		return nil, err
	}
	args, err := promptArguments(x.meta.toolArgs)
	if err != nil {
		return nil, err
	}
	e := s.prompts.get(name)
	if e == nil {
		return nil, errorf(codeInvalidParams, "invalid params: unknown prompt "+strconv.Quote(name))
	}
	caller := new(exchangeCore) // the handler may keep it; x stays on the caller's stack
	*caller = x.exchangeCore
	res, err := s.renderPrompt(mcprt.WithCaller(ctx, caller), x, &e.val, args)
	if err != nil {
		return nil, err
	}
	return x.withResultType(wire.AppendPromptResult(make([]byte, 0, 512), &res, x.rev)), nil
}

// renderPrompt runs p.Get (through wire.RenderPrompt, as the adapters
// do). An argument error of generated code is invalid params, with its
// text, so the client can name the argument to fix; any other error, a
// panic included, is an internal error (its text masked with
// MaskErrors); the server keeps serving. A URLElicitationRequired is
// answered as [exchange.urlElicitation] says.
func (s *Server) renderPrompt(ctx context.Context, x *exchange, p *mcprt.Prompt, args map[string]string) (mcprt.PromptResult, *rpcError) {
	res, err := wire.RenderPrompt(ctx, s.logger(), p, args)
	switch {
	case err == nil:
		return res, nil
	case wire.IsArgumentError(err):
		return res, errorf(codeInvalidParams, err.Error())
	}
	if rerr, handled := x.urlElicitation(err); handled {
		return res, rerr
	}
	x.failedAsking(err)
	if s.MaskErrors {
		return res, errorf(codeInternalError, wire.Mask(ctx, s.logger(), "prompt", p.Name, err))
	}
	return res, errorf(codeInternalError, err.Error())
}

// promptArguments reads the arguments of prompts/get: an object whose
// every value is a string, as the protocol has them. None (absent or
// null) is an empty map, so Get always gets one.
func promptArguments(raw []byte) (map[string]string, *rpcError) {
	args := make(map[string]string)
	if raw == nil || isNull(raw) {
		return args, nil
	}
	if raw[0] != '{' {
		return nil, errorf(codeInvalidParams, "invalid params: arguments must be an object")
	}
	var bad *rpcError
	jsonx.Members(raw, func(_, key, val []byte) {
		v, ok := stringValue(val)
		if !ok && bad == nil {
			bad = errorf(codeInvalidParams, "invalid params: argument "+strconv.Quote(string(key))+" must be a string, not a "+describeKind(val))
		}
		args[string(key)] = v
	})
	if bad != nil {
		return nil, bad
	}
	return args, nil
}

// nameParam reads a request's name (the JSON value raw), which must be a
// non-empty string; what names the kind of thing named.
func nameParam(raw []byte, what string) (string, *rpcError) {
	if raw == nil || isNull(raw) {
		return "", errorf(codeInvalidParams, "invalid params: "+what+" name is missing")
	}
	name, ok := stringValue(raw)
	if !ok {
		return "", errorf(codeInvalidParams, "invalid params: name must not be a "+describeKind(raw))
	}
	if name == "" {
		return "", errorf(codeInvalidParams, "invalid params: "+what+" name is missing")
	}
	return name, nil
}

// objectParams refuses params that are present but not an object.
func objectParams(params []byte) *rpcError {
	if len(params) > 0 && !isNull(params) && params[0] != '{' {
		return errorf(codeInvalidParams, "invalid params: params must be an object")
	}
	return nil
}
