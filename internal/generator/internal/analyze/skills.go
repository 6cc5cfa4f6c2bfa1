package analyze

import (
	"bytes"
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/internal/generator/internal/diag"
	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
	"github.com/mcpgen/mcpgen/internal/skillfile"
	"github.com/mcpgen/mcpgen/internal/skillfile/yamlnode"
)

// This file reads //mcp:skills: an embed.FS variable whose //go:embed
// line names a directory of Agent Skills. It reads the files the embed
// reads, and checks every rule of SEP-2640 and the Agent Skills
// specification that can be checked from them, at the line and column of
// the SKILL.md that breaks it. The same rules run again when the binary
// starts (mcprt.SkillsFS), on the bytes it holds.

// skillsPlace says where //mcp:skills goes.
const skillsPlace = "move it to the doc comment of an embed.FS variable, under a //go:embed line naming the skills' directory"

// varDocComments maps the doc comments of package-level variable
// declarations to their specs.
func varDocComments(f *ast.File) map[*ast.CommentGroup]*ast.ValueSpec {
	docs := map[*ast.CommentGroup]*ast.ValueSpec{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, s := range gd.Specs {
			if vs := s.(*ast.ValueSpec); vs.Doc != nil {
				docs[vs.Doc] = vs
			}
		}
		if gd.Doc != nil && len(gd.Specs) == 1 {
			docs[gd.Doc] = gd.Specs[0].(*ast.ValueSpec)
		}
	}
	return docs
}

// varDirectives reads the doc comment of a variable declaration. It
// reports whether the comment held an //mcp:skills, in which case every
// directive of the comment has been dealt with.
func (a *analyzer) varDirectives(cg *ast.CommentGroup, spec *ast.ValueSpec) bool {
	var sk *annotations.Skills
	var embeds []*ast.Comment
	for _, c := range cg.List {
		if strings.HasPrefix(c.Text, "//go:embed") {
			embeds = append(embeds, c)
		}
		if !isMCPDirective(c.Text) {
			continue
		}
		d, errs := annotations.ParseDirective(c.Slash, c.Text)
		a.annotationErrors(errs)
		switch d := d.(type) {
		case *annotations.Skills:
			if sk != nil {
				a.errorf(d.Pos, "repeated //mcp:skills on %s: merge its keys into the first one", spec.Names[0].Name)
				continue
			}
			sk = d
		case nil:
		default:
			a.errorf(c.Slash, "%s on var %s: move it to the doc comment of a top-level func or method", directiveWord(c.Text), spec.Names[0].Name)
		}
	}
	if sk == nil {
		return false
	}
	if s := a.skills(spec, sk, embeds); s != nil {
		a.pkg.Skills = s
	}
	return true
}

// skills analyzes a variable marked //mcp:skills.
func (a *analyzer) skills(spec *ast.ValueSpec, d *annotations.Skills, embeds []*ast.Comment) *model.Skills {
	name := spec.Names[0].Name
	obj, _ := a.in.Info.Defs[spec.Names[0]].(*types.Var)
	if len(spec.Names) != 1 || obj == nil || !isEmbedFS(obj.Type()) {
		a.errorf(d.Pos, "//mcp:skills on %s, which is not an embed.FS variable: put it on var NAME embed.FS under a //go:embed line naming the skills' directory", name)
		return nil
	}
	root, ok := a.embedRoot(d, name, embeds)
	if !ok || a.in.NoEmbedFiles {
		return nil
	}
	rootDir := filepath.Join(a.in.Dir, filepath.FromSlash(root))
	files, ok := a.skillFiles(d, rootDir, root)
	if !ok {
		return nil
	}
	s := &model.Skills{Pos: a.in.Fset.Position(d.Pos), Var: name, Root: root, Scopes: d.Scopes.Values}
	found, problems := skillfile.Collect(files)
	bad := a.checkWithYAML(files, rootDir)
	for _, p := range problems {
		if !bad[p.File] {
			a.skillError(d.Pos, rootDir, p)
		}
	}
	if len(problems) > 0 || len(bad) > 0 {
		return nil
	}
	if len(found) == 0 {
		a.errorf(d.Pos, "no SKILL.md below %s, which %s embeds: each skill is a directory holding one, named as its frontmatter's name", root, name)
		return nil
	}
	if a.pkg.Skills != nil {
		a.errorf(d.Pos, "a second //mcp:skills in the package, on %s: MCPSkills serves one set; keep every skill below the directory %s embeds", name, a.pkg.Skills.Var)
		return nil
	}
	for _, sk := range found {
		m := model.Skill{Path: sk.Path, Frontmatter: sk.JSON}
		for _, i := range sk.Files {
			m.Files = append(m.Files, model.SkillFile{Path: strings.TrimPrefix(files[i].Path, sk.Path+"/"), Data: files[i].Data})
		}
		s.List = append(s.List, m)
	}
	return s
}

