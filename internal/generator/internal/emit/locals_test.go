package emit

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNewLocals checks that locals keep their usual names in a package
// that declares none of them, and that a declared name, or any member of
// a numbered family, moves the local aside.
func TestNewLocals(t *testing.T) {
	t.Parallel()
	usual := locals{ctx: "ctx", args: "args", recv: "r", dec: "d", val: "v", in: "in", out: "out", err: "err", enc: "enc", uri: "uri", argument: "argument", value: "value", ok: "ok", client: "c", res: "res",
		enumVal: "x", seen: "seen", count: "n", key: "k", elem: "e", index: "i", mapVal: "v", sep: "sep", at: "at"}
	if diff := cmp.Diff(usual, *newLocals(map[string]bool{"Tool": true, "x": true, "seen": true, "vx1": true}), cmp.AllowUnexported(locals{})); diff != "" {
		t.Errorf("no collision (-want +got):\n%s", diff)
	}
	moved := usual
	moved.dec, moved.val, moved.enumVal, moved.mapVal = "d__", "v_", "x__", "v_"
	scope := map[string]bool{"d": true, "d_": true, "v": true, "x12": true, "x_0": true, "v3": true}
	if diff := cmp.Diff(moved, *newLocals(scope), cmp.AllowUnexported(locals{})); diff != "" {
		t.Errorf("collisions (-want +got):\n%s", diff)
	}
}
