package wire

import "testing"

// TestRevisionIndex checks that Index numbers the table's revisions in
// order, that NumRevisions counts them, and that an unsupported revision
// takes the latest's place.
func TestRevisionIndex(t *testing.T) {
	t.Parallel()
	if len(Revisions) != NumRevisions {
		t.Fatalf("len(Revisions) = %d, NumRevisions = %d", len(Revisions), NumRevisions)
	}
	for i, r := range Revisions {
		if got := r.Index(); got != i {
			t.Errorf("%s.Index() = %d, want %d", r, got, i)
		}
	}
	for _, r := range []Revision{"", "2024-10-07", "2027-01-01"} {
		if got, want := r.Index(), LatestRevision.Index(); got != want {
			t.Errorf("unsupported %q.Index() = %d, want the latest's, %d", r, got, want)
		}
	}
}
