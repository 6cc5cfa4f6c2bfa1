// Package sidetable keeps a value beside an object of another package that
// has no place for one, such as an SDK's server. The adapters keep their
// registry of each server this way.
//
// The table holds its keys weakly: an object its user drops is collected,
// and its entry goes with it.
package sidetable

import (
	"runtime"
	"sync"
	"weak"
)

// Table maps objects of type K to values of type V. Its zero value is
// empty and ready to use; it is safe for concurrent use.
type Table[K, V any] struct {
	m sync.Map // weak.Pointer[K] -> V
}

// Load returns k's value and whether it has one.
func (t *Table[K, V]) Load(k *K) (V, bool) {
	v, ok := t.m.Load(weak.Make(k))
	if !ok {
		var zero V
		return zero, false
	}
	return v.(V), true
}

// LoadOrStore stores v as k's value unless k has one, and returns the value
// kept and whether it was there before. The entry is deleted once k is
// collected.
func (t *Table[K, V]) LoadOrStore(k *K, v V) (V, bool) {
	w := weak.Make(k)
	kept, loaded := t.m.LoadOrStore(w, v)
	if !loaded {
		runtime.AddCleanup(k, func(w weak.Pointer[K]) { t.m.Delete(w) }, w)
	}
	return kept.(V), loaded
}

// Len returns the number of entries, those of collected objects whose
// cleanup has not run yet included.
func (t *Table[K, V]) Len() int {
	n := 0
	t.m.Range(func(any, any) bool { n++; return true })
	return n
}
