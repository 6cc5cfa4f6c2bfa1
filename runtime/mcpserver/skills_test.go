package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
	"github.com/mcpgen/mcpgen/runtime/mcptest"
)

// skillFS is a skill set with a nested file, a subdirectory and a binary
// file, and a second skill under a prefix.
func skillFS() fstest.MapFS {
	return fstest.MapFS{
		"pdf/SKILL.md":                  {Data: []byte("---\nname: pdf\ndescription: Fill PDF forms\nmetadata:\n  version: \"2\"\n---\nRead references/FORMS.md.\n")},
		"pdf/references/FORMS.md":       {Data: []byte("# Forms\n")},
		"pdf/templates/regional/eu.md":  {Data: []byte("EU\n")},
		"pdf/logo.png":                  {Data: []byte{0x89, 'P', 'N', 'G', 0xff}},
		"acme/billing/refunds/SKILL.md": {Data: []byte("---\nname: refunds\ndescription: >-\n  Process refunds\n  by policy.\n---\nBody\n")},
	}
}

func skillsOf(t *testing.T, fsys fstest.MapFS) []mcprt.Skill {
	t.Helper()
	skills, err := mcprt.SkillsFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	return skills
}

func TestSkillsListGetRead(t *testing.T) {
	t.Parallel()
	for _, rev := range mcptest.Revisions() {
		t.Run(rev, func(t *testing.T) {
			t.Parallel()
			c := mcptest.New(t, mcptest.Skills(skillsOf(t, skillFS())...), mcptest.Revision(rev))
			skills := c.ListSkills()
			var uris []string
			for _, s := range skills {
				uris = append(uris, s.URI)
			}
			want := []string{"skill://acme/billing/refunds/SKILL.md", "skill://pdf/SKILL.md"}
			if !slices.Equal(uris, want) {
				t.Fatalf("skills/list: %v, want %v", uris, want)
			}
			pdf := c.GetSkill("skill://pdf/SKILL.md")
			if got := string(pdf.Frontmatter); got != `{"name":"pdf","description":"Fill PDF forms","metadata":{"version":"2"}}` {
				t.Errorf("frontmatter %s", got)
			}
			files := c.ReadSkill(pdf)
			if len(files) != 4 || string(files["skill://pdf/references/FORMS.md"]) != "# Forms\n" {
				t.Errorf("files of pdf: %q", files)
			}
			if string(files["skill://pdf/logo.png"]) != "\x89PNG\xff" {
				t.Errorf("logo.png read as %q", files["skill://pdf/logo.png"])
			}
			refunds := c.GetSkill("skill://acme/billing/refunds/SKILL.md")
			if got := string(refunds.Frontmatter); got != `{"name":"refunds","description":"Process refunds by policy."}` {
				t.Errorf("refunds frontmatter %s", got)
			}
		})
	}
}

