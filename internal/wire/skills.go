package wire

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/internal/skillfile"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// This file holds skills (SEP-2640) as every server path serves them: the
// entries of skills/list and skills/get, the skill:// resources of their
// files and the directories of resources/directory/read, built once when
// skills are added and then copied.

// Skills is a set of skills ready to serve. Build it with NewSkills; it
// is not changed after, so readers need no lock.
type Skills struct {
	list  []*servedSkill          // by URI
	byURI map[string]*servedSkill // by the URI of its SKILL.md
	files map[string]*servedFile  // by canonical file URI
	dirs  map[string]*servedDir   // by directory URI, no trailing slash
	// dynamic are the skills without files, by the URI of their
	// directory, for reads of their files.
	dynamic []*servedSkill
}

type servedSkill struct {
	skill    mcprt.Skill
	uri      string // of its SKILL.md
	root     string // of its directory
	entry    []byte // its entry in skills/list and skills/get
	resource mcprt.Resource
}

type servedFile struct {
	skill *servedSkill
	file  mcprt.SkillFile
	uri   string
}

// servedDir is one directory of a skill: its children as resources.
type servedDir struct {
	skill    *servedSkill
	children [][]byte // Resource JSON, by URI
}

// NewSkills checks skills and indexes them for serving. A later skill of
// the same path replaces an earlier one. Files without a size, digest or
// media type are read once for them. It returns every problem found in
// one error: the rules mcprt.SkillsFS checks, files that cannot be read,
// and a Frontmatter that is not the frontmatter of the SKILL.md.
func NewSkills(skills []mcprt.Skill) (*Skills, error) {
	byPath := map[string]int{}
	var kept []mcprt.Skill
	for _, s := range skills {
		if i, ok := byPath[s.Path]; ok {
			kept[i] = s
			continue
		}
		byPath[s.Path] = len(kept)
		kept = append(kept, s)
	}
	set := &Skills{byURI: map[string]*servedSkill{}, files: map[string]*servedFile{}, dirs: map[string]*servedDir{}}
	var errs []error
	names := map[string]string{}
	for _, s := range kept {
		ss, err := prepareSkill(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("skill %s: %w", s.Path, err))
			continue
		}
		if other, ok := names[ss.resource.Name]; ok {
			errs = append(errs, fmt.Errorf("skill %s: the name %q is also the name of the skill %s: give each a name of its own", s.Path, ss.resource.Name, other))
			continue
		}
		names[ss.resource.Name] = s.Path
		set.add(ss)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	slices.SortFunc(set.list, func(a, b *servedSkill) int { return cmp.Compare(a.uri, b.uri) })
	return set, nil
}

// prepareSkill checks one skill and computes what serving it takes.
func prepareSkill(s mcprt.Skill) (*servedSkill, error) {
	if p := skillfile.PathProblem(s.Path); p != "" {
		return nil, errors.New(p)
	}
	ss := &servedSkill{skill: s, uri: skillfile.ManifestURI(s.Path), root: skillfile.URI(s.Path, "")}
	ss.skill.Files = slices.Clone(s.Files)
	var fm *skillfile.Node
	if s.Files == nil {
		if s.Read == nil {
			return nil, errors.New("it has neither Files nor Read")
		}
		if s.Frontmatter == nil {
			return nil, errors.New("a skill whose files Read produces needs its Frontmatter")
		}
		var err error
		if fm, err = frontmatterNode(ss.skill.Frontmatter); err != nil {
			return nil, err
		}
	} else {
		var err error
		if fm, err = completeFiles(&ss.skill); err != nil {
			return nil, err
		}
	}
	if ps := skillfile.CheckFrontmatter(fm, s.Path, "", 0); len(ps) > 0 {
		msgs := make([]string, len(ps))
		for i, p := range ps {
			msgs[i] = p.Msg
		}
		return nil, errors.New(strings.Join(msgs, "; "))
	}
	ss.resource = mcprt.Resource{URI: ss.uri, Name: fm.Get("name").Str, Description: fm.Get("description").Str,
		MIMEType: skillfile.ManifestMIME, Scopes: s.Scopes}
	ss.entry = appendSkillEntry(nil, ss)
	return ss, nil
}

