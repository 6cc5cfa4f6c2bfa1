package emit

import (
	"bytes"
	"errors"
	"go/format"
	"runtime"
	"sync"
)

// cutMarker is a comment line the emitter writes between top-level
// declarations, after a blank line, where the unformatted file may be cut
// so that its parts are formatted in parallel. No string literal of the
// file can hold it on a line of its own: a raw string ends at its
// backquote, and an interpreted one holds no newline.
const cutMarker = "//mcpgen:cut`"

// minParallel is the size of unformatted source below which formatting
// in parts costs more than it saves.
const minParallel = 256 << 10

// cut marks a place between declarations where the file may be cut.
func (e *emitter) cut() { e.f.Comment(cutMarker) }

// gofmt formats src, the unformatted file with its cut markers, as
// format.Source formats the file without them. A large file is cut into
// one part per processor at its markers; each part is formatted on its own
// and the parts are joined with a blank line, which is what gofmt writes
// between top-level declarations that a blank line separates. Formatting
// a declaration never depends on another, so the result is the same bytes.
func gofmt(src []byte) ([]byte, error) {
	// Markers with nothing after them, as in a file of skills alone, cut
	// nothing off.
	for trimmed := bytes.TrimRight(src, "\n"); bytes.HasSuffix(trimmed, []byte("\n"+cutMarker)); trimmed = bytes.TrimRight(src, "\n") {
		src = append(trimmed[:len(trimmed)-len(cutMarker)-1:len(trimmed)-len(cutMarker)-1], '\n')
	}
	pieces := bytes.Split(src, []byte("\n"+cutMarker+"\n"))
	n := runtime.GOMAXPROCS(0)
	if len(src) < minParallel || n < 2 || len(pieces) < 2 {
		return format.Source(uncut(src))
	}
	parts := group(pieces, n)
	out := make([][]byte, len(parts))
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i, p := range parts {
		wg.Go(func() { out[i], errs[i] = formatPart(p, i == 0) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			// Format the whole to report the error as gofmt would.
			return format.Source(uncut(src))
		}
	}
	return bytes.Join(out, []byte("\n")), nil
}

// uncut is src without its cut markers.
func uncut(src []byte) []byte {
	return bytes.ReplaceAll(src, []byte("\n"+cutMarker+"\n"), []byte("\n"))
}

// formatPart formats part of a file; a part other than the first is given
// a package clause of its own to be formatted, and has it removed after.
func formatPart(part []byte, first bool) ([]byte, error) {
	if first {
		return format.Source(part)
	}
	const clause = "package p\n\n"
	out, err := format.Source(append([]byte(clause), part...))
	if err != nil {
		return nil, err
	}
	out, ok := bytes.CutPrefix(out, []byte(clause))
	if !ok {
		return nil, errNoClause
	}
	return out, nil
}

var errNoClause = errors.New("formatted part lost its package clause")

// group joins consecutive pieces into at most n parts of about equal size;
// the first part, which holds the package clause, is the first piece at
// least.
func group(pieces [][]byte, n int) [][]byte {
	total := 0
	for _, p := range pieces {
		total += len(p)
	}
	parts := make([][]byte, 0, n)
	var cur []byte
	for _, p := range pieces {
		if cur != nil {
			cur = append(cur, '\n')
		}
		cur = append(cur, p...)
		if len(cur) >= total/n && len(parts) < n-1 {
			parts = append(parts, cur)
			cur = nil
		}
	}
	if cur != nil {
		parts = append(parts, cur)
	}
	return parts
}
