package mcpserver

import (
	"io"
	"net/http"
)

// readBody reads the body of r, at most limit bytes (a longer one fails
// with a *http.MaxBytesError). A body of announced length is read into one
// buffer of that length, where io.ReadAll would grow one, leaving garbage
// behind, for every request.
//
// A body of announced length within the limit is read as it is: net/http
// ends it at that length, so the limit has nothing left to check.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	n := r.ContentLength
	if n < 0 || n > limit {
		return io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r.Body, buf); err != nil {
		return nil, err
	}
	return buf, nil
}
