package mcptest

import (
	"encoding/json"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// Skills adds skills to the server, as generated MCPSkills functions and
// mcprt.SkillsFS return them; a skill the server refuses fails the test.
func Skills(skills ...mcprt.Skill) Option {
	return func(c *config) { c.skills = append(c.skills, skills...) }
}

// Skill is a skill's entry, as skills/list and skills/get carry it.
type Skill struct {
	URI         string          // of its SKILL.md
	Frontmatter json.RawMessage // its SKILL.md frontmatter, as JSON
	// Resources are its files with their digests and sizes; nil when
	// Dynamic.
	Resources []SkillResource
	Dynamic   bool // its resources are "dynamic": made on demand, no digests
}

// SkillResource is one file of a [Skill].
type SkillResource struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// DirectoryEntry is one child of a directory that
// resources/directory/read lists.
type DirectoryEntry struct {
	URI      string `json:"uri"`
	Name     string `json:"name"`
	MIMEType string `json:"mimeType"` // inode/directory for a subdirectory
	Size     int64  `json:"size"`
}

// ListSkills lists the skills of every page of skills/list.
func (c *Client) ListSkills() []Skill {
	c.t.Helper()
	var out []Skill
	for _, raw := range c.list("skills/list", "skills") {
		out = append(out, c.skill("skills/list", raw))
	}
	return out
}

// GetSkill returns the entry of the skill whose SKILL.md is at uri.
func (c *Client) GetSkill(uri string) Skill {
	c.t.Helper()
	params, _ := json.Marshal(map[string]string{"uri": uri})
	raw := c.call("skills/get "+strconv.Quote(uri), "skills/get", params)
	var res struct {
		Skill      json.RawMessage `json:"skill"`
		NextCursor *string         `json:"nextCursor"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || res.Skill == nil {
		c.t.Fatalf("mcptest: skills/get %q: malformed result %s", uri, raw)
	}
	if res.NextCursor != nil {
		c.t.Fatalf("mcptest: skills/get %q: the result has a nextCursor, which a single entry must not", uri)
	}
	return c.skill("skills/get", res.Skill)
}

func (c *Client) skill(method string, raw json.RawMessage) Skill {
	c.t.Helper()
	var e struct {
		URI         string          `json:"uri"`
		Frontmatter json.RawMessage `json:"frontmatter"`
		Resources   json.RawMessage `json:"resources"`
	}
	if err := json.Unmarshal(raw, &e); err != nil || e.URI == "" || e.Frontmatter == nil || e.Resources == nil {
		c.t.Fatalf("mcptest: %s: malformed skill entry %s", method, raw)
	}
	s := Skill{URI: e.URI, Frontmatter: e.Frontmatter}
	if string(e.Resources) == `"dynamic"` {
		s.Dynamic = true
		return s
	}
	if err := json.Unmarshal(e.Resources, &s.Resources); err != nil {
		c.t.Fatalf("mcptest: %s: malformed resources of %s: %v", method, e.URI, err)
	}
	return s
}

// ReadDirectory lists the direct children of the directory at uri, every
// page of resources/directory/read.
func (c *Client) ReadDirectory(uri string) []DirectoryEntry {
	c.t.Helper()
	var out []DirectoryEntry
	var cursor string
	for {
		p := map[string]string{"uri": uri}
		if cursor != "" {
			p["cursor"] = cursor
		}
		params, _ := json.Marshal(p)
		raw := c.call("resources/directory/read "+strconv.Quote(uri), "resources/directory/read", params)
		var page struct {
			Resources  []DirectoryEntry `json:"resources"`
			NextCursor string           `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &page); err != nil || page.Resources == nil {
			c.t.Fatalf("mcptest: resources/directory/read %q: malformed result %s", uri, raw)
		}
		out = append(out, page.Resources...)
		if page.NextCursor == "" {
			return out
		}
		cursor = page.NextCursor
	}
}

// ReadSkill reads every file of the skill s, as a host that loads it
// does, and checks each against s: its digest and its size. A file that
// does not match fails the test. It returns the files' bytes by URI.
func (c *Client) ReadSkill(s Skill) map[string][]byte {
	c.t.Helper()
	if s.Dynamic {
		c.t.Fatalf("mcptest: ReadSkill %s: the skill is dynamic and lists no files to read", s.URI)
	}
	out := map[string][]byte{}
	for _, r := range s.Resources {
		contents := c.ReadResource(r.URI)
		if len(contents) != 1 {
			c.t.Fatalf("mcptest: resources/read %s: %d contents, want 1", r.URI, len(contents))
		}
		data := contents[0].Blob
		if data == nil {
			data = []byte(contents[0].Text)
		}
		if int64(len(data)) != r.Size {
			c.t.Fatalf("mcptest: %s: read %d bytes, the skill's entry says %d", r.URI, len(data), r.Size)
		}
		if d := mcprt.Digest(data); d != r.Digest {
			c.t.Fatalf("mcptest: %s: the bytes read have digest %s, the skill's entry says %s", r.URI, d, r.Digest)
		}
		out[r.URI] = data
	}
	return out
}