// isEmbedFS reports whether t is embed.FS.
func isEmbedFS(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "embed" && n.Obj().Name() == "FS"
}

// embedRoot returns the directory the //go:embed lines of the variable
// name embed: one pattern naming a directory, "all:" allowed.
func (a *analyzer) embedRoot(d *annotations.Skills, name string, embeds []*ast.Comment) (string, bool) {
	var patterns []string
	for _, c := range embeds {
		ps, err := embedPatterns(strings.TrimPrefix(c.Text, "//go:embed"))
		if err != nil {
			a.errorf(c.Slash, "//go:embed of %s: %v", name, err)
			return "", false
		}
		patterns = append(patterns, ps...)
	}
	if len(patterns) != 1 {
		a.errorf(d.Pos, "//mcp:skills wants %s to embed one directory, as //go:embed skills; it embeds %d patterns", name, len(patterns))
		return "", false
	}
	root := strings.TrimPrefix(patterns[0], "all:")
	if strings.ContainsAny(root, "*?[\\") || root == "." || path.Clean(root) != root {
		a.errorf(d.Pos, "//mcp:skills wants //go:embed to name the skills' directory, as //go:embed skills; %q is not a directory's path", patterns[0])
		return "", false
	}
	return root, true
}

// embedPatterns splits the arguments of a //go:embed line as the go
// command does: space-separated, each bare or a Go string literal.
func embedPatterns(args string) ([]string, error) {
	var out []string
	for args = strings.TrimSpace(args); args != ""; args = strings.TrimSpace(args) {
		var p string
		switch args[0] {
		case '"', '`':
			q, err := strconv.QuotedPrefix(args)
			if err != nil {
				return nil, err
			}
			p, _ = strconv.Unquote(q)
			args = args[len(q):]
		default:
			p, args, _ = strings.Cut(args, " ")
		}
		out = append(out, p)
	}
	return out, nil
}

// skillFiles reads the files embedded below rootDir, root as written.
func (a *analyzer) skillFiles(d *annotations.Skills, rootDir, root string) ([]skillfile.File, bool) {
	var files []skillfile.File
	prefix := rootDir + string(filepath.Separator)
	for _, f := range a.in.EmbedFiles {
		rel, ok := strings.CutPrefix(f, prefix)
		if !ok {
			continue
		}
		data, err := a.in.ReadFile(f)
		if err != nil {
			a.errorf(d.Pos, "reading %s: %v", f, err)
			return nil, false
		}
		files = append(files, skillfile.File{Path: filepath.ToSlash(rel), Size: int64(len(data)), Data: data})
	}
	if len(files) == 0 {
		a.errorf(d.Pos, "no files below %s, which //go:embed names: each skill is a directory below it holding a SKILL.md", root)
		return nil, false
	}
	return files, true
}

// checkWithYAML reads the frontmatter of each SKILL.md with a full YAML
// library too: invalid YAML is reported as the library finds it, and a
// frontmatter the runtime's reader would read otherwise is refused. It
// returns the files it reported.
func (a *analyzer) checkWithYAML(files []skillfile.File, rootDir string) map[string]bool {
	bad := map[string]bool{}
	for _, f := range files {
		if path.Base(f.Path) != skillfile.Manifest {
			continue
		}
		fm, p := skillfile.Split(f.Data)
		if p != nil {
			continue // Collect reports it
		}
		lib, lp := yamlnode.Read(fm)
		mine, mp := skillfile.Read(fm)
		if lp != nil {
			if lp.Col == 0 && mp != nil {
				// The library's message, at the place the runtime's
				// reader found: the library's lines are not exact.
				lp.Line, lp.Col = mp.Line, mp.Col
			}
			lp.File = f.Path
			a.skillError(token.NoPos, rootDir, *lp)
			bad[f.Path] = true
			continue
		}
		if mp == nil && !bytes.Equal(mine.AppendJSON(nil), lib.AppendJSON(nil)) {
			a.skillError(token.NoPos, rootDir, skillfile.Problem{File: f.Path, Line: fm.Line, Col: 1,
				Msg: "the runtime would read this frontmatter otherwise than YAML does (a bug in mcpgen; please report it): write it more simply"})
			bad[f.Path] = true
		}
	}
	return bad
}

// skillError reports p at its place in the skill files below rootDir, or
// at the directive pos when it names no file.
func (a *analyzer) skillError(pos token.Pos, rootDir string, p skillfile.Problem) {
	if p.File == "" {
		a.errorf(pos, "%s", p.Msg)
		return
	}
	at := token.Position{Filename: filepath.Join(rootDir, filepath.FromSlash(p.File)), Line: max(p.Line, 1), Column: max(p.Col, 1)}
	a.diags = append(a.diags, diag.Errorf(at, "%s", p.Msg))
}
