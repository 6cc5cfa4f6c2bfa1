package skillfile

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// NameProblem says what is wrong with a skill name, completing "bad skill
// name %q: ", or returns "" for a good one: 1 to 64 lowercase letters,
// digits and hyphens, no hyphen first, last or next to another (the
// Agent Skills naming rules).
func NameProblem(name string) string {
	switch {
	case name == "":
		return "it is empty"
	case len(name) > MaxName:
		return fmt.Sprintf("it is %d characters long, more than %d", len(name), MaxName)
	case name[0] == '-' || name[len(name)-1] == '-':
		return "it starts or ends with a hyphen"
	case strings.Contains(name, "--"):
		return "it has two hyphens in a row"
	}
	for _, c := range name {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return fmt.Sprintf("it has %q: use lowercase letters, digits and hyphens", c)
		}
	}
	return ""
}

// PathProblem says what is wrong with a skill path ("acme/billing/refunds"),
// or returns "" for a good one: segments of URI characters that need no
// escaping (letters, digits and -._~!$&'()*+,;=), none empty, "." or "..".
// Its first segment is the authority of the skill:// URI, which must be a
// valid reg-name of RFC 3986; its last is the skill's name.
func PathProblem(p string) string {
	if p == "" || p == "." {
		return "a SKILL.md at the root of the skills: put each skill in a directory named after it"
	}
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Sprintf("the skill path %q has an empty, . or .. segment", p)
		}
		for _, c := range seg {
			if !isRegName(c) {
				return fmt.Sprintf("the directory %q of skill path %q has %q, which a skill:// URI cannot hold as it is: use letters, digits and -._~", seg, p, c)
			}
		}
	}
	return ""
}

// isRegName reports whether c may stand in a reg-name of RFC 3986 without
// a percent escape: unreserved and sub-delims.
func isRegName(c rune) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		strings.ContainsRune("-._~!$&'()*+,;=", c)
}

// CheckFrontmatter checks the frontmatter root of the skill at skillPath
// against the fields of the Agent Skills specification and SEP-2640;
// problems name file. top is the SKILL.md line where the frontmatter
// starts, where a missing field is reported.
func CheckFrontmatter(root *Node, skillPath, file string, top int) []Problem {
	var ps []Problem
	at := func(n *Node, format string, a ...any) {
		line, col := top, 1
		if n != nil {
			line, col = n.Line, n.Col
		}
		ps = append(ps, Problem{File: file, Line: line, Col: col, Msg: fmt.Sprintf(format, a...)})
	}
	if root.Kind != Map {
		at(root, "the frontmatter is not a mapping of keys to values: write name: and description: lines")
		return ps
	}
	dir := path.Base(skillPath)
	name := root.Get("name")
	switch {
	case name == nil:
		at(nil, "the frontmatter has no name: add name: %s", dir)
	case name.Kind != String:
		at(name, "name is not text: write name: %s", dir)
	case NameProblem(name.Str) != "":
		at(name, "bad skill name %q: %s", name.Str, NameProblem(name.Str))
	case name.Str != dir:
		at(name, "name %q differs from the skill's directory %q: a skill's name is the last segment of its path, so rename one", name.Str, dir)
	}
	textField(root, "description", 1, MaxDescription, true, at)
	textField(root, "compatibility", 1, MaxCompat, false, at)
	textField(root, "license", 0, 0, false, at)
	textField(root, "allowed-tools", 0, 0, false, at)
	if md := root.Get("metadata"); md != nil {
		if md.Kind != Map {
			at(md, "metadata is not a mapping: write it as keys and text values under metadata:")
		} else {
			for i, k := range md.Keys {
				if strings.HasPrefix(k.Str, ReservedPrefix) {
					at(k, "the metadata key %q is reserved for MCP extensions (%s), and the skills extension defines none: rename it", k.Str, ReservedPrefix)
				}
				if v := md.Values[i]; v.Kind != String {
					at(v, "the metadata value of %q is not text: quote it, as the Agent Skills specification maps keys to strings", k.Str)
				}
			}
		}
	}
	return ps
}

// textField checks the field key of root, when present (or required): a
// string of min to max characters (max 0: any length).
func textField(root *Node, key string, min, max int, required bool, at func(*Node, string, ...any)) {
	v := root.Get(key)
	switch {
	case v == nil && required:
		at(nil, "the frontmatter has no %s: add %s: and say what the skill does and when to use it", key, key)
	case v == nil:
	case v.Kind != String:
		at(v, "%s is not text: quote it", key)
	case utf8.RuneCountInString(v.Str) < min:
		at(v, "%s is empty", key)
	case max > 0 && utf8.RuneCountInString(v.Str) > max:
		at(v, "%s is %d characters long, more than %d", key, utf8.RuneCountInString(v.Str), max)
	}
}

