package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// This file serves Agent Skills, the io.modelcontextprotocol/skills
// extension (SEP-2640): skills/list, skills/get, the skill:// resources
// of their files (resources/read, and each SKILL.md in resources/list)
// and resources/directory/read.
//
// The extension is declared on every revision. Only 2026-07-28 lists an
// extensions member in its ServerCapabilities, but every revision's
// capability object is open ("not a closed set") and SEP-2133 declares
// extensions in the initialize result; a client that does not know the
// extension ignores the member and sees skill:// resources as the
// ordinary resources they are. The caching hints (ttlMs, cacheScope) are
// 2026-07-28's alone, as on every list.

// skillState holds the skills a server serves.
type skillState struct {
	mu  sync.Mutex    // orders AddSkills
	all []mcprt.Skill // as added, for the next AddSkills
	cur atomic.Pointer[servedSkills]
}

// servedSkills is a set of skills ready to serve, replaced as a whole
// when skills are added.
type servedSkills struct {
	set *wire.Skills
	// resources are the SKILL.md resources resources/list lists after
	// the static resources.
	resources []*entry[mcprt.Resource]
	// capability is the value of the extension in the capabilities.
	capability []byte
}

// AddSkills adds skills, or replaces those of the same paths. It checks
// them as mcprt.SkillsFS does (a SKILL.md whose frontmatter has the
// skill's name and a description, good paths, the limits of SEP-2640,
// unique names) and reads the files that lack a size, digest or media
// type; on any problem it adds none and returns every problem. It is
// safe while the server runs; when Identity.EnableResourceNotifications
// is set, every live initialized session is sent
// notifications/resources/list_changed, since each SKILL.md is listed.
func (s *Server) AddSkills(skills ...mcprt.Skill) error {
	st := &s.skills
	st.mu.Lock()
	defer st.mu.Unlock()
	all := append(slices.Clone(st.all), skills...)
	set, err := wire.NewSkills(all)
	if err != nil {
		return fmt.Errorf("mcpserver: AddSkills: %w", err)
	}
	served := &servedSkills{set: set, capability: set.AppendCapability(nil)}
	for _, r := range set.Resources() {
		served.resources = append(served.resources, newEntry(r.URI, r, wire.AppendResource))
	}
	st.all = all
	st.cur.Store(served)
	s.refreshCapabilities()
	if s.id.EnableResourceNotifications {
		s.broadcast("notifications/resources/list_changed")
	}
	return nil
}

// servedSkillSet returns the skills served now, nil for none.
func (s *Server) servedSkillSet() *servedSkills {
	if c := s.skills.cur.Load(); c != nil && c.set.Len() > 0 {
		return c
	}
	return nil
}

// skillsCapability returns the value of the skills extension in the
// capabilities, nil when the server serves no skills.
func (s *Server) skillsCapability() []byte {
	if c := s.servedSkillSet(); c != nil {
		return c.capability
	}
	return nil
}

// serveSkills serves the methods of the skills extension, while the
// server has skills; handled is false for any other request.
func (s *Server) serveSkills(ctx context.Context, x *exchange, m *message) (result []byte, rerr *rpcError, handled bool) {
	c := s.servedSkillSet()
	if c == nil {
		return nil, nil, false
	}
	switch m.method {
	case "skills/list":
		start, err := pageStart(x, m.params)
		if err != nil {
			return nil, err, true
		}
		result, rerr = s.listPage(x, start, "skills", func(dst []byte, _ wire.Revision, start, _ int) ([]byte, int, bool) {
			return c.set.AppendPage(dst, start, s.skillsPageSize())
		})
		return result, rerr, true
	case "skills/get":
		result, rerr = s.getSkill(x, c.set, m.params)
		return result, rerr, true
	case "resources/directory/read":
		if !c.set.Directories() {
			return nil, nil, false
		}
		result, rerr = s.readDirectory(x, c.set, m.params)
		return result, rerr, true
	}
	return nil, nil, false
}