// completeFiles checks the files of s, computes the sizes, digests and
// media types they lack, and takes the frontmatter from SKILL.md, or
// checks that Frontmatter is the same. It returns the frontmatter read.
func completeFiles(s *mcprt.Skill) (*skillfile.Node, error) {
	seen := map[string]bool{}
	var manifest []byte
	var total int64
	for i := range s.Files {
		f := &s.Files[i]
		if f.Path == "" || path.Clean(f.Path) != f.Path || strings.HasPrefix(f.Path, "/") || f.Path == "." || strings.HasPrefix(f.Path, "../") {
			return nil, fmt.Errorf("bad file path %q: write it below the skill's directory, with / between names", f.Path)
		}
		if seen[f.Path] {
			return nil, fmt.Errorf("the file %s is listed twice", f.Path)
		}
		seen[f.Path] = true
		if f.Open == nil {
			return nil, fmt.Errorf("the file %s has no Open", f.Path)
		}
		if f.Digest == "" || f.MIMEType == "" || f.Path == skillfile.Manifest {
			data, err := f.Open()
			if err != nil {
				return nil, fmt.Errorf("reading %s: %w", f.Path, err)
			}
			if f.Digest == "" {
				f.Size, f.Digest = int64(len(data)), mcprt.Digest(data)
			}
			if f.MIMEType == "" {
				f.MIMEType = skillfile.MIMEType(f.Path, data)
			}
			if f.Path == skillfile.Manifest {
				manifest = data
			}
		}
		if !validDigest(f.Digest) {
			return nil, fmt.Errorf("the digest of %s is %q, not sha256: and 64 lowercase hex digits", f.Path, f.Digest)
		}
		total += f.Size
	}
	switch {
	case manifest == nil:
		return nil, errors.New("it has no SKILL.md")
	case len(s.Files) > skillfile.MaxFiles:
		return nil, fmt.Errorf("it has %d files, more than the %d hosts must accept", len(s.Files), skillfile.MaxFiles)
	case total > skillfile.MaxBytes:
		return nil, fmt.Errorf("it holds %d bytes, more than the %d (16 MiB) hosts must accept", total, skillfile.MaxBytes)
	}
	fm, p := skillfile.Split(manifest)
	var root *skillfile.Node
	if p == nil {
		root, p = skillfile.Read(fm)
	}
	if p != nil {
		p.File = skillfile.Manifest
		return nil, p
	}
	got := root.AppendJSON(nil)
	if s.Frontmatter == nil {
		s.Frontmatter = got
		return root, nil
	}
	if bytes.Equal(s.Frontmatter, got) { // as mcprt.SkillsFS writes it
		return root, nil
	}
	var a, b any
	if json.Unmarshal(s.Frontmatter, &a) != nil || json.Unmarshal(got, &b) != nil || !reflect.DeepEqual(a, b) {
		return nil, errors.New("Frontmatter differs from the frontmatter of its SKILL.md, which hosts compare field by field: leave it nil to take it from SKILL.md")
	}
	return root, nil
}

func validDigest(d string) bool {
	hex, ok := strings.CutPrefix(d, "sha256:")
	if !ok || len(hex) != 64 {
		return false
	}
	for _, c := range []byte(hex) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// frontmatterNode reads a frontmatter written as JSON into a node, its
// members in order, so that the rules of frontmatter can check it.
func frontmatterNode(js []byte) (*skillfile.Node, error) {
	d := json.NewDecoder(bytes.NewReader(js))
	d.UseNumber()
	n, err := jsonNode(d)
	if err == nil && n.Kind != skillfile.Map {
		err = errors.New("not an object")
	}
	if err == nil && d.More() {
		err = errors.New("more than one value")
	}
	if err != nil {
		return nil, fmt.Errorf("Frontmatter is not a JSON object: %v", err)
	}
	return n, nil
}

func jsonNode(d *json.Decoder) (*skillfile.Node, error) {
	t, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case json.Delim:
		n := &skillfile.Node{Kind: skillfile.Seq}
		if t == '{' {
			n.Kind = skillfile.Map
		}
		for d.More() {
			if n.Kind == skillfile.Map {
				k, err := d.Token()
				if err != nil {
					return nil, err
				}
				n.Keys = append(n.Keys, &skillfile.Node{Kind: skillfile.String, Str: k.(string)})
			}
			v, err := jsonNode(d)
			if err != nil {
				return nil, err
			}
			if n.Kind == skillfile.Map {
				n.Values = append(n.Values, v)
			} else {
				n.Items = append(n.Items, v)
			}
		}
		_, err := d.Token()
		return n, err
	case string:
		return &skillfile.Node{Kind: skillfile.String, Str: t}, nil
	case bool:
		return &skillfile.Node{Kind: skillfile.Bool, Bool: t}, nil
	case json.Number:
		return &skillfile.Node{Kind: skillfile.Float}, nil
	}
	return &skillfile.Node{Kind: skillfile.Null}, nil
}

