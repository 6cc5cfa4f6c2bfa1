package mcpimpl

import "math"

// These helpers let generated decoders fill slices, maps and pointers of
// any element type without writing the type out: an anonymous struct type
// with tags cannot be written again in generated code, because its tags are
// part of its identity.

// Grow appends a zero element to s; decoders then decode into s[len(s)-1]
// in place. Once d has found a problem the call will not run and the value
// is thrown away, so Grow reuses the last element instead of appending:
// memory stops growing with a bad input however long it is. The checks of
// the whole list (CheckItems, CheckUnique) then count and compare the
// items from what d read, not from s.
func Grow[S ~[]E, E any](d *Decoder, s S) S {
	var zero E
	if len(s) > 0 && d.invalid() {
		s[len(s)-1] = zero
		return s
	}
	switch {
	case cap(s) == 0:
		// Start at four: arguments rarely hold one item, and growing from
		// one costs two allocations more for every list of five or more.
		return append(make(S, 0, 4), zero)
	case len(s) == cap(s) && cap(s) < maxQuadruple:
		// A short list grows by what the rest of the input holds of
		// items as long as those read so far, at least twice and at most
		// four times over: ten items take two allocations, not three.
		return append(append(make(S, 0, growTo(d, len(s))), s...), zero)
	}
	return append(s, zero)
}

// growTo is the capacity Grow gives a full list of n items, for the
// array being read.
func growTo(d *Decoder, n int) int {
	if d.depth == 0 {
		return 4 * n
	}
	seg := d.top()
	if !seg.isArr || d.pos <= seg.keyStart {
		return 4 * n
	}
	per := max(1, (d.pos-seg.keyStart)/n) // bytes an item so far
	return min(max(n+1+(len(d.data)-d.pos)/per, 2*n), 4*n)
}

// maxQuadruple is the capacity from which Grow grows a slice as append
// does.
const maxQuadruple = 64

// NonNil returns s, or an empty slice when s is nil: a JSON array with no
// items decodes to an empty slice, as encoding/json decodes it, so it
// encodes back as [] rather than null.
func NonNil[S ~[]E, E any](s S) S {
	if s == nil {
		return S{}
	}
	return s
}

// Alloc returns a pointer to a new zero value of the type p points to.
func Alloc[P ~*E, E any](P) P { return P(new(E)) }

// NewMap returns a new empty map of m's type, whose keys are of any
// string type.
func NewMap[M ~map[K]E, K ~string, E any](M) M { return make(M) }

// MapZero returns the zero value of m's element type.
func MapZero[M ~map[K]E, K ~string, E any](M) (zero E) { return zero }

// IsMultipleOf reports whether v is a whole multiple of m, allowing for the
// rounding of decimal fractions in binary floating point (0.3 is a multiple
// of 0.1).
func IsMultipleOf(v, m float64) bool {
	q := v / m
	r := math.Round(q)
	return math.Abs(q-r) <= 1e-9*math.Max(1, math.Abs(q))
}