// getSkill answers skills/get: the entry of the skill whose SKILL.md the
// uri names, listed or not; -32602 for a URI that names none.
func (s *Server) getSkill(x *exchange, set *wire.Skills, params []byte) ([]byte, *rpcError) {
	uri, rerr := uriParam(params)
	if rerr != nil {
		return nil, rerr
	}
	entry, _, ok := set.Entry(uri)
	if !ok {
		return nil, invalidURI("invalid params: no skill is served at "+uri+"; skills/get takes the URI of a skill's SKILL.md", uri)
	}
	dst := append(make([]byte, 0, len(entry)+96), '{')
	if x.rev.Stateless() {
		dst = append(dst, `"resultType":"complete",`...)
	}
	dst = append(append(dst, `"skill":`...), entry...)
	if x.rev.Stateless() {
		// A skill's entry is a snapshot, as a read is: the read hints.
		dst = append(dst, s.cacheHints().read...)
	}
	return append(dst, '}'), nil
}

// readDirectory answers resources/directory/read: the direct children of
// a directory of a skill, paginated as resources/list is; -32602 for a
// URI that is not such a directory.
func (s *Server) readDirectory(x *exchange, set *wire.Skills, params []byte) ([]byte, *rpcError) {
	uri, rerr := uriParam(params)
	if rerr != nil {
		return nil, rerr
	}
	start, rerr := pageStart(x, params)
	if rerr != nil {
		return nil, rerr
	}
	dst := append(make([]byte, 0, 512), '{')
	if x.rev.Stateless() {
		dst = append(dst, `"resultType":"complete",`...)
	}
	dst = append(dst, `"resources":[`...)
	dst, next, isDir, ok := set.AppendDirectory(dst, uri, start, s.skillsPageSize())
	switch {
	case !isDir:
		return nil, invalidURI("invalid params: "+uri+" is not a directory of a skill", uri)
	case !ok:
		return nil, errorf(codeInvalidParams, "invalid params: invalid cursor")
	}
	dst = append(dst, ']')
	if next > 0 {
		dst = append(append(append(dst, `,"nextCursor":"`...), encodeCursor(next)...), '"')
	}
	if x.rev.Stateless() {
		dst = append(dst, s.cacheHints().list...)
	}
	return append(dst, '}'), nil
}

// skillsPageSize is the page size of skills/list and directory reads.
func (s *Server) skillsPageSize() int {
	if s.SkillsPageSize != 0 {
		return s.SkillsPageSize
	}
	return s.id.PageSize
}

// invalidURI is a -32602 error whose data names uri, as resources/read's
// errors do.
func invalidURI(msg, uri string) *rpcError {
	data := jsonx.AppendString(append(make([]byte, 0, len(uri)+10), `{"uri":`...), uri)
	return &rpcError{code: codeInvalidParams, message: msg, data: append(data, '}')}
}

// readSkillFile answers a resources/read of a skill's file, reported as
// handled when uri is in a skill.
func (s *Server) readSkillFile(ctx context.Context, x *exchange, uri string) (result []byte, rerr *rpcError, handled bool) {
	c := s.servedSkillSet()
	if c == nil || !c.set.IsSkillURI(uri) {
		return nil, nil, false
	}
	contents, found, err := c.set.Read(ctx, uri)
	switch {
	case errors.Is(err, wire.ErrDirectory):
		return nil, invalidURI("invalid params: "+err.Error(), uri), true
	case err != nil:
		if rerr, ok := x.urlElicitation(err); ok {
			return nil, rerr, true
		}
		return nil, errorf(codeInternalError, "internal error: "+err.Error()), true
	case !found:
		return nil, s.notFound(ctx, uri, x.rev, nil), true
	}
	return appendReadResult(x.rev, contents, uri, "", s.cacheHints().read), nil, true
}

// appendResourcePage appends a page of resources/list: the static
// resources, then the SKILL.md of each skill.
func (s *Server) appendResourcePage(dst []byte, rev wire.Revision, start, size int) ([]byte, int, bool) {
	static := s.resources.all()
	groups := s.resources.groups != nil && s.resources.groups()
	c := s.servedSkillSet()
	if c == nil {
		return appendPage(dst, static, rev, start, size, groups)
	}
	return appendPage(dst, append(static[:len(static):len(static)], c.resources...), rev, start, size, groups)
}

// skillScopes returns the scopes the skills request m needs: those of the
// skill its uri is in; nil for one of no skill.
func (s *Server) skillScopes(m *message) []string {
	c := s.servedSkillSet()
	if c == nil {
		return nil
	}
	uri, ok := stringValue(m.meta.uri)
	if !ok {
		return nil
	}
	return c.set.Scopes(uri)
}

// skillDeclaredScopes returns the scopes of every skill.
func (s *Server) skillDeclaredScopes() [][]string {
	if c := s.servedSkillSet(); c != nil {
		return c.set.AllScopes()
	}
	return nil
}
