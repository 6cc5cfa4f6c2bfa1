package analyze

import "testing"

func TestImportable(t *testing.T) {
	for _, tc := range []struct {
		path, from string
		want       bool
	}{
		{"example.com/m/other", "example.com/m", true},
		{"example.com/m/internal/x", "example.com/m", true},
		{"example.com/m/internal/x", "example.com/m/cmd/y", true},
		{"example.com/m/internal/x", "example.com/mm", false},
		{"example.com/m/internal/x", "example.com/n", false},
		{"example.com/m/a/internal/x/internal/y", "example.com/m/a/internal/x/z", true},
		{"example.com/m/a/internal/x/internal/y", "example.com/m/a/b", false},
		{"internal/poll", "example.com/m", false},
		{"example.com/internals/x", "example.com/m", true},
	} {
		if got := importable(tc.path, tc.from); got != tc.want {
			t.Errorf("importable(%q, %q) = %v, want %v", tc.path, tc.from, got, tc.want)
		}
	}
}
