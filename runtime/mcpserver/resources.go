package mcpserver

import (
	"context"
	"errors"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// AddResources adds resources and resource templates (a URI holding an
// RFC 6570 expression, "{...}", is a template). Descriptors are
// serialized for every revision now, not per request. It is safe while
// the server runs; when Identity.EnableResourceNotifications is set,
// every live initialized session is sent
// notifications/resources/list_changed. A second resource of one URI, or
// template of one URI template, panics and adds none, as
// [Server.AddTools] says; RemoveResources the first to replace it.
func (s *Server) AddResources(resources ...mcprt.Resource) {
	var static, templates []*entry[mcprt.Resource]
	for _, r := range resources {
		if wire.IsTemplate(r.URI) {
			templates = append(templates, newResourceEntry(r, wire.AppendResourceTemplate))
		} else {
			static = append(static, newResourceEntry(r, wire.AppendResource))
		}
	}
	read := func(r *mcprt.Resource) any { return r.Read }
	first, second := s.resources.add(static)
	duplicate("AddResources", "resource", "RemoveResources", first, second, read)
	if first, second = s.templates.add(templates); first != nil {
		// None of resources is added: the static ones leave again.
		uris := make([]string, len(static))
		for i, e := range static {
			uris[i] = e.key
		}
		s.resources.remove(uris)
		duplicate("AddResources", "resource template", "RemoveResources", first, second, read)
	}
	s.refreshCapabilities()
	if s.id.EnableResourceNotifications {
		s.broadcast("notifications/resources/list_changed")
	}
}

// RemoveResources removes the resources and templates of uris (a template
// is named by its template, as listed); URIs of none are ignored. When
// something was removed and Identity.EnableResourceNotifications is set,
// every live initialized session is sent
// notifications/resources/list_changed. Subscriptions to a removed URI
// stay: a resource may come back.
func (s *Server) RemoveResources(uris ...string) {
	// Both removals run: a URI names a resource or a template, not both.
	gone := s.resources.remove(uris)
	gone = s.templates.remove(uris) || gone
	if !gone {
		return
	}
	s.refreshCapabilities()
	if s.id.EnableResourceNotifications {
		s.broadcast("notifications/resources/list_changed")
	}
}

// listResources answers resources/list: the static resources.
func (s *Server) listResources(x *exchange, params []byte) ([]byte, *rpcError) {
	start, err := pageStart(x, params)
	if err != nil {
		return nil, err
	}
	return s.listPage(x, start, "resources", s.appendResourcePage)
}

// listTemplates answers resources/templates/list.
func (s *Server) listTemplates(x *exchange, params []byte) ([]byte, *rpcError) {
	start, err := pageStart(x, params)
	if err != nil {
		return nil, err
	}
	return s.listPage(x, start, "resourceTemplates", s.templates.appendPage)
}

// readResource answers resources/read. The static resource of the exact
// URI answers if there is one, whatever it answers; else each template in
// registration order is asked until one returns something other than
// ErrNotFound (a template's Read matches the URI itself). When none does,
// the resource is not found, with the first reason a read gave.
func (s *Server) readResource(ctx context.Context, x *exchange, params []byte) ([]byte, *rpcError) {
	uri, rerr := uriParam(params)
	if rerr != nil {
		return nil, rerr
	}
	caller := new(exchangeCore) // the handler may keep it; x stays on the caller's stack
	*caller = x.exchangeCore
	ctx = mcprt.WithCaller(ctx, caller)
	if result, rerr, ok := s.readSkillFile(ctx, x, uri); ok {
		return result, rerr
	}
	if e := s.resources.get(uri); e != nil {
		contents, missing, rerr := s.readFrom(ctx, x, &e.val, uri)
		switch {
		case rerr != nil:
			return nil, rerr
		case missing != nil:
			return nil, s.notFound(ctx, uri, x.rev, missing)
		}
		return appendReadResult(x.rev, contents, uri, e.val.MIMEType, s.cacheHints().read), nil
	}
	var first error // the first not found that says why
	for _, e := range s.templates.all() {
		if e.val.Read == nil || !s.mayRead(ctx, &e.val) {
			continue
		}
		contents, missing, rerr := s.readFrom(ctx, x, &e.val, uri)
		switch {
		case rerr != nil:
			return nil, rerr
		case missing == nil:
			return appendReadResult(x.rev, contents, uri, e.val.MIMEType, s.cacheHints().read), nil
		case first == nil && wire.NotFoundReason(missing) != "":
			first = missing
		}
	}
	return nil, s.notFound(ctx, uri, x.rev, first)
}

// readFrom runs r.Read for uri (through wire.ReadResource, as the
// adapters do). missing is the handler's error when it wraps
// mcprt.ErrNotFound; any other error, a panic included, is an internal
// error with its text, and the server keeps serving. A
// URLElicitationRequired is answered as [exchange.urlElicitation] says.
func (s *Server) readFrom(ctx context.Context, x *exchange, r *mcprt.Resource, uri string) (contents []mcprt.ResourceContents, missing error, rerr *rpcError) {
	contents, err := wire.ReadResource(ctx, s.logger(), r, uri)
	switch {
	case err == nil:
		return contents, nil, nil
	case errors.Is(err, mcprt.ErrNotFound):
		return nil, err, nil
	}
	if rerr, handled := x.urlElicitation(err); handled {
		return nil, nil, rerr
	}
	x.failedAsking(err)
	if s.MaskErrors {
		return nil, nil, errorf(codeInternalError, wire.Mask(ctx, s.logger(), "resource", r.URI, err))
	}
	return nil, nil, errorf(codeInternalError, err.Error())
}

// notFound is the error of a read of no resource: -32002 before
// 2026-07-28, which made it -32602; on every revision its data names the
// URI. When missing, the error of a read, says why (wire.NotFoundReason),
// the message and data.reason say it too, and the server logs it.
func (s *Server) notFound(ctx context.Context, uri string, rev wire.Revision, missing error) *rpcError {
	reason := ""
	switch {
	case missing == nil:
	case s.MaskErrors:
		if reason = wire.MaskReason(ctx, s.logger(), uri, missing); reason == wire.NotFoundReason(missing) {
			wire.LogNotFound(ctx, s.logger(), uri, reason) // not masked: a variable's problem
		}
	default:
		reason = wire.NotFoundReason(missing)
		wire.LogNotFound(ctx, s.logger(), uri, reason)
	}
	data := jsonx.AppendString(append(make([]byte, 0, len(uri)+len(reason)+24), `{"uri":`...), uri)
	message := "Resource not found"
	if reason != "" {
		message += ": " + reason
		data = jsonx.AppendString(append(data, `,"reason":`...), reason)
	}
	code := codeResourceNotFound
	if rev.Stateless() {
		code = codeInvalidParams
	}
	return &rpcError{code: code, message: message, data: append(data, '}')}
}

// appendReadResult writes the result of resources/read for rev: the
// contents, each with uri and mimeType standing in for its own when
// empty, and on 2026-07-28 resultType and the caching hints. A read may
// depend on who asks, so it is private to the client, and not to be kept.
func appendReadResult(rev wire.Revision, contents []mcprt.ResourceContents, uri, mimeType string, hints []byte) []byte {
	n := 64 + len(uri)
	for i := range contents {
		n += 64 + len(uri) + len(mimeType) + len(contents[i].Text) + len(contents[i].Blob)*4/3
	}
	dst := append(make([]byte, 0, n), '{')
	if rev.Stateless() {
		dst = append(dst, `"resultType":"complete",`...)
	}
	dst = append(dst, `"contents":[`...)
	for i := range contents {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = wire.AppendResourceContents(dst, &contents[i], uri, mimeType, rev)
	}
	dst = append(dst, ']')
	if rev.Stateless() {
		dst = append(dst, hints...)
	}
	return append(dst, '}')
}

// uriParam reads the uri of resources/read, subscribe and unsubscribe: a
// non-empty string.
func uriParam(params []byte) (string, *rpcError) {
	if err := objectParams(params); err != nil {
		return "", err
	}
	var raw []byte
	if len(params) > 0 && params[0] == '{' {
		jsonx.Members(params, func(_, key, val []byte) {
			if string(key) == "uri" {
				raw = val
			}
		})
	}
	if raw == nil || isNull(raw) {
		return "", errorf(codeInvalidParams, "invalid params: uri is missing")
	}
	uri, ok := stringValue(raw)
	if !ok {
		return "", errorf(codeInvalidParams, "invalid params: uri must not be a "+describeKind(raw))
	}
	if uri == "" {
		return "", errorf(codeInvalidParams, "invalid params: uri is missing")
	}
	return uri, nil
}
