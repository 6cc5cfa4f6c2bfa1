package generator

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMapsWork builds the maps golden case, whose tools take and return
// maps keyed by named string types, and calls each tool: keys of a type
// with constants are checked, each bad one reported at its path, keys of
// other string types are taken as they are, and results are written with
// their keys sorted.
func TestMapsWork(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a program")
	}
	bin := sharedModule(t).binary("maps-call")
	calls := []string{
		"count\t" + `{"colors":{"red":2,"blue":1}}`,
		"count\t" + `{"colors":{"red":2,"purple":1,"pink":"x"},"any":{"purple":true},"labels":{"any label":"ok"}}`,
		"count\t" + `{"colors":{},"mixes":{"red":{"matte":1},"teal":{"gloss":2}},"boxes":{"grey":{"n":1},"green":{}}}`,
		"count\t" + `{"colors":{},"shades":[{"red":"blue"},{"green":"gold","gold":"red"}]}`,
		"restock\t" + `{"colors":{"green":1,"red":0},"labels":{"b":"2","a":"1"},"any":{"teal":false}}`,
		"tally\t" + `{"counts":{"red":2,"green":3}}`,
		"tally\t" + `{"counts":{"red":2,"Red":3}}`,
	}
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(strings.Join(calls, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", bin, err)
	}
	want := strings.Join([]string{
		`ok	"{\"blue\":1,\"red\":2}"`,
		`error	"invalid arguments:\ncolors.purple: property name \"purple\" is not one of \"red\", \"green\", \"blue\"\ncolors.pink: property name \"pink\" is not one of \"red\", \"green\", \"blue\""`,
		`error	"invalid arguments:\nmixes.teal: property name \"teal\" is not one of \"red\", \"green\", \"blue\"\nboxes.grey: property name \"grey\" is not one of \"red\", \"green\", \"blue\"\nboxes.green.n: required property is missing"`,
		`error	"invalid arguments:\nshades[1].green: \"gold\" is not one of \"red\", \"green\", \"blue\"\nshades[1].gold: property name \"gold\" is not one of \"red\", \"green\", \"blue\""`,
		`ok	"{\"colors\":{\"green\":2,\"red\":1},\"labels\":{\"a\":\"1\",\"b\":\"2\"},\"any\":{\"teal\":false}}"`,
		`ok	"5"`,
		`error	"invalid arguments:\ncounts.Red: property name \"Red\" is not one of \"red\", \"green\", \"blue\""`,
	}, "\n") + "\n"
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}
