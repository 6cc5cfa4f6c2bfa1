package annotations

import "testing"

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"title", "title", 0},
		{"titel", "title", 1}, // adjacent swap
		{"tol", "tool", 1},
		{"kitten", "sitting", 3},
		{"ca", "abc", 3},             // optimal string alignment, not full Damerau
		{"sometimes", "optional", 7}, // too far to suggest for task=sometimes
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestNearest(t *testing.T) {
	keys := []string{"min", "max", "minLength", "maxLength", "title"}
	tests := []struct {
		w, want string
	}{
		{"titel", "title"},
		{"MINLENGTH", "minLength"}, // case is ignored
		{"mn", "min"},              // len 2: one edit allowed
		{"mun", "min"},             // ties go to the first listed
		{"mzz", ""},                // two edits is too far for a short word
		{"mxa", "max"},             // one swap
		{"minLenght", "minLength"},
		{"minimum", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := nearest(tt.w, keys); got != tt.want {
			t.Errorf("nearest(%q) = %q, want %q", tt.w, got, tt.want)
		}
	}
}
