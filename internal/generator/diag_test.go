package generator

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDiagnostics runs the command in each case of testdata/diag and
// compares everything it printed with the case's want.txt: every problem,
// as file:line:col: message, sorted.
func TestDiagnostics(t *testing.T) {
	t.Parallel()
	cases, err := filepath.Glob(filepath.Join("testdata", "diag", "*"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no diagnostics cases: %v", err)
	}
	for _, dir := range cases {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			abs, _ := filepath.Abs(dir)
			code, stdout, stderr := runMain(t, abs)
			if code != ExitFail {
				t.Errorf("exit code %d, want %d", code, ExitFail)
			}
			if stdout != "" {
				t.Errorf("stdout: %q, want nothing", stdout)
			}
			if _, err := os.Stat(filepath.Join(abs, DefaultOutput)); err == nil {
				t.Errorf("a file was written despite errors")
			}
			wantPath := filepath.Join(abs, "want.txt")
			if *update {
				writeFile(t, wantPath, stderr)
				return
			}
			want, err := os.ReadFile(wantPath)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), stderr); diff != "" {
				t.Errorf("diagnostics differ (-want +got); if intended, rerun with -update:\n%s", diff)
			}
		})
	}
}
