package mcpstore_test

import (
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcpstore"
	"github.com/mcpgen/mcpgen/runtime/mcpstore/storetest"
)

// The memory stores keep their contracts. They read time.Now, so the
// suite runs them in a synctest bubble; one store is shared by the
// servers of a process, so it is its own replica.

func TestMemoryTaskStoreContract(t *testing.T) {
	t.Parallel()
	storetest.TaskStore(t, func(t *testing.T) mcpstore.SharedTaskStore {
		return &mcpstore.MemoryTaskStore{TaskLimits: mcpstore.TaskLimits{MaxPerOwner: 8, MaxKept: 12}}
	})
}

func TestMemorySessionStoreContract(t *testing.T) {
	t.Parallel()
	storetest.SessionStore(t, func(t *testing.T) mcpstore.SessionStore { return &mcpstore.MemorySessionStore{} })
}

func TestMemoryEventLogContract(t *testing.T) {
	t.Parallel()
	storetest.EventLog(t, func(t *testing.T) mcpstore.EventLog { return &mcpstore.MemoryEventLog{} })
}

func TestMemoryBusContract(t *testing.T) {
	t.Parallel()
	storetest.Bus(t, func(t *testing.T) mcpstore.Bus { return &mcpstore.MemoryBus{} })
}
