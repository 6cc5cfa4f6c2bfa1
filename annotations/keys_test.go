package annotations

import (
	"strings"
	"testing"
)

// TestEveryDirectiveParses checks that each directive of the table has a
// case in ParseDirective.
func TestEveryDirectiveParses(t *testing.T) {
	for _, d := range directives {
		if v, _ := ParseDirective(base, "//mcp:"+d.Name+" x"); v == nil {
			t.Errorf("//mcp:%s is in the table but ParseDirective does not parse it", d.Name)
		}
	}
}

// TestEveryKeyIsStored checks that each key of the tables has a case in
// the setter of its directive or of the tag, which would otherwise reject
// it as unknown.
func TestEveryKeyIsStored(t *testing.T) {
	for _, d := range directives {
		prefix := "//mcp:" + d.Name + " "
		if d.Name == "param" {
			prefix += "x "
		}
		for _, k := range d.keyNames() {
			_, errs := ParseDirective(base, prefix+k+"=1")
			wantKnown(t, prefix+k, k, errs)
		}
	}
	for _, k := range keyNames(tagKeys) {
		_, _, errs := ParseTag(base, "`mcp:\""+k+"=1\"`")
		wantKnown(t, "mcp tag", k, errs)
	}
}

func wantKnown(t *testing.T, where, key string, errs []Error) {
	t.Helper()
	for _, e := range errs {
		if strings.HasPrefix(e.Msg, "unknown key") {
			t.Errorf("%s: key %q is in the table but its setter has no case for it: %s", where, key, e.Msg)
		}
	}
}
