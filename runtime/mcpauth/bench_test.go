package mcpauth

import (
	"testing"
	"time"
)

// BenchmarkJWT compares the check of a token remembered from an earlier
// request with a full check of its signature and claims.
func BenchmarkJWT(b *testing.B) {
	a, _, _, _ := keys(b)
	s := newKeyServer(b, a)
	tok := a.sign(b, nil, claims())
	for _, bc := range []struct {
		name  string
		cache int
	}{{"cached", 0}, {"uncached", -1}} {
		b.Run(bc.name, func(b *testing.B) {
			v, err := NewJWT(b.Context(), JWTOptions{Issuer: testIssuer, Audience: testAudience, JWKSURL: s.URL, CacheSize: bc.cache})
			if err != nil {
				b.Fatal(err)
			}
			v.now = func() time.Time { return testNow }
			b.ReportAllocs()
			for b.Loop() {
				if _, err := v.VerifyToken(b.Context(), tok); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
