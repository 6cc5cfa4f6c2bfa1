package storetest_test

import (
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcpstore"
	"github.com/mcpgen/mcpgen/runtime/mcpstore/storetest"
)

// A store author runs the suite from a test of the store's package,
// here on the memory store. A store on a server would also implement
// storetest.Clock, so that the suite moves its time, and
// storetest.Replicator, so that the clauses about replicas use a second
// connection.
func ExampleTaskStore() {
	var t *testing.T // the *testing.T of TestTaskStore(t *testing.T)
	storetest.TaskStore(t, func(t *testing.T) mcpstore.SharedTaskStore {
		return &mcpstore.MemoryTaskStore{TaskLimits: mcpstore.TaskLimits{MaxPerOwner: 8, MaxKept: 12}}
	})
}
