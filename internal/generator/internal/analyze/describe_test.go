package analyze

import "testing"

// TestProse checks that the lines of a paragraph are joined, while
// paragraphs, list items, lines that start like one and code blocks keep
// their line breaks.
func TestProse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"One line.", "One line."},
		{"Search finds articles\nthat match a query.\n\nThe best\nfirst.\n", "Search finds articles that match a query.\n\nThe best first."},
		{"It ranks them:\n  - by title\n    and body\n  - by date\n", "It ranks them:\n\n- by title and body\n- by date"},
		{"Steps:\n  1. first\n  2. second\n", "Steps:\n\n1. first\n2. second"},
		{"Modes:\n- fast: quick\n- slow: careful\n2) last\n", "Modes:\n- fast: quick\n- slow: careful\n2) last"},
		{"Example:\n\n\tsearch(\"x\")\n\t  indented\n\nDone.", "Example:\n\n\tsearch(\"x\")\n\t  indented\n\nDone."},
		{"Like [os.FileMode], see\nhttps://go.dev/doc.", "Like os.FileMode, see https://go.dev/doc."},
		{"", ""},
	} {
		if got := prose(tc.in); got != tc.want {
			t.Errorf("prose(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestWithoutName checks which leading Go names are dropped from a
// description and that what is left starts a sentence.
func TestWithoutName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		desc, name string
		verbs      bool
		want       string
	}{
		{"Node is a node of a tree.", "Node", true, "A node of a tree."},
		{"FileResource is the text of a file.", "FileResource", true, "The text of a file."},
		{"Hours are the desk's opening hours.", "Hours", true, "The desk's opening hours."},
		{"BulkPriceUpdate applies a price change.", "BulkPriceUpdate", true, "Applies a price change."},
		{"sep1 is a part of a result.", "sep1", true, "A part of a result."},
		{"Returns the sum.", "Add", true, "Returns the sum."},
		{"Nodes of a tree.", "Node", true, "Nodes of a tree."},
		{"Node", "Node", true, "Node"},
		{"Name is who to greet.", "Name", false, "Who to greet."},
		{"Count of items", "Count", false, "Count of items"},
		{"Info reports progress.", "Info", false, "Info reports progress."},
	} {
		if got := withoutName(tc.desc, tc.name, tc.verbs); got != tc.want {
			t.Errorf("withoutName(%q, %q, %v) = %q, want %q", tc.desc, tc.name, tc.verbs, got, tc.want)
		}
	}
}