// File is one file below a skill root, as Collect reads it.
type File struct {
	Path string // below the root, "/"-separated
	Size int64
	Data []byte // the content; needed only of SKILL.md files
}

// Skill is one skill Collect found.
type Skill struct {
	Path        string // the skill path, the directory below the root
	Frontmatter *Node
	JSON        []byte // the frontmatter as a JSON object
	Name        string
	Description string
	// Files are the indices in Collect's files of the skill's files, the
	// files of skills nested in it included: SKILL.md first, then by path.
	Files []int
}

// Collect groups files below a skill root into skills, each directory
// holding a SKILL.md being one, and checks every rule: the frontmatter,
// the skill path, the limits of SEP-2640 (hosts may decline a skill over
// them) and that names are unique. Skills come sorted by path.
func Collect(files []File) ([]Skill, []Problem) {
	order := make([]int, len(files))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(files[a].Path, files[b].Path) })
	var skills []Skill
	var ps []Problem
	for _, i := range order {
		f := &files[i]
		if path.Base(f.Path) != Manifest {
			continue
		}
		dir := path.Dir(f.Path)
		if p := PathProblem(dir); p != "" {
			ps = append(ps, Problem{File: f.Path, Msg: p})
			continue
		}
		s, fps := readSkill(dir, f)
		ps = append(ps, fps...)
		if s == nil {
			continue
		}
		s.Files = filesOf(files, order, dir, i)
		ps = append(ps, limits(s, files, f.Path)...)
		skills = append(skills, *s)
	}
	ps = append(ps, uniqueNames(skills)...)
	return skills, ps
}

// readSkill reads the frontmatter of the SKILL.md f of the skill at dir
// and checks it.
func readSkill(dir string, f *File) (*Skill, []Problem) {
	fm, p := Split(f.Data)
	if p == nil {
		var root *Node
		if root, p = Read(fm); p == nil {
			if ps := CheckFrontmatter(root, dir, f.Path, fm.Line); len(ps) > 0 {
				return nil, ps
			}
			return &Skill{Path: dir, Frontmatter: root, JSON: root.AppendJSON(nil),
				Name: root.Get("name").Str, Description: root.Get("description").Str}, nil
		}
	}
	p.File = f.Path
	return nil, []Problem{*p}
}

// filesOf returns the indices of the files below dir, in which order
// sorts files by path, with manifest, dir's SKILL.md, first.
func filesOf(files []File, order []int, dir string, manifest int) []int {
	prefix := dir + "/"
	start, _ := slices.BinarySearchFunc(order, prefix, func(i int, p string) int { return cmp.Compare(files[i].Path, p) })
	out := []int{manifest}
	for _, i := range order[start:] {
		if !strings.HasPrefix(files[i].Path, prefix) {
			break
		}
		if i != manifest {
			out = append(out, i)
		}
	}
	return out
}

// limits checks a skill against the limits of SEP-2640: at most MaxFiles
// files and MaxBytes bytes, over which hosts may decline it.
func limits(s *Skill, files []File, manifest string) []Problem {
	var ps []Problem
	if len(s.Files) > MaxFiles {
		ps = append(ps, Problem{File: manifest, Msg: fmt.Sprintf("the skill %s has %d files, more than the %d hosts must accept: split it", s.Path, len(s.Files), MaxFiles)})
	}
	var total int64
	for _, i := range s.Files {
		total += files[i].Size
	}
	if total > MaxBytes {
		ps = append(ps, Problem{File: manifest, Msg: fmt.Sprintf("the skill %s holds %d bytes, more than the %d (16 MiB) hosts must accept: split it or move large files out", s.Path, total, MaxBytes)})
	}
	return ps
}

// uniqueNames reports each skill whose name an earlier one has.
func uniqueNames(skills []Skill) []Problem {
	var ps []Problem
	first := map[string]string{}
	for _, s := range skills {
		if other, ok := first[s.Name]; ok {
			ps = append(ps, Problem{File: s.Path + "/" + Manifest, Line: s.Frontmatter.Get("name").Line, Col: s.Frontmatter.Get("name").Col,
				Msg: fmt.Sprintf("the skill name %q is also the name of the skill at %s: hosts must then tell them apart by path, so give each a name of its own", s.Name, strconv.Quote(other))})
			continue
		}
		first[s.Name] = s.Path
	}
	return ps
}
