package generator

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/annotations"
)

// TestManualListsEveryKey checks that -h names every directive and every
// key the parser accepts.
func TestManualListsEveryKey(t *testing.T) {
	want := annotations.TagKeys()
	for _, d := range annotations.Directives() {
		if !strings.Contains(usage, "\t"+d.Usage()+"\n") {
			t.Errorf("-h lacks %s", d.Usage())
		}
		want = append(want, d.Keys...)
	}
	for _, k := range want {
		if !strings.Contains(usage, "\t"+k.Usage()) {
			t.Errorf("-h lacks the key %s", k.Usage())
		}
	}
}
