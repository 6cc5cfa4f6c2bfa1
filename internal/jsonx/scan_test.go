package jsonx

import (
	"math/rand/v2"
	"testing"
)

// TestPlainRun holds PlainRun to the byte table it speeds up: every byte
// it passes is plain, and it stops at a byte that is not, or within eight
// bytes of the end.
func TestPlainRun(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("abcXYZ09 -_:,{}[]\"\\\x00\x01\x1f\x7f\x80\xc3\xa9\xff")
	for range 200000 {
		s := make([]byte, r.IntN(40))
		for k := range s {
			if r.IntN(8) == 0 {
				s[k] = alphabet[r.IntN(len(alphabet))]
			} else {
				s[k] = byte('a' + r.IntN(26))
			}
		}
		i := 0
		if len(s) > 0 {
			i = r.IntN(len(s))
		}
		j := PlainRun(s, i)
		for k := i; k < j; k++ {
			if !plainStringByte[s[k]] {
				t.Fatalf("PlainRun(%q, %d) = %d passed byte %#x at %d", s, i, j, s[k], k)
			}
		}
		if j+8 <= len(s) && plainStringByte[s[j]] {
			t.Fatalf("PlainRun(%q, %d) = %d stopped at plain byte %#x", s, i, j, s[j])
		}
	}
}
