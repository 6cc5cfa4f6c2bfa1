package mcpserver

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestReadBody checks bodies of announced and of unknown length, within
// the limit and beyond it.
func TestReadBody(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		body    string
		length  int64 // -1: unknown, as for a chunked body
		tooLong bool
	}{
		{"announced", "0123456789", 10, false},
		{"empty", "", 0, false},
		{"unknown", "0123456789", -1, false},
		{"announced too long", strings.Repeat("x", 11), 11, true},
		{"unknown too long", strings.Repeat("x", 11), -1, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/", io.NopCloser(strings.NewReader(tt.body)))
			r.ContentLength = tt.length
			got, err := readBody(httptest.NewRecorder(), r, 10)
			var tooBig *http.MaxBytesError
			switch {
			case tt.tooLong && !errors.As(err, &tooBig):
				t.Errorf("readBody = %q, %v; want a *http.MaxBytesError", got, err)
			case !tt.tooLong && (err != nil || string(got) != tt.body):
				t.Errorf("readBody = %q, %v; want %q", got, err, tt.body)
			}
		})
	}
}

// BenchmarkReadBody reads a body of the reference call's size with
// readBody and, as it was read before, with io.ReadAll.
func BenchmarkReadBody(b *testing.B) {
	body := strings.Repeat("x", 807)
	for _, read := range []struct {
		name string
		fn   func(http.ResponseWriter, *http.Request) ([]byte, error)
	}{
		{"readBody", func(w http.ResponseWriter, r *http.Request) ([]byte, error) { return readBody(w, r, 1<<20) }},
		{"ReadAll", func(w http.ResponseWriter, r *http.Request) ([]byte, error) {
			return io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		}},
	} {
		b.Run(read.name, func(b *testing.B) {
			w := httptest.NewRecorder()
			r := httptest.NewRequest(http.MethodPost, "/", nil)
			src := strings.NewReader(body)
			b.ReportAllocs()
			for b.Loop() {
				src.Reset(body)
				r.Body, r.ContentLength = io.NopCloser(src), int64(len(body))
				if _, err := read.fn(w, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
