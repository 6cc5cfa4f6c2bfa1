package sidetable

import (
	"runtime"
	"testing"
)

type object struct{ name string }

// TestLoadOrStore checks that the first value stored beside an object is
// the one kept and loaded, and that objects do not share values.
func TestLoadOrStore(t *testing.T) {
	var tab Table[object, string]
	a, b := &object{"a"}, &object{"b"}
	if _, ok := tab.Load(a); ok {
		t.Fatal("Load found a value in an empty table")
	}
	if v, loaded := tab.LoadOrStore(a, "first"); v != "first" || loaded {
		t.Errorf("LoadOrStore(a, first) = %q, %v; want first, false", v, loaded)
	}
	if v, loaded := tab.LoadOrStore(a, "second"); v != "first" || !loaded {
		t.Errorf("LoadOrStore(a, second) = %q, %v; want first, true", v, loaded)
	}
	if v, ok := tab.Load(b); ok {
		t.Errorf("Load(b) = %q, true; b has no value", v)
	}
	if v, ok := tab.Load(a); v != "first" || !ok {
		t.Errorf("Load(a) = %q, %v; want first, true", v, ok)
	}
	runtime.KeepAlive(a)
	runtime.KeepAlive(b)
}

// TestCollected checks that the entry of an object goes once the object is
// collected. Cleanups run on their own goroutine after a collection, so
// the test collects until the entry is gone, a bounded number of times.
func TestCollected(t *testing.T) {
	var tab Table[object, int]
	kept := &object{"kept"}
	tab.LoadOrStore(kept, 1)
	tab.LoadOrStore(&object{"dropped"}, 2)
	for i := 0; i < 100 && tab.Len() > 1; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	if n := tab.Len(); n != 1 {
		t.Fatalf("%d entries after the dropped object was collected, want 1", n)
	}
	if v, ok := tab.Load(kept); v != 1 || !ok {
		t.Errorf("Load(kept) = %d, %v; want 1, true", v, ok)
	}
	runtime.KeepAlive(kept)
}
