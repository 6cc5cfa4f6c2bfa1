package mcpimpl

import (
	"strings"
	"testing"
	"time"
)

// TestNewTimeShares checks that the date-times of one input share an
// allocation, that each pointer is to a zero value of its own, and that a
// block holds no more values than the rest of the input could fill.
//
// Not parallel: AllocsPerRun counts every goroutine's allocations.
func TestNewTimeShares(t *testing.T) {
	input := []byte(`[` + strings.Repeat(`"2026-07-01T00:00:00Z",`, 7) + `"2026-07-01T00:00:00Z"]`)
	var d Decoder
	var got [8]*time.Time
	allocs := testing.AllocsPerRun(20, func() {
		d = Decoder{}
		d.Reset(input)
		for i := range got {
			got[i] = d.NewTime()
		}
	})
	if allocs > 1 {
		t.Errorf("eight date-times took %v allocations, want 1", allocs)
	}
	seen := map[*time.Time]bool{}
	for _, p := range got {
		if !p.IsZero() || seen[p] {
			t.Fatalf("NewTime gave %v, seen before: %v", *p, seen[p])
		}
		seen[p] = true
		*p = time.Unix(1, 0)
	}
	d = Decoder{}
	d.Reset([]byte(`"2026-07-01T00:00:00Z"`))
	d.NewTime()
	if n := cap(d.times); n != 1 {
		t.Errorf("a block for an input of one date-time holds %d", n)
	}
}

// TestGrowQuadruples checks that a list of ten items takes two
// allocations, and that the items survive the growth. Not parallel, as
// TestNewTimeShares says.
func TestGrowQuadruples(t *testing.T) {
	var d Decoder
	d.Reset([]byte(`[]`))
	var s []int
	allocs := testing.AllocsPerRun(20, func() {
		s = nil
		for i := range 10 {
			s = Grow(&d, s)
			s[len(s)-1] = i
		}
	})
	if allocs > 2 {
		t.Errorf("ten items took %v allocations, want at most 2", allocs)
	}
	for i, v := range s {
		if v != i {
			t.Fatalf("item %d is %d after growing", i, v)
		}
	}
}

// TestGrowByInput checks that a list read from an array grows by what
// the rest of the input holds: ten items of the same size take two
// allocations and less room than four times over gives.
func TestGrowByInput(t *testing.T) {
	t.Parallel()
	input := []byte(`[` + strings.Repeat(`{"a":12345},`, 9) + `{"a":12345}]`)
	var d Decoder
	d.Reset(input)
	var s []int
	if !d.Array() {
		t.Fatal("no array")
	}
	for d.NextElem() {
		s = Grow(&d, s)
		d.Skip()
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	if len(s) != 10 || cap(s) > 12 {
		t.Errorf("ten items in a slice of length %d and capacity %d, want 10 and at most 12", len(s), cap(s))
	}
}
