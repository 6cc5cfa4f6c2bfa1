package authgate

import (
	"net/http/httptest"
	"testing"
)

// BenchmarkAuthenticate is the gate's work on one request: a bearer
// token its verifier knows at once, and a DPoP-bound one with a fresh
// proof of each algorithm family (made before the timer runs).
func BenchmarkAuthenticate(b *testing.B) {
	b.Run("bearer", func(b *testing.B) {
		f := newDPoPFixture(b, DPoPConfig{Mode: DPoPAccepted})
		r := httptest.NewRequest("POST", dpopResource, nil)
		r.Header.Set("Authorization", "Bearer plain")
		b.ReportAllocs()
		for b.Loop() {
			if t, _ := f.g.Authenticate(httptest.NewRecorder(), r, nil); t == nil {
				b.Fatal("refused")
			}
		}
	})
	for _, name := range []string{"ES256", "RS256", "EdDSA"} {
		b.Run(name, func(b *testing.B) {
			f := newDPoPFixture(b, DPoPConfig{Mode: DPoPAccepted})
			p := newProver(b, name)
			f.tokens["bound"] = bound("alice", p.jkt)
			proofs := make([]string, 0, b.N)
			for range b.N {
				proofs = append(proofs, p.sign(b, proofFor("POST", dpopResource, "bound", f.now), nil))
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				r := httptest.NewRequest("POST", dpopResource, nil)
				r.Header.Set("Authorization", "DPoP bound")
				r.Header.Set("DPoP", proofs[i])
				if t, _ := f.g.Authenticate(httptest.NewRecorder(), r, nil); t == nil {
					b.Fatal("refused")
				}
			}
		})
	}
}
