// Package mcpstore holds the contracts of the stores the built-in MCP
// server keeps its state in, their errors, and the stores that keep it
// in memory, the server's defaults.
//
// Its readers are store authors. A server author sets stores on an
// mcpserver.Server (its Tasks, Sessions, Events and Bus fields) and need
// read no more here than the memory stores' limits ([TaskLimits]). A backend such as
// runtime/mcpredis implements these contracts without importing the
// server, as a database/sql driver implements database/sql/driver.
//
// The contracts:
//
//   - [TaskStore] keeps the tasks of tool calls run as tasks;
//     [SharedTaskStore] adds what replicas sharing tasks need: leases,
//     the reaping of tasks whose replica died, and answers waiting for
//     the handler.
//   - [SessionStore] shares the 2025 HTTP sessions between replicas.
//   - [EventLog] keeps the SSE events a client resumes a dropped stream
//     from, and the holds that end a stream whose writer died.
//   - [Bus] carries what one replica tells the others.
//   - [ReplayCache] remembers the DPoP proofs taken, so that none is
//     taken twice.
//
// The package [github.com/mcpgen/mcpgen/runtime/mcpstore/storetest]
// checks a store against its contract, one subtest per clause: a store
// author runs it rather than reading the prose alone.
//
// The memory stores ([MemoryTaskStore], [MemorySessionStore],
// [MemoryEventLog], [MemoryBus]) serve the servers of one process. They
// are also shared stores: several mcpserver.Server values in one process
// may share them, as replicas share a backend.
package mcpstore
