package toolsearch

import (
	"reflect"
	"slices"
	"testing"
)

func TestTerms(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tk   Tokenizer
		in   string
		want []string
	}{
		{Tokenizer{}, "Reboot the VM, now!", []string{"reboot", "the", "vm", "now"}},
		{Tokenizer{}, "parseConfig snake_case", []string{"parseconfig", "snake", "case"}},
		{Tokenizer{Camel: true}, "parseConfig HTTPServer getID e2-standard-4 p99", []string{"parse", "config", "http", "server", "get", "id", "e2", "standard", "4", "p99"}},
		{Tokenizer{}, "a I 7 x1", []string{"7", "x1"}},
		{Tokenizer{Stop: true}, "who is on the call", []string{"call"}},
		{Tokenizer{Stem: PluralStem}, "instances policies addresses statuses boxes bus analysis running", []string{"instance", "policy", "address", "status", "box", "bus", "analysis", "running"}},
		{Tokenizer{Stem: LightStem}, "restarting stopped shared share sharing copied deployed users quickly", []string{"restart", "stop", "shar", "shar", "shar", "copy", "deploy", "user", "quick"}},
		{Tokenizer{Stem: LightStem}, "red need used bed", []string{"red", "need", "used", "bed"}},
		{Tokenizer{Stem: LightStem}, "Größe über", []string{"größe", "über"}},
	}
	for _, tt := range tests {
		if got := tt.tk.Terms(nil, tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("%+v.Terms(%q) = %q, want %q", tt.tk, tt.in, got, tt.want)
		}
	}
}

func TestDocOf(t *testing.T) {
	t.Parallel()
	schema := `{"type":"object","properties":{"zone":{"type":"string","description":"Zone of it"},
		"state":{"anyOf":[{"type":"string","enum":["running","stopped"]},{"type":"null"}],"description":"Only in this state"},
		"tags":{"type":"array","items":{"enum":["red","blue"]}}}}`
	d := DocOf("list_instances", "List instances", "Lists them.", []byte(schema), []string{"compute", "ops"})
	want := [NumFields]string{"list_instances", "List instances", "Lists them.", "state tags zone ",
		"Only in this state running stopped red blue Zone of it ", "compute ops"}
	if d.Name != "list_instances" || d.Text != want {
		t.Errorf("DocOf = %q, want %q", d.Text, want)
	}
	if d := DocOf("x", "", "", []byte(`not json`), nil); d.Text[ParamNames] != "" {
		t.Errorf("DocOf of a bad schema has parameters %q", d.Text[ParamNames])
	}
}

var docs = []Doc{
	DocOf("reboot_instance", "Reboot instance", "Restarts a virtual machine, as its reset button would.", nil, []string{"compute"}),
	DocOf("delete_instance", "Delete instance", "Deletes a virtual machine for good.", nil, []string{"compute"}),
	DocOf("refund_charge", "Refund charge", "Gives money back for a charge.", []byte(`{"properties":{"charge_id":{"description":"Charge to refund"}}}`), []string{"payments"}),
	DocOf("list_charges", "List charges", "Lists the charges of the account.", nil, []string{"payments"}),
}

func names(ix *Index, hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, ix.Names[h.Doc])
	}
	return out
}

func TestRank(t *testing.T) {
	t.Parallel()
	ix, err := Build(docs, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tk    Tokenizer
		query string
		limit int
		want  []string
	}{
		{DefaultOptions.Tokenizer, "refund the charge", 5, []string{"refund_charge", "list_charges"}},
		{DefaultOptions.Tokenizer, "refund the charge", 1, []string{"refund_charge"}},
		{DefaultOptions.Tokenizer, "lists lists", 5, []string{"list_charges"}},
		{DefaultOptions.Tokenizer, "reboot", 5, []string{"reboot_instance"}},
		{DefaultOptions.Tokenizer, "restart", 5, []string{"reboot_instance"}},
		// "remove" finds "delete" only through its synonyms.
		{DefaultOptions.Tokenizer, "remove VM", 5, []string{"delete_instance", "reboot_instance"}},
		{Tokenizer{Camel: true, Stem: LightStem}, "remove VM", 5, nil},
		{DefaultOptions.Tokenizer, "nothing matches this", 5, nil},
		{DefaultOptions.Tokenizer, "instance", 0, nil},
	}
	for _, tt := range tests {
		got := names(ix, Rank(len(ix.Names), ix.Postings, tt.tk, tt.query, tt.limit))
		if !slices.Equal(got, tt.want) {
			t.Errorf("Rank(%q, %d) = %q, want %q", tt.query, tt.limit, got, tt.want)
		}
	}
}

// TestRankRepeats checks that a word said twice counts once.
func TestRankRepeats(t *testing.T) {
	t.Parallel()
	ix, _ := Build(docs, DefaultOptions)
	once := Rank(len(ix.Names), ix.Postings, Default, "charge money", 5)
	twice := Rank(len(ix.Names), ix.Postings, Default, "charge charges money", 5)
	if !reflect.DeepEqual(once, twice) {
		t.Errorf("a repeated word changed the ranking: %v, then %v", once, twice)
	}
}

// TestRankTies checks that equal scores rank in document order.
func TestRankTies(t *testing.T) {
	t.Parallel()
	same := []Doc{DocOf("b", "", "widget", nil, nil), DocOf("a", "", "widget", nil, nil), DocOf("c", "", "widget", nil, nil)}
	ix, _ := Build(same, DefaultOptions)
	if got := names(ix, Rank(3, ix.Postings, Default, "widget", 2)); !slices.Equal(got, []string{"b", "a"}) {
		t.Errorf("ties ranked %q, want b, a", got)
	}
}

func TestBuildDeterministic(t *testing.T) {
	t.Parallel()
	a, _ := Build(docs, DefaultOptions)
	b, _ := Build(docs, DefaultOptions)
	if !reflect.DeepEqual(a, b) {
		t.Error("two builds of the same documents differ")
	}
	if !slices.IsSortedFunc(a.Terms, func(x, y Term) int {
		if x.Text < y.Text {
			return -1
		}
		return 1
	}) {
		t.Error("terms are not sorted")
	}
}

func TestBuildTooMany(t *testing.T) {
	t.Parallel()
	if _, err := Build(make([]Doc, MaxDocs+1), DefaultOptions); err == nil {
		t.Error("an index of more than MaxDocs documents was built")
	}
}

func BenchmarkRank(b *testing.B) {
	ix, _ := Build(docs, DefaultOptions)
	b.ReportAllocs()
	for b.Loop() {
		Rank(len(ix.Names), ix.Postings, Default, "refund the customer's last charge", 5)
	}
}
