package mcpserver

import (
	"io"
	"net/http"
)

// readBody reads the body of r, at most limit bytes (a longer one fails
// with a *http.MaxBytesError). A body of announced length is read into one
// buffer of that length, where io.ReadAll would grow one, leaving garbage
// behind, for every request.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	body := http.MaxBytesReader(w, r.Body, limit)
	n := r.ContentLength
	if n < 0 || n > limit {
		return io.ReadAll(body)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(body, buf); err != nil {
		return nil, err
	}
	return buf, nil
}
