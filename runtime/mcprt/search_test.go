package mcprt

import "testing"

func TestSearchIndex(t *testing.T) {
	t.Parallel()
	tools := []Tool{
		{Name: "reboot_instance", Description: "Restarts a virtual machine.", InputSchema: []byte(`{"type":"object"}`)},
		{Name: "refund_charge", Description: "Gives money back.", InputSchema: []byte(`{"type":"object","properties":{"charge_id":{"description":"Charge to refund"}}}`), Groups: []string{"payments"}},
		{Name: "reboot_instance", Description: "A second tool of the same name is not indexed."},
	}
	ix := NewSearchIndex(tools...)
	if len(ix.Tools) != 2 {
		t.Fatalf("indexed %v, want each name once", ix.Tools)
	}
	got := ix.Search("restart my VM", 5)
	if len(got) != 1 || got[0].Name != "reboot_instance" || got[0].Score <= 0 {
		t.Errorf("Search = %v, want reboot_instance alone", got)
	}
	if got := ix.Search("payments", 5); len(got) != 1 || got[0].Name != "refund_charge" {
		t.Errorf("a group's name found %v, want refund_charge", got)
	}
	if got := ix.Search("second", 5); len(got) != 0 {
		t.Errorf("the second tool of a name was indexed: %v", got)
	}
	var none *SearchIndex
	if got := none.Search("anything", 5); got != nil {
		t.Errorf("a nil index found %v", got)
	}
}