// capabilitiesOf returns the capabilities srv declares on rev: in its
// initialize result, or in server/discover on 2026-07-28.
func capabilitiesOf(t *testing.T, srv *mcpserver.Server, rev string) json.RawMessage {
	t.Helper()
	conn := srv.Connect(context.Background(), func([]byte) error { return nil })
	msg := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + rev + `","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`
	if rev == "2026-07-28" {
		msg = `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	}
	var resp struct {
		Result struct {
			Capabilities json.RawMessage `json:"capabilities"`
		} `json:"result"`
	}
	if err := json.Unmarshal(conn.Handle(context.Background(), []byte(msg)), &resp); err != nil || resp.Result.Capabilities == nil {
		t.Fatalf("%s: no capabilities: %v", rev, err)
	}
	return resp.Result.Capabilities
}

func TestSkillsCapability(t *testing.T) {
	t.Parallel()
	srv := mcpserver.New(mcprt.Identity{Name: "t", Version: "0"})
	if err := srv.AddSkills(skillsOf(t, skillFS())...); err != nil {
		t.Fatal(err)
	}
	for _, rev := range mcptest.Revisions() {
		raw := capabilitiesOf(t, srv, rev)
		var caps struct {
			Resources  *struct{}                  `json:"resources"`
			Extensions map[string]json.RawMessage `json:"extensions"`
		}
		if err := json.Unmarshal(raw, &caps); err != nil {
			t.Fatal(err)
		}
		if got := string(caps.Extensions[mcprt.SkillsExtension]); got != `{"directoryRead":true}` {
			t.Errorf("%s: the skills extension is %q in %s", rev, got, raw)
		}
		if caps.Resources == nil {
			t.Errorf("%s: no resources capability beside the skills extension: %s", rev, raw)
		}
	}
	if raw := capabilitiesOf(t, mcpserver.New(mcprt.Identity{Name: "t", Version: "0"}), "2025-11-25"); strings.Contains(string(raw), "skills") {
		t.Errorf("a server without skills declares them: %s", raw)
	}
}

func TestSkillsPages(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{}
	for i := range 7 {
		name := fmt.Sprintf("s%d", i)
		fsys[name+"/SKILL.md"] = &fstest.MapFile{Data: []byte("---\nname: " + name + "\ndescription: d\n---\n")}
		fsys[name+"/a.md"] = &fstest.MapFile{Data: []byte("a")}
		fsys[name+"/b/c.md"] = &fstest.MapFile{Data: []byte("c")}
	}
	c := mcptest.New(t, mcptest.Skills(skillsOf(t, fsys)...), mcptest.Identity(mcprt.Identity{Name: "t", Version: "0", PageSize: 2}))
	raw, err := c.Request("skills/list", nil)
	if err != nil {
		t.Fatal(err)
	}
	var page struct {
		Skills []struct {
			Resources []json.RawMessage `json:"resources"`
		} `json:"skills"`
		NextCursor string `json:"nextCursor"`
	}
	if err := json.Unmarshal(raw, &page); err != nil {
		t.Fatal(err)
	}
	if len(page.Skills) != 2 || page.NextCursor == "" || len(page.Skills[0].Resources) != 3 {
		t.Fatalf("first page of 2: %s", raw)
	}
	if got := len(c.ListSkills()); got != 7 {
		t.Errorf("every page lists %d skills, want 7", got)
	}
	own := mcptest.New(t, mcptest.Skills(skillsOf(t, fsys)...), mcptest.Identity(mcprt.Identity{Name: "t", Version: "0"}))
	own.Server().SkillsPageSize = 3
	raw, _ = own.Request("skills/list", nil)
	if err := json.Unmarshal(raw, &page); err != nil || len(page.Skills) != 3 || page.NextCursor == "" {
		t.Errorf("SkillsPageSize 3 beside a PageSize of 0: %s", raw)
	}
	root := c.ReadDirectory("skill://s0")
	var names []string
	for _, e := range root {
		names = append(names, e.Name+" "+e.MIMEType)
	}
	if want := []string{"SKILL.md text/markdown", "a.md text/markdown", "b inode/directory"}; !slices.Equal(names, want) {
		t.Errorf("the directory of s0 over pages of 2: %q, want %q", names, want)
	}
	if sub := c.ReadDirectory("skill://s0/b"); len(sub) != 1 || sub[0].URI != "skill://s0/b/c.md" || sub[0].Size != 1 {
		t.Errorf("skill://s0/b: %+v", sub)
	}
}

func TestSkillsErrors(t *testing.T) {
	t.Parallel()
	for _, rev := range []string{"2025-11-25", "2026-07-28"} {
		c := mcptest.New(t, mcptest.Skills(skillsOf(t, skillFS())...), mcptest.Revision(rev))
		for _, tc := range []struct {
			method, uri string
			code        int
		}{
			{"skills/get", "skill://nope/SKILL.md", -32602},
			{"skills/get", "skill://pdf/references/FORMS.md", -32602},
			{"resources/directory/read", "skill://pdf/SKILL.md", -32602},
			{"resources/directory/read", "skill://nope", -32602},
			{"resources/read", "skill://pdf/templates", -32602},
		} {
			_, err := c.Request(tc.method, map[string]string{"uri": tc.uri})
			var e *mcptest.Error
			if !errors.As(err, &e) || e.Code != tc.code {
				t.Errorf("%s: %s %s: %v, want error %d", rev, tc.method, tc.uri, err, tc.code)
			}
		}
		_, err := c.Request("resources/read", map[string]string{"uri": "skill://pdf/missing.md"})
		var e *mcptest.Error
		want := -32002
		if rev == "2026-07-28" {
			want = -32602
		}
		if !errors.As(err, &e) || e.Code != want {
			t.Errorf("%s: a missing file: %v, want %d", rev, err, want)
		}
	}
}

func TestSkillsCacheHints(t *testing.T) {
	t.Parallel()
	c := mcptest.New(t, mcptest.Skills(skillsOf(t, skillFS())...), mcptest.Revision("2026-07-28"))
	for _, req := range []struct {
		method string
		params any
	}{
		{"skills/list", nil},
		{"skills/get", map[string]string{"uri": "skill://pdf/SKILL.md"}},
		{"resources/directory/read", map[string]string{"uri": "skill://pdf"}},
	} {
		raw, err := c.Request(req.method, req.params)
		if err != nil {
			t.Fatal(err)
		}
		var res map[string]json.RawMessage
		_ = json.Unmarshal(raw, &res)
		if res["ttlMs"] == nil || res["cacheScope"] == nil || string(res["resultType"]) != `"complete"` {
			t.Errorf("%s on 2026-07-28 lacks resultType, ttlMs or cacheScope: %s", req.method, raw)
		}
	}
	old := mcptest.New(t, mcptest.Skills(skillsOf(t, skillFS())...), mcptest.Revision("2025-06-18"))
	raw, _ := old.Request("skills/list", nil)
	if strings.Contains(string(raw), "ttlMs") {
		t.Errorf("skills/list on 2025-06-18 has caching hints, which that revision has not: %s", raw)
	}
}

// TestSkillsResourcesList checks that each SKILL.md is listed after the
// static resources, named and described by its frontmatter.
func TestSkillsResourcesList(t *testing.T) {
	t.Parallel()
	c := mcptest.New(t, mcptest.Skills(skillsOf(t, skillFS())...),
		mcptest.Resources(mcprt.Resource{URI: "test://static", Name: "static", Read: func(context.Context, string) ([]mcprt.ResourceContents, error) { return nil, nil }}))
	raw, err := c.Request("resources/list", nil)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Resources []struct {
			URI, Name, Description, MIMEType string
			Size                             int64
		} `json:"resources"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || len(res.Resources) != 3 {
		t.Fatalf("resources/list: %s", raw)
	}
	pdf := res.Resources[2]
	if res.Resources[0].URI != "test://static" || pdf.URI != "skill://pdf/SKILL.md" || pdf.Name != "pdf" || pdf.Description != "Fill PDF forms" || pdf.MIMEType != "text/markdown" || pdf.Size == 0 {
		t.Errorf("resources/list: %s", raw)
	}
}

// TestSkillsChangedFile checks that a file whose bytes changed after the
// skill was added is not served under the old digest.
func TestSkillsChangedFile(t *testing.T) {
	t.Parallel()
	fsys := skillFS()
	c := mcptest.New(t, mcptest.Skills(skillsOf(t, fsys)...))
	fsys["pdf/references/FORMS.md"].Data = []byte("# Forms, edited\n")
	_, err := c.Request("resources/read", map[string]string{"uri": "skill://pdf/references/FORMS.md"})
	if err == nil || !strings.Contains(err.Error(), "changed since its skill was added") {
		t.Fatalf("a changed file: %v, want an error saying it changed", err)
	}
}

func TestAddSkillsRefuses(t *testing.T) {
	t.Parallel()
	srv := mcpserver.New(mcprt.Identity{Name: "t", Version: "0"})
	manifest := mcprt.NewSkillFile("SKILL.md", []byte("---\nname: a\ndescription: d\n---\n"))
	for _, tc := range []struct {
		skill mcprt.Skill
		want  string
	}{
		{mcprt.Skill{Path: "b", Files: []mcprt.SkillFile{manifest}}, `name "a" differs from the skill's directory "b"`},
		{mcprt.Skill{Path: "a", Files: []mcprt.SkillFile{mcprt.NewSkillFile("x.md", nil)}}, "it has no SKILL.md"},
		{mcprt.Skill{Path: "a", Frontmatter: []byte(`{"name":"a","description":"other"}`), Files: []mcprt.SkillFile{manifest}}, "Frontmatter differs"},
		{mcprt.Skill{Path: "a", Files: []mcprt.SkillFile{manifest, mcprt.NewSkillFile("../x", nil)}}, `bad file path "../x"`},
		{mcprt.Skill{Path: "a b", Files: []mcprt.SkillFile{manifest}}, `has ' '`},
		{mcprt.Skill{Path: "a"}, "neither Files nor Read"},
	} {
		if err := srv.AddSkills(tc.skill); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("AddSkills(%+v): %v, want %q", tc.skill.Path, err, tc.want)
		}
	}
	if err := srv.AddSkills(mcprt.Skill{Path: "a", Files: []mcprt.SkillFile{manifest}}, mcprt.Skill{Path: "x/a", Files: []mcprt.SkillFile{manifest}}); err == nil || !strings.Contains(err.Error(), "is also the name") {
		t.Errorf("two skills named a: %v", err)
	}
}

