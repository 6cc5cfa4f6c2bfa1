package mcpserver

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestAuthSkillScopes checks that the scopes of skills are required of
// skills/get, resources/read of their files and directory reads, as a
// tool's are of its calls, and not of skills/list.
func TestAuthSkillScopes(t *testing.T) {
	t.Parallel()
	var r ran
	srv := authServer(&r)
	manifest := mcprt.NewSkillFile("SKILL.md", []byte("---\nname: guide\ndescription: How to use kb\n---\nBody\n"))
	if err := srv.AddSkills(mcprt.Skill{Path: "guide", Scopes: []string{"kb:read"},
		Files: []mcprt.SkillFile{manifest, mcprt.NewSkillFile("more/tips.md", []byte("tips"))}}); err != nil {
		t.Fatal(err)
	}
	ops := []struct{ method, uri, need string }{
		{"skills/get", "skill://guide/SKILL.md", "kb kb:read"},
		{"resources/read", "skill://guide/more/tips.md", "kb kb:read"},
		{"resources/directory/read", "skill://guide/more", "kb kb:read"},
		{"skills/list", "", ""},
	}
	for _, rev := range httpRevisions {
		t.Run(string(rev), func(t *testing.T) {
			for _, token := range []string{"alice-base", "alice-all"} {
				c := startHTTP(t, srv)
				if !rev.Stateless() {
					c.authInit(rev, token)
				}
				for _, o := range ops {
					body, hdr := request(rev, 1, o.method, "")
					if o.uri != "" {
						body = strings.Replace(body, `"params":{`, `"params":{"uri":"`+o.uri+`"`+map[bool]string{true: ",", false: ""}[rev.Stateless()], 1)
						if o.method == "resources/read" && rev.Stateless() {
							_, hdr = request(rev, 1, o.method, o.uri)
						}
					}
					resp := c.do(http.MethodPost, body, bearer(token, hdr))
					got := readAll(t, resp)
					if o.need == "" || token == "alice-all" {
						if resp.StatusCode != http.StatusOK || strings.Contains(got, `"error"`) {
							t.Errorf("%s %s %s: %d %s", token, o.method, o.uri, resp.StatusCode, got)
						}
						continue
					}
					challenge(t, resp, http.StatusForbidden, `Bearer error="insufficient_scope", scope="`+o.need+`", `+authMetadata)
				}
			}
		})
	}
	if got := strings.Join(srv.declaredScopes(), " "); !strings.Contains(got, "kb:read") {
		t.Errorf("the metadata's scopes %q lack those of the skills", got)
	}
}
