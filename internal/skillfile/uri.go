package skillfile

import (
	"net/url"
	"path"
	"strings"
)

// Scheme is the URI scheme skills are served under.
const Scheme = "skill://"

// URI returns the skill:// URI of the file name (a path below the skill's
// directory, "/"-separated) of the skill at skillPath. Each segment of
// name is escaped as a URI path segment; a skill path needs no escaping
// (see [PathProblem]).
func URI(skillPath, name string) string {
	var b strings.Builder
	b.WriteString(Scheme)
	b.WriteString(skillPath)
	for seg := range strings.SplitSeq(name, "/") {
		if name == "" {
			break
		}
		b.WriteByte('/')
		b.WriteString(url.PathEscape(seg))
	}
	return b.String()
}

// ManifestURI returns the URI of the SKILL.md of the skill at skillPath,
// the skill's URI.
func ManifestURI(skillPath string) string { return Scheme + skillPath + "/" + Manifest }

// Base returns the last segment of a skill:// URI, unescaped: the name a
// file or directory resource is listed under.
func Base(uri string) string {
	seg := path.Base(strings.TrimPrefix(uri, Scheme))
	if s, err := url.PathUnescape(seg); err == nil {
		return s
	}
	return seg
}

// Canonical returns uri with the segments of its path escaped as [URI]
// escapes them, so that a client's spelling of a file's URI (Q&A.md,
// Q%26A.md) finds the file; ok is false when uri is not a skill:// URI
// or has a query, a fragment or a bad escape.
func Canonical(uri string) (string, bool) {
	rest, ok := strings.CutPrefix(uri, Scheme)
	if !ok || strings.ContainsAny(rest, "?#") {
		return "", false
	}
	var b strings.Builder
	b.WriteString(Scheme)
	for i, seg := range strings.Split(rest, "/") {
		s, err := url.PathUnescape(seg)
		if err != nil {
			return "", false
		}
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(url.PathEscape(s))
	}
	return b.String(), true
}
