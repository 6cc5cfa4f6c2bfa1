package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// latestLegacy is the revision initialize answers when the client asks for
// one the server does not serve through initialize.
const latestLegacy = wire.Rev20251125

// negotiate picks the revision of a session from the client's request: its
// own when supported, else the latest initialize-based one.
func negotiate(requested string) wire.Revision {
	rev := wire.Revision(requested)
	if rev.Supported() && !rev.Stateless() {
		return rev
	}
	return latestLegacy
}

// initialize answers initialize and fixes the session's revision and the
// client's capabilities.
func (s *Server) initialize(x *exchange, params json.RawMessage) ([]byte, *rpcError) {
	var p struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
		ClientInfo      json.RawMessage `json:"clientInfo"`
	}
	if err := unmarshalParams(params, &p); err != nil {
		return nil, err
	}
	if p.ProtocolVersion == "" {
		return nil, errorf(codeInvalidParams, "invalid params: protocolVersion is missing")
	}
	rev := negotiate(p.ProtocolVersion)
	ss := x.sess
	ss.mu.Lock()
	if ss.rev != "" {
		ss.mu.Unlock()
		return nil, errorf(codeInvalidRequest, "invalid request: the session is already initialized")
	}
	ss.rev = rev
	ss.caps = parseClientCaps(p.Capabilities)
	ss.rawCaps = bytes.Clone(p.Capabilities)
	ss.rawInfo = bytes.Clone(p.ClientInfo)
	ss.mu.Unlock()

	i := rev.Index()
	dst := append(make([]byte, 0, 256), `{"protocolVersion":`...)
	dst = jsonx.AppendString(dst, string(rev))
	dst = append(dst, `,"capabilities":`...)
	dst = append(dst, s.capabilitiesNow().json[i]...)
	dst = append(dst, `,"serverInfo":`...)
	dst = append(dst, s.info[i]...)
	if s.id.Instructions != "" {
		dst = jsonx.AppendString(append(dst, `,"instructions":`...), s.id.Instructions)
	}
	return append(dst, '}'), nil
}

// discover answers server/discover (2026-07-28).
func (s *Server) discover() []byte {
	i := wire.Rev20260728.Index()
	dst := append(make([]byte, 0, 256), `{"resultType":"complete","supportedVersions":[`...)
	for j, r := range wire.Revisions {
		if j > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendString(dst, string(r))
	}
	dst = append(dst, `],"capabilities":`...)
	dst = append(dst, s.capabilitiesNow().json[i]...)
	if s.id.Instructions != "" {
		dst = jsonx.AppendString(append(dst, `,"instructions":`...), s.id.Instructions)
	}
	dst = append(dst, `,"ttlMs":0,"cacheScope":"public","_meta":{"io.modelcontextprotocol/serverInfo":`...)
	dst = append(dst, s.info[i]...)
	return append(dst, `}}`...)
}

// capabilities are the server capabilities as published: their JSON per
// revision, and whether the prompts and resources capabilities are among
// them, which decides whether their methods are served at all.
type capabilities struct {
	json      [wire.NumRevisions][]byte
	prompts   bool
	resources bool
	apps      bool   // a ui:// resource is served: MCP Apps are declared
	skills    []byte // the skills extension's value, nil without skills
	groups    bool   // Server.Groups is set: groups are declared
}

// refreshCapabilities rebuilds the published capabilities from the
// identity and what is registered now. Prompts are published when there
// are any, or when the identity promises notifications of their coming;
// resources likewise. capsMu orders the rebuilds, so the last one stored
// has seen the last change.
func (s *Server) refreshCapabilities() {
	s.capsMu.Lock()
	defer s.capsMu.Unlock()
	c := &capabilities{
		prompts:   len(s.prompts.all()) > 0 || s.id.EnablePromptNotifications,
		resources: len(s.resources.all()) > 0 || len(s.templates.all()) > 0 || s.id.EnableResourceNotifications,
		apps:      hasApp(s.resources.all()) || hasApp(s.templates.all()),
		skills:    s.skillsCapability(),
		groups:    s.groupsOn(),
	}
	// Skill files are resources: the skills extension needs the capability.
	c.resources = c.resources || c.skills != nil
	if old := s.caps.Load(); old != nil && old.prompts == c.prompts && old.resources == c.resources && old.apps == c.apps && bytes.Equal(old.skills, c.skills) && old.groups == c.groups {
		return
	}
	for _, rev := range wire.Revisions {
		c.json[rev.Index()] = s.appendCapabilities(nil, rev, c)
	}
	s.caps.Store(c)
}

