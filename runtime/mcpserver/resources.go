package mcpserver

import (
	"context"
	"errors"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// AddResources adds resources and resource templates (a URI holding an
// RFC 6570 expression, "{...}", is a template), or replaces those of the
// same URIs in place. Descriptors are serialized for every revision now,
// not per request. It is safe while the server runs; when
// Identity.EnableResourceNotifications is set, every live initialized
// session is sent notifications/resources/list_changed.
func (s *Server) AddResources(resources ...mcprt.Resource) {
	var static, templates []*entry[mcprt.Resource]
	for _, r := range resources {
		if wire.IsTemplate(r.URI) {
			templates = append(templates, newResourceEntry(r, wire.AppendResourceTemplate))
		} else {
			static = append(static, newResourceEntry(r, wire.AppendResource))
		}
	}
	s.resources.add(static)
	s.templates.add(templates)
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
	return s.listPage(x, start, "resources", s.resources.appendPage)
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
// the resource is not found.
func (s *Server) readResource(ctx context.Context, x *exchange, params []byte) ([]byte, *rpcError) {
	uri, rerr := uriParam(params)
	if rerr != nil {
		return nil, rerr
	}
	caller := new(exchange) // the handler may keep it; x stays on the caller's stack
	*caller = *x
	ctx = mcprt.WithCaller(ctx, caller)
	if e := s.resources.get(uri); e != nil {
		contents, found, rerr := s.readFrom(ctx, x, &e.val, uri)
		if rerr != nil || !found {
			return nil, orNotFound(rerr, uri, x.rev)
		}
		return appendReadResult(x.rev, contents, uri, e.val.MIMEType, s.cacheHints().read), nil
	}
	for _, e := range s.templates.all() {
		if e.val.Read == nil || !s.mayRead(ctx, &e.val) {
			continue
		}
		contents, found, rerr := s.readFrom(ctx, x, &e.val, uri)
		if rerr != nil {
			return nil, rerr
		}
		if found {
			return appendReadResult(x.rev, contents, uri, e.val.MIMEType, s.cacheHints().read), nil
		}
	}
	return nil, notFound(uri, x.rev)
}

// readFrom runs r.Read for uri (through wire.ReadResource, as the
// adapters do). found is false when the handler's error wraps
// mcprt.ErrNotFound; any other error, a panic included, is an internal
// error with its text, and the server keeps serving. A
// URLElicitationRequired is answered as [exchange.urlElicitation] says.
func (s *Server) readFrom(ctx context.Context, x *exchange, r *mcprt.Resource, uri string) (contents []mcprt.ResourceContents, found bool, rerr *rpcError) {
	contents, err := wire.ReadResource(ctx, s.logger(), r, uri)
	switch {
	case err == nil:
		return contents, true, nil
	case errors.Is(err, mcprt.ErrNotFound):
		return nil, false, nil
	}
	if rerr, handled := x.urlElicitation(err); handled {
		return nil, true, rerr
	}
	return nil, true, errorf(codeInternalError, err.Error())
}

// orNotFound is rerr, or "resource not found" when there is none.
func orNotFound(rerr *rpcError, uri string, rev wire.Revision) *rpcError {
	if rerr != nil {
		return rerr
	}
	return notFound(uri, rev)
}

// notFound is the error of a read of no resource: -32002 before
// 2026-07-28, which made it -32602; on every revision its data names the
// URI.
func notFound(uri string, rev wire.Revision) *rpcError {
	data := jsonx.AppendString(append(make([]byte, 0, len(uri)+10), `{"uri":`...), uri)
	code := codeResourceNotFound
	if rev.Stateless() {
		code = codeInvalidParams
	}
	return &rpcError{code: code, message: "Resource not found", data: append(data, '}')}
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
		scanObject(params, func(key, val []byte) {
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
