package mcpimpl

import (
	"fmt"
	"strings"
	"testing"
)

// TestPathBeyondInline checks problem paths deeper than the steps a
// Decoder holds in itself, with escaped keys and array indexes among them.
func TestPathBeyondInline(t *testing.T) {
	t.Parallel()
	const levels = pathInline + 4
	var in, want strings.Builder
	for i := range levels {
		if i%3 == 2 {
			in.WriteString(`[`)
			want.WriteString("[0]")
			continue
		}
		fmt.Fprintf(&in, `{"a":1,"k\u0041%d":`, i)
		fmt.Fprintf(&want, ".kA%d", i)
	}
	in.WriteString(`"x"`)
	for i := levels - 1; i >= 0; i-- {
		if i%3 == 2 {
			in.WriteString(`]`)
		} else {
			in.WriteString(`}`)
		}
	}
	var d Decoder
	d.Reset([]byte(in.String()))
	var read func(level int)
	read = func(level int) {
		switch {
		case level == levels:
			d.Int(64)
		case level%3 == 2:
			if d.Array() {
				for d.NextElem() {
					read(level + 1)
				}
			}
		default:
			if d.Object() {
				for d.NextField() {
					if string(d.Key()) == "a" {
						d.Skip()
						continue
					}
					read(level + 1)
				}
			}
		}
	}
	read(0)
	err := d.Finish()
	wantMsg := "invalid arguments:\n" + strings.TrimPrefix(want.String(), ".") + `: expected integer, got "x"`
	if err == nil || err.Error() != wantMsg {
		t.Fatalf("got  %v\nwant %s", err, wantMsg)
	}
}
