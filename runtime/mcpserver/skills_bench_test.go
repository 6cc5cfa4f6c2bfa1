package mcpserver_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// benchSkills is 100 skills of 10 files each, about 1 KiB a file.
func benchSkills(b *testing.B) fstest.MapFS {
	fsys := fstest.MapFS{}
	body := []byte(strings.Repeat("Some instructions for the model.\n", 32))
	for i := range 100 {
		name := fmt.Sprintf("skill-%03d", i)
		fsys[name+"/SKILL.md"] = &fstest.MapFile{Data: []byte("---\nname: " + name + "\ndescription: Does thing " + name + " well\nmetadata:\n  version: \"1.0\"\n---\n" + string(body))}
		for j := range 9 {
			fsys[fmt.Sprintf("%s/references/part-%d.md", name, j)] = &fstest.MapFile{Data: body}
		}
	}
	return fsys
}

// BenchmarkSkillsList lists 100 skills of 10 files each in one page: the
// server's time for one skills/list, its entries written when the skills
// were added.
func BenchmarkSkillsList(b *testing.B) {
	skills, err := mcprt.SkillsFS(benchSkills(b))
	if err != nil {
		b.Fatal(err)
	}
	srv := mcpserver.New(mcprt.Identity{Name: "bench", Version: "1"})
	if err := srv.AddSkills(skills...); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	conn := srv.Connect(ctx, func([]byte) error { return nil })
	conn.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`))
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{}}`)
	if resp := conn.Handle(ctx, req); !strings.Contains(string(resp), "skill-099") || strings.Contains(string(resp), "nextCursor") {
		b.Fatalf("not one page of 100 skills: %.200s", resp)
	}
	b.ReportAllocs()
	for b.Loop() {
		conn.Handle(ctx, req)
	}
}

// BenchmarkSkillsFS reads and hashes the 100 skills' files once, and
// checks them: what mcprt.SkillsFS (and MCPSkills) costs at start-up.
// fstest.MapFS lists a directory by walking all its files, which weighs
// here; an embed.FS does not.
func BenchmarkSkillsFS(b *testing.B) {
	fsys := benchSkills(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := mcprt.SkillsFS(fsys); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAddSkills is what adding the 100 skills costs the server: it
// checks each SKILL.md against its frontmatter and writes the entries
// and directories, once.
func BenchmarkAddSkills(b *testing.B) {
	skills, err := mcprt.SkillsFS(benchSkills(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := mcpserver.New(mcprt.Identity{Name: "bench", Version: "1"}).AddSkills(skills...); err != nil {
			b.Fatal(err)
		}
	}
}
