package mcprt

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/mcpgen/mcpgen/internal/skillfile"
)

// This file holds Agent Skills, which the skills extension
// (io.modelcontextprotocol/skills, SEP-2640) serves: a skill is a
// directory of files, a SKILL.md with YAML frontmatter and the files it
// refers to, each a skill:// resource.

// SkillsExtension is the name under which servers declare skills in their
// capabilities' extensions.
const SkillsExtension = "io.modelcontextprotocol/skills"

// Skill is one Agent Skill a server serves. Generated code declares a
// package's embedded skills (MCPSkills); [SkillsFS] reads them from any
// file system. Servers serve skills/list, skills/get and the skill://
// resources of each file.
type Skill struct {
	// Path locates the skill: "/"-separated segments, the last of them
	// its name ("git-workflow", "acme/billing/refunds"). Its SKILL.md is
	// skill://<Path>/SKILL.md, the skill's URI.
	Path string
	// Frontmatter is the YAML frontmatter of its SKILL.md as a JSON
	// object, every field as written. Nil takes it from the SKILL.md among
	// Files; a skill without Files must set it.
	Frontmatter []byte
	// Files are the skill's files, SKILL.md among them, and those of
	// skills nested in its directory. Nil makes a skill whose files are
	// produced on demand by Read.
	Files []SkillFile
	// Read produces a file of a skill that has no Files: path is below
	// the skill's directory ("SKILL.md", "templates/a.md"). An error
	// wrapping [ErrNotFound] is a file that does not exist. Such a skill
	// publishes no digests: its resources are listed as "dynamic", which
	// SEP-2640 allows for generated content and which hosts may decline.
	Read func(ctx context.Context, path string) ([]byte, error)
	// Scopes are the OAuth scopes that skills/get, resources/read and
	// resources/directory/read of the skill need, all of them, on a
	// server with authorization; they are not published.
	Scopes []string
}

// SkillFile is one file of a [Skill].
type SkillFile struct {
	// Path is the file's path below the skill's directory, "/"-separated:
	// "SKILL.md", "references/FORMS.md".
	Path string
	// MIMEType is its media type; empty picks one from its name and
	// content (SKILL.md is text/markdown).
	MIMEType string
	// Size and Digest describe the bytes Open returns: their length, and
	// "sha256:" with the 64 lowercase hex digits of their SHA-256. Empty
	// ones are computed when the skill is added to a server. A server
	// checks both on every read, so that a file that changed is never
	// served under the digest of the bytes it had.
	Size   int64
	Digest string
	// Open returns the file's bytes.
	Open func() ([]byte, error)
}

// Digest returns the digest of data as SEP-2640 writes it: "sha256:" and
// the 64 lowercase hex digits of its SHA-256.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// NewSkillFile returns the file at path holding data, its size and digest
// computed from data.
func NewSkillFile(path string, data []byte) SkillFile {
	return SkillFile{Path: path, Size: int64(len(data)), Digest: Digest(data),
		Open: func() ([]byte, error) { return data, nil }}
}

// SkillsFS reads the skills of fsys: every directory holding a SKILL.md
// is a skill, its path in fsys the skill's path, and every file below it
// one of its files. Each file is read once, for its size and digest;
// servers read it again from fsys when a client asks, and check it.
//
// It checks what go generate checks of embedded skills, and returns every
// problem in one error, each "path:line:col: message": the frontmatter
// (YAML, name and description, the name equal to the directory's, no
// metadata key under io.modelcontextprotocol/), the skill paths, at most
// 512 files and 16 MiB a skill, and names unique.
//
// The frontmatter is read by a YAML reader of mcprt's own, since mcprt
// imports only the standard library: it reads what frontmatter is written
// in (mappings, sequences, plain, quoted and block scalars, one-line flow
// collections, comments) as go.yaml.in/yaml/v3 does, and refuses anchors,
// tags and YAML that readers disagree on with a message saying how to
// write it instead.
func SkillsFS(fsys fs.FS) ([]Skill, error) {
	var files []skillfile.File
	digests, types := map[string]string{}, map[string]string{}
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		f := skillfile.File{Path: name, Size: int64(len(data))}
		if path.Base(name) == skillfile.Manifest {
			f.Data = data
		}
		files = append(files, f)
		digests[name], types[name] = Digest(data), skillfile.MIMEType(name, data)
		return nil
	})
	if err != nil {
		return nil, err
	}
	found, problems := skillfile.Collect(files)
	if len(problems) > 0 {
		errs := make([]error, len(problems))
		for i := range problems {
			errs[i] = &problems[i]
		}
		return nil, errors.Join(errs...)
	}
	skills := make([]Skill, len(found))
	for i, s := range found {
		skills[i] = Skill{Path: s.Path, Frontmatter: s.JSON}
		for _, j := range s.Files {
			name := files[j].Path
			skills[i].Files = append(skills[i].Files, SkillFile{
				Path:     strings.TrimPrefix(name, s.Path+"/"),
				MIMEType: types[name],
				Size:     files[j].Size,
				Digest:   digests[name],
				Open:     func() ([]byte, error) { return fs.ReadFile(fsys, name) },
			})
		}
	}
	return skills, nil
}
