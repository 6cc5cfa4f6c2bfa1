package mcpimpl_test

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

func TestLimitsFromDefaults(t *testing.T) {
	t.Parallel()
	l := jsonx.LimitsFrom(context.Background())
	if l.MaxArgumentBytes != 4<<20 || l.MaxDepth != 64 {
		t.Errorf("default limits %+v, want 4 MiB and depth 64", l)
	}
}

func TestStartAppliesDepthLimit(t *testing.T) {
	t.Parallel()
	ctx := jsonx.WithLimits(context.Background(), jsonx.Limits{MaxDepth: 3})
	var d mcpimpl.Decoder
	d.Start(ctx, []byte(`{"a":[[[1]]]}`))
	d.Any()
	err := d.Finish()
	if err == nil || !strings.Contains(err.Error(), "nesting deeper than 3 levels") {
		t.Errorf("depth 4 under a limit of 3: %v", err)
	}
}

// TestAdversarialDocuments feeds 4 MiB documents built to cost memory or
// time and checks the decoder answers with problems, never a panic, and
// allocates at most a small multiple of the input. Decoding into any costs
// what the Go values cost; there the bound is what encoding/json allocates
// for the same document.
func TestAdversarialDocuments(t *testing.T) {
	// Not parallel: it reads the process's allocations, to which other
	// tests running at once would add.
	const size = 4 << 20
	docs := map[string]string{
		"deep nesting": strings.Repeat("[", size),
		"unknown keys": "{" + strings.Repeat(`"k":1,`, size/6) + `"k":1}`,
		"escapes":      `{"region":"` + strings.Repeat(`\u00e9`, size/6) + `"}`,
		"wide array":   `{"changes":[` + strings.Repeat(`{},`, size/3) + `{}]}`,
		"long string":  `{"region":"` + strings.Repeat("x", size) + `"}`,
	}
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			input := []byte(doc)
			alloc := allocated(func() {
				var d mcpimpl.Decoder
				d.Reset(input)
				var in priceInput
				decodePriceInput(&d, &in)
				if d.Finish() == nil {
					t.Errorf("no problem reported")
				}
			})
			if limit := 2 * uint64(len(input)); alloc > limit {
				t.Errorf("allocated %d bytes for %d bytes of input, want at most %d", alloc, len(input), limit)
			}
		})
	}
	t.Run("any of numbers", func(t *testing.T) {
		input := []byte("[" + strings.Repeat("1,", size/2) + "1]")
		ours := allocated(func() {
			var d mcpimpl.Decoder
			d.Reset(input)
			d.Any()
			if err := d.Finish(); err != nil {
				t.Error(err)
			}
		})
		theirs := allocated(func() {
			var v any
			if err := json.Unmarshal(input, &v); err != nil {
				t.Error(err)
			}
		})
		if ours > theirs+theirs/10 {
			t.Errorf("Any allocated %d bytes, encoding/json %d for the same %d bytes", ours, theirs, len(input))
		}
	})
}

func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestQuoteCutsLongValues(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 30) // 60 bytes
	if got, want := jsonx.Quote(long), `"`+strings.Repeat("é", 20)+`"...`; got != want {
		t.Errorf("Quote of 60 bytes = %s, want %s", got, want)
	}
	if got := jsonx.Quote(`a"b`); got != `"a\"b"` {
		t.Errorf("Quote(a\"b) = %s", got)
	}
}

func TestTimeFollowsRFC3339(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want string // the instant in UTC, or "" for a problem
	}{
		{`"2026-01-02t03:04:05z"`, "2026-01-02T03:04:05Z"},
		{`"2026-01-02T03:04:05+01:00"`, "2026-01-02T02:04:05Z"},
		{`"2026-01-02T03:04:05+24:00"`, ""},
		{`"2026-01-02T03:04:05-24:00"`, ""},
		{`"2026-01-02 03:04:05Z"`, ""},
		{`"2026-01-02T3:04:05Z"`, ""}, // RFC 3339 has a two-digit hour
		{`"2026-01-02T3:04:05.5+01:00"`, ""},
	}
	for _, tt := range tests {
		var d mcpimpl.Decoder
		d.Reset([]byte(tt.in))
		got := d.Time()
		err := d.Finish()
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("Time(%s) = %v, want a problem", tt.in, got)
		case tt.want != "" && (err != nil || got.UTC().Format(time.RFC3339) != tt.want):
			t.Errorf("Time(%s) = %v, %v; want %s", tt.in, got, err, tt.want)
		}
	}
}
