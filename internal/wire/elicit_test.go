package wire

import (
	"fmt"
	"testing"
)

// TestElicitationBook: an id is taken once, and the oldest ids go when the
// book is full.
func TestElicitationBook(t *testing.T) {
	t.Parallel()
	var b ElicitationBook[int]
	for i := range MaxElicitations + 1 {
		b.Add(fmt.Sprint(i), i)
	}
	if _, ok := b.Take("0"); ok {
		t.Error("the oldest id is still there")
	}
	if s, ok := b.Take("1"); !ok || s != 1 {
		t.Errorf("Take(1) = %d, %v", s, ok)
	}
	if _, ok := b.Take("1"); ok {
		t.Error("an id was taken twice")
	}
	if s, ok := b.Take(fmt.Sprint(MaxElicitations)); !ok || s != MaxElicitations {
		t.Errorf("the newest id: %d, %v", s, ok)
	}
}
