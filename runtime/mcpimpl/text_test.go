package mcpimpl

import (
	"fmt"
	"strings"
	"testing"
)

// TestStringsStayIntact checks that strings sharing a text block keep
// their bytes while the Decoder goes on, is Reset and decodes more, and
// that the block holds no more than the input needs.
func TestStringsStayIntact(t *testing.T) {
	t.Parallel()
	var d Decoder
	var got, want []string
	for round := range 3 {
		var in strings.Builder
		in.WriteByte('[')
		for i := range 40 {
			if i > 0 {
				in.WriteByte(',')
			}
			s := fmt.Sprintf("r%d-item-%d", round, i)
			if i%7 == 0 {
				s += `\n` + strings.Repeat("x", i*5) // escaped, some longer than a block's share
			}
			in.WriteString(`"` + s + `"`)
			want = append(want, strings.ReplaceAll(s, `\n`, "\n"))
		}
		in.WriteByte(']')
		d.Reset([]byte(in.String()))
		if d.Array() {
			for d.NextElem() {
				got = append(got, d.String())
			}
		}
		if err := d.Finish(); err != nil {
			t.Fatal(err)
		}
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("string %d = %q, want %q", i, got[i], want[i])
		}
	}

	d.Reset([]byte(`"ab"`))
	d.textBlock = nil
	if s := d.String(); s != "ab" || cap(d.textBlock) != len(`"ab"`) {
		t.Errorf("got %q in a block of %d bytes; want \"ab\" in one of 4, the input's size", s, cap(d.textBlock))
	}
}