// appendSkillEntry appends the skill entry of ss: its uri, frontmatter
// and resources, every file with its digest and size, or "dynamic".
func appendSkillEntry(dst []byte, ss *servedSkill) []byte {
	dst = jsonx.AppendString(append(dst, `{"uri":`...), ss.uri)
	dst = append(append(dst, `,"frontmatter":`...), compact(ss.skill.Frontmatter)...)
	if ss.skill.Files == nil {
		return append(dst, `,"resources":"dynamic"}`...)
	}
	dst = append(dst, `,"resources":[`...)
	for i, f := range ss.skill.Files {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendString(append(dst, `{"uri":`...), skillfile.URI(ss.skill.Path, f.Path))
		dst = jsonx.AppendString(append(dst, `,"digest":`...), f.Digest)
		dst = jsonx.AppendInt(append(dst, `,"size":`...), f.Size)
		dst = append(dst, '}')
	}
	return append(dst, "]}"...)
}

func compact(js []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, js) != nil {
		return js
	}
	return b.Bytes()
}

// add indexes ss: its files and its directories.
func (set *Skills) add(ss *servedSkill) {
	set.list = append(set.list, ss)
	set.byURI[ss.uri] = ss
	if ss.skill.Files == nil {
		set.dynamic = append(set.dynamic, ss)
		return
	}
	children := map[string]map[string][]byte{ss.root: {}} // directory URI -> child URI -> Resource JSON
	for _, f := range ss.skill.Files {
		uri := skillfile.URI(ss.skill.Path, f.Path)
		set.files[uri] = &servedFile{skill: ss, file: f, uri: uri}
		dir, name := ss.root, f.Path
		for {
			head, rest, more := strings.Cut(name, "/")
			if !more {
				break
			}
			sub := dir + "/" + skillfile.URI("", head)[len(skillfile.Scheme)+1:]
			if children[dir] == nil {
				children[dir] = map[string][]byte{}
			}
			children[dir][sub] = appendDirectory(nil, sub)
			dir, name = sub, rest
		}
		if children[dir] == nil {
			children[dir] = map[string][]byte{}
		}
		children[dir][uri] = appendFileResource(nil, uri, &f)
	}
	for dir, kids := range children {
		uris := make([]string, 0, len(kids))
		for u := range kids {
			uris = append(uris, u)
		}
		slices.Sort(uris)
		d := &servedDir{skill: ss}
		for _, u := range uris {
			d.children = append(d.children, kids[u])
		}
		set.dirs[dir] = d
	}
}

// appendDirectory appends the Resource of a subdirectory.
func appendDirectory(dst []byte, uri string) []byte {
	dst = jsonx.AppendString(append(dst, `{"uri":`...), uri)
	dst = jsonx.AppendString(append(dst, `,"name":`...), skillfile.Base(uri))
	return append(dst, `,"mimeType":"`+skillfile.DirectoryMIME+`"}`...)
}

// appendFileResource appends the Resource of a file.
func appendFileResource(dst []byte, uri string, f *mcprt.SkillFile) []byte {
	dst = jsonx.AppendString(append(dst, `{"uri":`...), uri)
	dst = jsonx.AppendString(append(dst, `,"name":`...), path.Base(f.Path))
	dst = jsonx.AppendString(append(dst, `,"mimeType":`...), f.MIMEType)
	dst = jsonx.AppendInt(append(dst, `,"size":`...), f.Size)
	return append(dst, '}')
}

// Len returns the number of skills.
func (set *Skills) Len() int {
	if set == nil {
		return 0
	}
	return len(set.list)
}

// Directories reports whether some skill has files, whose directories
// resources/directory/read serves.
func (set *Skills) Directories() bool { return set != nil && len(set.dirs) > 0 }

// AppendPage appends the entries of up to size skills from start (all
// when size <= 0) as JSON array elements, an entry never split. It
// returns the offset of the next page (0 after the last) and false for a
// start past the end.
func (set *Skills) AppendPage(dst []byte, start, size int) ([]byte, int, bool) {
	n := set.Len()
	if start > n {
		return dst, 0, false
	}
	end := n
	if size > 0 && start+size < n {
		end = start + size
	}
	need := end - start // the commas, and a little room
	for i := start; i < end; i++ {
		need += len(set.list[i].entry)
	}
	dst = slices.Grow(dst, need+256) // one allocation for a page of many skills
	for i := start; i < end; i++ {
		if i > start {
			dst = append(dst, ',')
		}
		dst = append(dst, set.list[i].entry...)
	}
	if end < n {
		return dst, end, true
	}
	return dst, 0, true
}

