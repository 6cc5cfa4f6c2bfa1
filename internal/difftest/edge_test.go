package difftest

import "testing"

// TestDateTimeEdges runs date-times at the edges of RFC 3339 through the
// decoder and the validator: they must agree, as the fuzz target demands.
func TestDateTimeEdges(t *testing.T) {
	tg := targets(t)["decode_price_update"]
	for _, when := range []string{
		"2026-01-01t00:00:00z", "2026-01-01T00:00:00z", "2026-01-01 00:00:00Z", "2026-01-01T00:00:00",
		"2026-06-30T23:59:60Z", "2026-01-01T24:00:00Z", "2026-01-01T00:00:00+24:00", "2026-01-01T00:00:00+23:59",
		"2026-01-01T00:00:00.Z", "2026-01-01T00:00:00.123456789123Z", "2026-02-29T00:00:00Z", "2024-02-29T00:00:00Z",
		"0000-01-01T00:00:00Z", "2026-1-01T00:00:00Z", "2026-01-01T00:00:00-00:00", "+2026-01-01T00:00:00Z",
		"2026-01-01T1:00:00Z", "0000-01-01T0:00:00Z",
	} {
		t.Run(when, func(t *testing.T) {
			check(t, tg, []byte(`{"region":"emea","changes":[{"product_id":"a","new_price":1,"effective_from":"`+when+`"}]}`))
		})
	}
}
