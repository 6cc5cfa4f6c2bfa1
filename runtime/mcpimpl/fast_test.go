package mcpimpl

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestFastPathsAgree holds the fast paths to the general parsers they
// stand in for: on every literal they take, the same value to the bit;
// and they must take the common cases, or they would be pointless.
func TestFastPathsAgree(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	lits := []string{"0", "-0", "1", "10.99", "0.1", "0.3", "-12.5", "123456789012345",
		"1234567890123456", "0.000000000000001", "9007199254740993", "99999999999999.9",
		"1e2", "1.5E-3", "4.35", "-0.0", "100000000000000000000000"}
	for range 100000 {
		var lit string
		switch r.IntN(3) {
		case 0:
			lit = strconv.FormatUint(r.Uint64N(1<<60), 10)
		case 1:
			lit = fmt.Sprintf("%d.%0*d", r.IntN(100000), 1+r.IntN(12), r.IntN(1000000))
		default:
			lit = strconv.FormatFloat(r.NormFloat64()*math.Pow(10, float64(r.IntN(20)-10)), 'f', -1, 64)
		}
		lits = append(lits, lit)
	}
	for _, lit := range lits {
		got, ok := exactFloat([]byte(lit))
		digits := len(lit) - strings.Count(lit, "-") - strings.Count(lit, ".")
		if short := !strings.ContainsAny(lit, "eE") && digits <= 15; ok != short {
			t.Fatalf("exactFloat(%s) taken %v; it has %d digits", lit, ok, digits)
		}
		if !ok {
			continue
		}
		want, err := strconv.ParseFloat(lit, 64)
		if err != nil || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("exactFloat(%s) = %v, strconv.ParseFloat: %v, %v", lit, got, want, err)
		}
	}

	times := []string{"2026-07-01T00:00:00Z", "2026-07-01t23:59:59z", "2024-02-29T12:00:00Z",
		"2023-02-29T12:00:00Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-04-31T00:00:00Z",
		"2026-07-01T24:00:00Z", "2026-07-01T10:60:00Z", "2026-07-01T10:00:60Z", "2026-07-01T10:00:00+02:00",
		"2026-07-01T10:00:00.5Z", "2026-07-01 10:00:00Z", "20x6-07-01T00:00:00Z", "1900-02-29T00:00:00Z",
		"2000-02-29T00:00:00Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z"}
	for range 20000 {
		times = append(times, fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:%02dZ",
			r.IntN(10000), r.IntN(14), r.IntN(33), r.IntN(26), r.IntN(62), r.IntN(62)))
	}
	taken := 0
	for _, s := range times {
		got, ok := utcTime([]byte(s))
		var want time.Time
		var scratch [64]byte
		err := want.UnmarshalText(upperTZ([]byte(s), &scratch))
		if !ok {
			continue
		}
		taken++
		if err != nil || got != want {
			t.Fatalf("utcTime(%s) = %v, UnmarshalText: %v, %v", s, got, want, err)
		}
	}
	if taken < len(times)/5 {
		t.Errorf("utcTime took %d of %d date-times", taken, len(times))
	}
	if _, ok := utcTime([]byte("2026-07-01T00:00:00Z")); !ok {
		t.Error("utcTime refused the commonest date-time")
	}
}