// Entry returns the entry of the skill whose SKILL.md is at uri, for
// skills/get, and its scopes; ok is false when no skill is served there.
func (set *Skills) Entry(uri string) (entry []byte, scopes []string, ok bool) {
	ss := set.skillAt(uri)
	if ss == nil {
		return nil, nil, false
	}
	return ss.entry, ss.skill.Scopes, true
}

func (set *Skills) skillAt(uri string) *servedSkill {
	if set == nil {
		return nil
	}
	if ss := set.byURI[uri]; ss != nil {
		return ss
	}
	if c, ok := skillfile.Canonical(uri); ok {
		return set.byURI[c]
	}
	return nil
}

// Resources returns the resources resources/list lists for the skills:
// each SKILL.md, named and described by its frontmatter, as SEP-2640
// says. The other files are found through skills/list and directory
// reads.
func (set *Skills) Resources() []mcprt.Resource {
	if set == nil {
		return nil
	}
	out := make([]mcprt.Resource, len(set.list))
	for i, ss := range set.list {
		out[i] = ss.resource
		if f := set.files[ss.uri]; f != nil {
			out[i].Size = f.file.Size
		}
	}
	return out
}

// Scopes returns the scopes of the skill that uri (a file, a directory or
// a SKILL.md) is in; nil for none.
func (set *Skills) Scopes(uri string) []string {
	if ss := set.owner(uri); ss != nil {
		return ss.skill.Scopes
	}
	return nil
}

// AllScopes returns the scopes of every skill, for the protected resource
// metadata.
func (set *Skills) AllScopes() [][]string {
	if set == nil {
		return nil
	}
	var out [][]string
	for _, ss := range set.list {
		out = append(out, ss.skill.Scopes)
	}
	return out
}

// owner returns the skill uri is in: the innermost one, for a file of a
// nested skill.
func (set *Skills) owner(uri string) *servedSkill {
	if set == nil || !strings.HasPrefix(uri, skillfile.Scheme) {
		return nil
	}
	if c, ok := skillfile.Canonical(uri); ok {
		uri = c
	}
	if f := set.files[uri]; f != nil {
		return set.innermost(uri, f.skill)
	}
	if d := set.dirs[uri]; d != nil {
		return set.innermost(uri+"/", d.skill)
	}
	for _, ss := range set.dynamic {
		if strings.HasPrefix(uri, ss.root+"/") {
			return ss
		}
	}
	return nil
}

// innermost returns the skill of deepest directory that holds uri,
// starting from ss, one that does.
func (set *Skills) innermost(uri string, ss *servedSkill) *servedSkill {
	best := ss
	for _, o := range set.list {
		if len(o.root) > len(best.root) && strings.HasPrefix(uri, o.root+"/") {
			best = o
		}
	}
	return best
}

// IsSkillURI reports whether uri is one the skills serve, a file or a
// directory, and not some other resource's.
func (set *Skills) IsSkillURI(uri string) bool { return set.owner(uri) != nil }

// ErrDirectory is the error of a read of a directory's URI.
var ErrDirectory = errors.New("is a directory: list it with resources/directory/read")

// Read reads the skill file at uri: its contents (text for SKILL.md and
// other UTF-8 text, else a blob), with the file's media type. found is
// false when the skills have no file there. A file whose bytes no longer
// match its size and digest is an error: it changed since it was added.
func (set *Skills) Read(ctx context.Context, uri string) (c []mcprt.ResourceContents, found bool, err error) {
	ss := set.owner(uri)
	if ss == nil {
		return nil, false, nil
	}
	canon, _ := skillfile.Canonical(uri)
	if ss.skill.Files == nil {
		name, _ := strings.CutPrefix(canon, ss.root+"/")
		data, err := ss.skill.Read(ctx, unescapePath(name))
		if errors.Is(err, mcprt.ErrNotFound) {
			return nil, false, nil
		}
		if err != nil {
			return nil, true, err
		}
		return []mcprt.ResourceContents{fileContents(uri, skillfile.MIMEType(name, data), data)}, true, nil
	}
	f := set.files[canon]
	if f == nil {
		if set.dirs[canon] != nil {
			return nil, true, fmt.Errorf("%s %w", uri, ErrDirectory)
		}
		return nil, false, nil
	}
	data, err := f.file.Open()
	if err != nil {
		return nil, true, fmt.Errorf("reading %s: %w", uri, err)
	}
	if int64(len(data)) != f.file.Size || mcprt.Digest(data) != f.file.Digest {
		return nil, true, fmt.Errorf("%s changed since its skill was added to the server (its size or digest differs): add the skills again", uri)
	}
	return []mcprt.ResourceContents{fileContents(uri, f.file.MIMEType, data)}, true, nil
}

func unescapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = skillfile.Base(skillfile.Scheme + s)
	}
	return strings.Join(segs, "/")
}

// fileContents is the contents of a file: text when it is UTF-8 text.
func fileContents(uri, mime string, data []byte) mcprt.ResourceContents {
	c := mcprt.ResourceContents{URI: uri, MIMEType: mime}
	if skillfile.IsText(mime, data) && utf8.Valid(data) {
		c.Text = string(data)
	} else {
		c.Blob = data
		if c.Blob == nil {
			c.Blob = []byte{}
		}
	}
	return c
}

// AppendDirectory appends the children of the directory at uri, up to
// size of them from start (all when size <= 0), as JSON array elements,
// for resources/directory/read. It returns the offset of the next page (0
// after the last); isDir is false when uri is no directory of the
// skills, and ok false for a start past the end.
func (set *Skills) AppendDirectory(dst []byte, uri string, start, size int) (out []byte, next int, isDir, ok bool) {
	if set == nil {
		return dst, 0, false, false
	}
	d := set.dirs[uri]
	if d == nil {
		if c, cok := skillfile.Canonical(uri); cok {
			d = set.dirs[c]
		}
	}
	if d == nil {
		return dst, 0, false, false
	}
	n := len(d.children)
	if start > n {
		return dst, 0, true, false
	}
	end := n
	if size > 0 && start+size < n {
		end = start + size
	}
	for i := start; i < end; i++ {
		if i > start {
			dst = append(dst, ',')
		}
		dst = append(dst, d.children[i]...)
	}
	if end < n {
		return dst, end, true, true
	}
	return dst, 0, true, true
}

// AppendCapability appends the value of the skills extension in the
// server capabilities: directoryRead when some skill has directories.
func (set *Skills) AppendCapability(dst []byte) []byte {
	if set.Directories() {
		return append(dst, `{"directoryRead":true}`...)
	}
	return append(dst, `{}`...)
}

// AddSkills adds skills to those c serves, or replaces those of the same
// paths, and returns the set to serve. On a problem it returns it and
// keeps the set it had.
func (c *Catalog) AddSkills(skills []mcprt.Skill) (*Skills, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	all := append(slices.Clone(c.skillList), skills...)
	set, err := NewSkills(all)
	if err != nil {
		return nil, err
	}
	c.skillList, c.skills = all, set
	return set, nil
}

// Skills returns the skills c serves, nil for none.
func (c *Catalog) Skills() *Skills {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.skills
}

// skillScopes returns the scopes a request about the skills needs, and
// whether it is one: skills/get, resources/directory/read, and
// resources/read of a skill's file. c.mu is held.
func (c *Catalog) skillScopes(method, uri string) ([]string, bool) {
	switch {
	case c.skills == nil:
		return nil, false
	case method == "skills/get", method == "resources/directory/read":
		return c.skills.Scopes(uri), true
	case method == "resources/read" && c.skills.IsSkillURI(uri):
		return c.skills.Scopes(uri), true
	}
	return nil, false
}

// SkillCursor is the cursor of the page of a skills list from offset,
// for the adapters, whose SDKs page only their own lists.
func SkillCursor(offset int) string {
	return base64.RawURLEncoding.EncodeToString(strconv.AppendInt([]byte("s"), int64(offset), 10))
}

// SkillOffset reads a cursor SkillCursor wrote; "" is the first page.
func SkillOffset(cursor string) (int, bool) {
	if cursor == "" {
		return 0, true
	}
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil || len(b) < 2 || b[0] != 's' {
		return 0, false
	}
	n, err := strconv.Atoi(string(b[1:]))
	if err != nil || n < 0 || SkillCursor(n) != cursor {
		return 0, false
	}
	return n, true
}
