package emit

import (
	"bytes"
	"go/format"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"
)

// TestGofmtInParts checks that formatting a large file in parts gives the
// bytes format.Source gives for the whole. The file is made of the golden
// files' declarations, unindented as jennifer writes them, repeated past
// the size where formatting goes parallel, with a cut marker before each
// function as the emitter writes them.
func TestGofmtInParts(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	goldens, err := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "*", "mcp_gen.go.golden"))
	if err != nil || len(goldens) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	indent := regexp.MustCompile(`(?m)^\t+`)
	for _, path := range goldens {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		src = indent.ReplaceAll(src, nil)
		i := bytes.Index(src, []byte("\nfunc "))
		head, body := src[:i+1], src[i+1:]
		body = bytes.ReplaceAll(body, []byte("\n\nfunc "), []byte("\n\n"+cutMarker+"\nfunc "))
		var b bytes.Buffer
		b.Write(head)
		for b.Len() < 2*minParallel {
			b.WriteString(cutMarker + "\n")
			b.Write(body)
			b.WriteString("\n")
		}
		want, err := format.Source(uncut(b.Bytes()))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		got, err := gofmt(b.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: formatting in parts differs from formatting the whole", path)
		}
	}
}

// TestGofmtReportsErrors checks that a part that does not parse makes the
// whole fail, as format.Source does.
func TestGofmtReportsErrors(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	var b bytes.Buffer
	b.WriteString("package p\n\n")
	for b.Len() < 2*minParallel {
		b.WriteString(cutMarker + "\nfunc f() {\nreturn\n}\n\n")
	}
	b.WriteString(cutMarker + "\nfunc g() {\n")
	if _, err := gofmt(b.Bytes()); err == nil {
		t.Error("gofmt of source with an unclosed function succeeded")
	}
}
