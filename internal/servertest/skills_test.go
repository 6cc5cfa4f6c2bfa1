package servertest_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpgen/mcpgen/internal/servertest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// skillSet is two skills: one with a file in a subdirectory of a
// subdirectory, one of SKILL.md alone.
func skillSet(t *testing.T) []mcprt.Skill {
	t.Helper()
	skills, err := mcprt.SkillsFS(fstest.MapFS{
		"pdf/SKILL.md":              {Data: []byte("---\nname: pdf\ndescription: Fill PDF forms\n---\nSee references/a/FORMS.md.\n")},
		"pdf/references/a/FORMS.md": {Data: []byte("# Forms\n")},
		"pdf/extract.py":            {Data: []byte("print(1)\n")},
		"team/git/SKILL.md":         {Data: []byte("---\nname: git\ndescription: Commit well\n---\n")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return skills
}

// TestSkills: the paths that serve skills list them a page at a time,
// get one, read every file under its digest and size, read directories,
// and answer -32602 where the SEP says; mcp-go cannot, and says so when
// they are added.
func TestSkills(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		s := m.new(mcprt.Identity{Name: "t", Version: "1", PageSize: 1})
		err := s.addSkills(skillSet(t)...)
		if m == mcpgoMode {
			if !errors.Is(err, errors.ErrUnsupported) || !strings.Contains(err.Error(), "request_handler.go") {
				t.Errorf("mcpgo.AddSkills: %v, want ErrUnsupported naming the SDK file", err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		cs := s.connect(t, "2025-11-25", nil)
		caps := servertest.MustJSON(cs.InitializeResult().Capabilities.Extensions[mcprt.SkillsExtension])
		servertest.SameJSON(t, "the skills extension", caps, `{"directoryRead":true}`)
		c := s.raw(t, "2025-11-25")
		first := c.Call("skills/list", `{}`)
		var page struct {
			Skills []struct {
				URI       string `json:"uri"`
				Resources []struct {
					URI, Digest string
					Size        int
				} `json:"resources"`
			} `json:"skills"`
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal([]byte(first), &page); err != nil || len(page.Skills) != 1 || page.NextCursor == "" {
			t.Fatalf("the first page of one: %s", first)
		}
		pdf := page.Skills[0]
		second := c.Call("skills/list", `{"cursor":"`+page.NextCursor+`"}`)
		if !strings.Contains(second, `"uri":"skill://team/git/SKILL.md"`) || strings.Contains(second, "nextCursor") {
			t.Errorf("the second page: %s", second)
		}
		get := c.Call("skills/get", `{"uri":"skill://pdf/SKILL.md"}`)
		servertest.SameJSON(t, "skills/get", get, `{"skill":`+servertest.MustJSON(json.RawMessage(strings.TrimSuffix(strings.TrimPrefix(first, `{"skills":[`), `],"nextCursor":"`+page.NextCursor+`"}`)))+`}`, "_meta")
		for _, r := range pdf.Resources {
			read := c.Call("resources/read", `{"uri":"`+r.URI+`"}`)
			var res struct {
				Contents []struct{ Text string } `json:"contents"`
			}
			if err := json.Unmarshal([]byte(read), &res); err != nil || len(res.Contents) != 1 {
				t.Fatalf("read %s: %s", r.URI, read)
			}
			if text := res.Contents[0].Text; len(text) != r.Size || mcprt.Digest([]byte(text)) != r.Digest {
				t.Errorf("%s: %d bytes, digest %s; the entry says %d, %s", r.URI, len(text), mcprt.Digest([]byte(text)), r.Size, r.Digest)
			}
		}
		dir := c.Call("resources/directory/read", `{"uri":"skill://pdf/references"}`)
		servertest.SameJSON(t, "a directory", dir, `{"resources":[{"uri":"skill://pdf/references/a","name":"a","mimeType":"inode/directory"}]}`, "_meta")
		for _, call := range [][2]string{
			{"skills/get", `{"uri":"skill://none/SKILL.md"}`},
			{"resources/directory/read", `{"uri":"skill://pdf/SKILL.md"}`},
			{"resources/read", `{"uri":"skill://pdf/references"}`},
		} {
			if got := c.Call(call[0], call[1]); !strings.Contains(got, `"code":-32602`) {
				t.Errorf("%s %s: %s, want -32602", call[0], call[1], got)
			}
		}
	})
}

// TestSkillsStateless: on 2026-07-28 over HTTP, the skills methods answer
// with the result type and caching hints that revision's results carry.
func TestSkillsStateless(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		s := m.new(mcprt.Identity{Name: "t", Version: "1"})
		if err := s.addSkills(skillSet(t)...); err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(s.httpHandler(t, nil, "2026-07-28"))
		t.Cleanup(hs.Close)
		for _, call := range [][2]string{
			{"skills/list", `{` + servertest.StatelessMeta + `}`},
			{"skills/get", `{` + servertest.StatelessMeta + `,"uri":"skill://team/git/SKILL.md"}`},
			{"resources/directory/read", `{` + servertest.StatelessMeta + `,"uri":"skill://pdf"}`},
		} {
			req, _ := http.NewRequest(http.MethodPost, hs.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"`+call[0]+`","params":`+call[1]+`}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("MCP-Protocol-Version", "2026-07-28")
			req.Header.Set("Mcp-Method", call[0])
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var msg struct {
				Result map[string]json.RawMessage `json:"result"`
			}
			text := string(body)
			if i := strings.Index(text, "{"); i > 0 { // an SSE event
				text = strings.TrimSpace(text[i:])
			}
			if err := json.Unmarshal([]byte(text), &msg); err != nil || string(msg.Result["resultType"]) != `"complete"` || msg.Result["ttlMs"] == nil || msg.Result["cacheScope"] == nil {
				t.Errorf("%s: %d %s", call[0], resp.StatusCode, body)
			}
		}
	}, builtinMode, gosdkMode)
}
