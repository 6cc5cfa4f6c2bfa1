package skillfile

import (
	"path"
	"strings"
	"unicode/utf8"
)

// mimeTypes are the media types of the files skills usually hold, by
// extension. The table is the package's own rather than the system's
// (mime.TypeByExtension reads /etc/mime.types), so that a skill is served
// the same everywhere.
var mimeTypes = map[string]string{
	".md": "text/markdown", ".markdown": "text/markdown", ".txt": "text/plain",
	".html": "text/html", ".htm": "text/html", ".css": "text/css", ".csv": "text/csv",
	".xml": "application/xml", ".json": "application/json", ".yaml": "application/yaml",
	".yml": "application/yaml", ".toml": "application/toml", ".js": "text/javascript",
	".mjs": "text/javascript", ".ts": "text/x-typescript", ".py": "text/x-python",
	".sh": "text/x-shellscript", ".go": "text/x-go", ".rb": "text/x-ruby",
	".sql": "application/sql", ".svg": "image/svg+xml", ".png": "image/png",
	".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
	".pdf": "application/pdf", ".zip": "application/zip", ".gz": "application/gzip",
	".tar": "application/x-tar", ".wasm": "application/wasm",
}

// MIMEType returns the media type of the file name with content data:
// SKILL.md is text/markdown; other files go by their extension, and a file
// of an unknown kind is text/plain when data is UTF-8 text, else
// application/octet-stream.
func MIMEType(name string, data []byte) string {
	if path.Base(name) == Manifest {
		return ManifestMIME
	}
	if t, ok := mimeTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	if utf8.Valid(data) {
		return "text/plain"
	}
	return "application/octet-stream"
}

// IsText reports whether a file of media type mime with content data is
// sent as text rather than as a base64 blob: when it is UTF-8 and the type
// is text, or one of the textual application and image types.
func IsText(mime string, data []byte) bool {
	if !utf8.Valid(data) {
		return false
	}
	switch {
	case strings.HasPrefix(mime, "text/"), strings.HasSuffix(mime, "+xml"), strings.HasSuffix(mime, "+json"):
		return true
	}
	switch mime {
	case "application/json", "application/xml", "application/yaml", "application/toml", "application/sql":
		return true
	}
	return false
}