// appendCapabilities appends the server capabilities published on rev:
// each only where the identity enables it and the revision has it.
// listChanged and subscribe are the same on every revision, from
// [Server.notices]: legacy sessions get those notifications on their
// stream, 2026-07-28 clients on subscriptions/listen.
func (s *Server) appendCapabilities(dst []byte, rev wire.Revision, c *capabilities) []byte {
	n := s.notices(c)
	dst = append(dst, '{')
	if s.id.EnableLogging {
		dst = append(dst, `"logging":{},`...)
	}
	if s.id.EnableCompletions && rev.HasCompletions() {
		dst = append(dst, `"completions":{},`...)
	}
	if c.prompts {
		dst = append(dst, `"prompts":{`...)
		if n.prompts {
			dst = append(dst, `"listChanged":true`...)
		}
		dst = append(dst, `},`...)
	}
	if c.resources {
		dst = append(dst, `"resources":{`...)
		sep := ""
		if n.updates {
			dst = append(dst, `"subscribe":true`...)
			sep = ","
		}
		if n.resources {
			dst = append(dst, sep+`"listChanged":true`...)
		}
		dst = append(dst, `},`...)
	}
	if c.groups {
		dst = append(dst, `"groups":{},`...)
	}
	if rev.HasTasks() && s.id.EnableTasks {
		dst = append(dst, `"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}},`...)
	}
	if ext := rev.Stateless() && s.id.EnableTasks; ext || c.apps || c.skills != nil {
		// Extensions go in every revision's capabilities, whose objects
		// are open; the tasks extension is 2026-07-28's alone.
		dst = append(dst, `"extensions":{`...)
		sep := ""
		if ext {
			dst = append(dst, `"`+TasksExtension+`":{}`...)
			sep = ","
		}
		if c.apps {
			dst = append(dst, sep+`"`+mcprt.AppsExtension+`":{}`...)
			sep = ","
		}
		if c.skills != nil {
			dst = append(append(dst, sep+`"`+mcprt.SkillsExtension+`":`...), c.skills...)
		}
		dst = append(dst, `},`...)
	}
	if n.tools {
		dst = append(dst, `"tools":{"listChanged":true}`...)
	} else {
		dst = append(dst, `"tools":{}`...)
	}
	return append(dst, '}')
}

// appendServerInfo appends the Implementation object describing the
// server on rev.
func (s *Server) appendServerInfo(dst []byte, rev wire.Revision) []byte {
	id := &s.id
	dst = jsonx.AppendString(append(dst, `{"name":`...), id.Name)
	dst = jsonx.AppendString(append(dst, `,"version":`...), id.Version)
	if id.Title != "" && rev.HasStructuredOutput() {
		dst = jsonx.AppendString(append(dst, `,"title":`...), id.Title)
	}
	if rev.HasIcons() {
		if id.Description != "" {
			dst = jsonx.AppendString(append(dst, `,"description":`...), id.Description)
		}
		if id.WebsiteURL != "" {
			dst = jsonx.AppendString(append(dst, `,"websiteUrl":`...), id.WebsiteURL)
		}
		if len(id.Icons) > 0 {
			dst = wire.AppendIcons(append(dst, `,"icons":`...), id.Icons)
		}
	}
	return append(dst, '}')
}

// setLevel answers logging/setLevel: the session's level from now on.
func (s *Server) setLevel(x *exchange, params json.RawMessage) ([]byte, *rpcError) {
	if !s.id.EnableLogging {
		return nil, methodNotFound("logging/setLevel")
	}
	var p struct {
		Level mcprt.LogLevel `json:"level"`
	}
	if err := unmarshalParams(params, &p); err != nil {
		return nil, err
	}
	if !wire.ValidLevel(p.Level) {
		return nil, errorf(codeInvalidParams, "invalid params: invalid log level "+string(p.Level))
	}
	if err := s.storeLevel(context.Background(), x.sess, p.Level); err != nil {
		return nil, s.storeError("storing the session", err)
	}
	x.sess.mu.Lock()
	x.sess.level = p.Level
	x.sess.mu.Unlock()
	return []byte(`{}`), nil
}

// hasApp reports whether one of resources is an MCP App's page, a ui://
// resource.
func hasApp(resources []*entry[mcprt.Resource]) bool {
	for _, r := range resources {
		if strings.HasPrefix(r.val.URI, "ui://") {
			return true
		}
	}
	return false
}
