package generator

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// callMain calls the tools of the locals case with the documents read from
// stdin, one "tool<TAB>arguments" a line, and prints "ok" or "error", a tab
// and the quoted text of the result, for each.
const callMain = `package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"

	golden "example.com/e2e"
)

func main() {
	tools := golden.All()
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		name, args, _ := strings.Cut(in.Text(), "\t")
		for i := range tools {
			if tools[i].Name != name {
				continue
			}
			res := tools[i].Handler(context.Background(), []byte(args))
			status := "ok"
			if res.IsError {
				status = "error"
			}
			fmt.Printf("%s\t%q\n", status, res.Content[0].Text)
		}
	}
}
`

// TestLocalsWork builds the locals golden case, whose package declares
// the names generated functions used to give their own variables and uses
// them in its tools, and calls each tool: the generated code decodes,
// checks, calls and encodes as it does for any package.
func TestLocalsWork(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a program")
	}
	bin := sharedModule(t).binary("locals-call")
	calls := []string{
		"move\t" + `{"dir":"up","level":2,"small":-3,"flag":true,"weights":{"b":1.5,"a":2},"entries":{"y":{"n":4},"x":{"n":1}},"pair":["ab","c"],"maybe":1,"dirs":["down"]}`,
		"move\t" + `{"dir":"left","level":3,"small":200,"flag":true,"pair":["a"],"entries":{"x":{}}}`,
		"echo\t" + `{"word":"down"}`,
		"levels\t" + `{"keys":["a","b"],"level":1}`,
		"levels\t" + `{"keys":[],"level":2}`,
		"add\t" + `{"by":5}`,
		"add\t" + `{"by":"2"}`,
	}
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(strings.Join(calls, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", bin, err)
	}
	want := strings.Join([]string{
		`ok	"{\"dir\":\"up\",\"total\":9,\"names\":[\"x\",\"y\",\"down\"],\"weights\":{\"a\":2,\"b\":1.5},\"sep\":{\"ok\":true}}"`,
		`error	"invalid arguments:\ndir: \"left\" is not one of \"up\", \"down\"\nlevel: 3 is not one of 1, 2\nsmall: 200 is out of range for int8 (-128 to 127)\npair: expected 2 items, got 1\nentries.x.n: required property is missing"`,
		`ok	"DOWN"`,
		`ok	"[{\"key\":\"a\",\"level\":1},{\"key\":\"b\",\"level\":1}]"`,
		`error	"a package-level err"`,
		`ok	"5"`,
		`ok	"7"`,
	}, "\n") + "\n"
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}
