package gosdk

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// This file serves Agent Skills (SEP-2640) on go-sdk. go-sdk v1.8.0 takes
// handlers of methods it does not define (mcp.AddReceivingCustomMethod,
// mcp/server.go), which serve skills/list, skills/get and
// resources/directory/read; the files are resources of the SDK's own.

// skillFilesTemplate is the template under which the SDK reads the files
// of the skills: its reads go only to resources and templates it holds.
const skillFilesTemplate = "skill://{+path}"

// AddSkills serves skills on s, or replaces those of the same paths,
// checked as mcpserver.Server.AddSkills checks them: skills/list (pages
// of the identity's PageSize), skills/get and resources/directory/read as
// methods of go-sdk's, each SKILL.md as a resource listed by
// resources/list, and the other files through the template
// skill://{+path}, which resources/templates/list lists too. initialize
// and server/discover declare the extension. On a problem it adds none
// and returns every problem.
func AddSkills(s *mcp.Server, skills ...mcprt.Skill) error {
	reg := registryOf(s)
	set, err := reg.AddSkills(skills)
	if err != nil {
		return fmt.Errorf("gosdk: AddSkills: %w", err)
	}
	for _, r := range set.Resources() {
		d := resourceDescriptor(&r)
		reg.lists.add(kindResources, r.URI, d, wire.NewDescriptors(&r, wire.AppendResource, 0))
		s.AddResource(d, skillFileHandler(reg))
	}
	files := mcprt.Resource{URI: skillFilesTemplate, Name: "skill_files", Description: "The files of the server's Agent Skills, which skills/list names"}
	d := templateDescriptor(&files)
	reg.lists.add(kindTemplates, files.URI, d, wire.NewDescriptors(&files, wire.AppendResourceTemplate, 0))
	s.AddResourceTemplate(d, skillFileHandler(reg))
	for _, m := range []struct {
		name  string
		serve func(*wire.Skills, *skillParams, wire.Revision, int) ([]byte, error)
	}{{"skills/list", listSkills}, {"skills/get", getSkill}, {"resources/directory/read", readDirectory}} {
		err := mcp.AddReceivingCustomMethod(s, m.name, func(ctx context.Context, ss *mcp.ServerSession, p *skillParams) (*rawResult, error) {
			js, err := m.serve(reg.Skills(), p, p.revision(ss), reg.pageSize)
			if err != nil {
				return nil, err
			}
			return &rawResult{js: js}, nil
		})
		if err != nil {
			return fmt.Errorf("gosdk: AddSkills: %w", err)
		}
	}
	return nil
}

// skillParams are the params of the skills methods.
type skillParams struct {
	mcp.ParamsBase
	URI    string `json:"uri"`
	Cursor string `json:"cursor"`
}

// revision is the revision of the request of p on ss: its _meta's on
// 2026-07-28, the session's before.
func (p *skillParams) revision(ss *mcp.ServerSession) wire.Revision {
	if v, ok := p.Meta[mcp.MetaKeyProtocolVersion].(string); ok {
		return revision(v)
	}
	if ss != nil {
		if ip := ss.InitializeParams(); ip != nil {
			return revision(ip.ProtocolVersion)
		}
	}
	return wire.LatestRevision
}

// rawResult is a result written as the built-in server writes it.
type rawResult struct {
	mcp.ResultBase
	js []byte
}

// MarshalJSON writes the result.
func (r *rawResult) MarshalJSON() ([]byte, error) { return r.js, nil }

// skillResult writes {members...} with the result type and caching hints of
// 2026-07-28 (scope "public" or "private").
func skillResult(rev wire.Revision, members []byte, scope string) []byte {
	dst := append(make([]byte, 0, len(members)+80), '{')
	if rev.Stateless() {
		dst = append(dst, `"resultType":"complete",`...)
	}
	dst = append(dst, members...)
	if rev.Stateless() {
		dst = append(dst, `,"ttlMs":0,"cacheScope":"`+scope+`"`...)
	}
	return append(dst, '}')
}

func listSkills(set *wire.Skills, p *skillParams, rev wire.Revision, size int) ([]byte, error) {
	start, ok := wire.SkillOffset(p.Cursor)
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: invalid cursor"}
	}
	dst, next, ok := set.AppendPage([]byte(`"skills":[`), start, size)
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: invalid cursor"}
	}
	dst = append(dst, ']')
	if next > 0 {
		dst = jsonx.AppendString(append(dst, `,"nextCursor":`...), wire.SkillCursor(next))
	}
	return skillResult(rev, dst, "public"), nil
}

func getSkill(set *wire.Skills, p *skillParams, rev wire.Revision, _ int) ([]byte, error) {
	if p.URI == "" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: uri is missing"}
	}
	entry, _, ok := set.Entry(p.URI)
	if !ok {
		return nil, uriError("invalid params: no skill is served at "+p.URI+"; skills/get takes the URI of a skill's SKILL.md", p.URI)
	}
	return skillResult(rev, append([]byte(`"skill":`), entry...), "private"), nil
}

func readDirectory(set *wire.Skills, p *skillParams, rev wire.Revision, size int) ([]byte, error) {
	if p.URI == "" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: uri is missing"}
	}
	start, ok := wire.SkillOffset(p.Cursor)
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: invalid cursor"}
	}
	dst, next, isDir, ok := set.AppendDirectory([]byte(`"resources":[`), p.URI, start, size)
	switch {
	case !isDir:
		return nil, uriError("invalid params: "+p.URI+" is not a directory of a skill", p.URI)
	case !ok:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: invalid cursor"}
	}
	dst = append(dst, ']')
	if next > 0 {
		dst = jsonx.AppendString(append(dst, `,"nextCursor":`...), wire.SkillCursor(next))
	}
	return skillResult(rev, dst, "public"), nil
}

// uriError is the -32602 error about uri, its data naming it.
func uriError(msg, uri string) error {
	data := jsonx.AppendString([]byte(`{"uri":`), uri)
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg, Data: append(data, '}')}
}

// skillFileHandler reads a file of the skills reg serves.
func skillFileHandler(reg *registry) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri, rev := req.Params.URI, revision(req.ProtocolVersion())
		contents, found, err := reg.Skills().Read(ctx, uri)
		switch {
		case errors.Is(err, wire.ErrDirectory):
			return nil, uriError("invalid params: "+err.Error(), uri)
		case err == nil && !found:
			return nil, mcp.ResourceNotFoundError(uri)
		}
		return readResult(ctx, reg, contents, err, uri, &mcprt.Resource{}, rev)
	}
}