// TestSkillsDynamic checks a skill whose files are made on demand: its
// resources are "dynamic" and reads go to its Read.
func TestSkillsDynamic(t *testing.T) {
	t.Parallel()
	dyn := mcprt.Skill{Path: "gen", Frontmatter: []byte(`{"name":"gen","description":"made on demand"}`),
		Read: func(_ context.Context, path string) ([]byte, error) {
			if path == "SKILL.md" || path == "notes/today.md" {
				return []byte("content of " + path), nil
			}
			return nil, mcprt.ErrNotFound
		}}
	c := mcptest.New(t, mcptest.Skills(dyn))
	if s := c.GetSkill("skill://gen/SKILL.md"); !s.Dynamic {
		t.Errorf("skills/get: %+v, want dynamic", s)
	}
	got := c.ReadResource("skill://gen/notes/today.md")
	if len(got) != 1 || got[0].Text != "content of notes/today.md" || got[0].MIMEType != "text/markdown" {
		t.Errorf("read: %+v", got)
	}
	if _, err := c.Request("resources/read", map[string]string{"uri": "skill://gen/none.md"}); err == nil {
		t.Error("a file Read does not make was read")
	}
	if caps := capabilitiesOf(t, c.Server(), "2025-11-25"); !strings.Contains(string(caps), `"io.modelcontextprotocol/skills":{}`) {
		t.Errorf("a server of dynamic skills alone serves no directories and declares {}: %s", caps)
	}
}
