// Package mcptest tests MCP tools, prompts and resources in process. It
// runs the built-in server of package mcpserver, the one a program serves
// over stdio or HTTP, and gives the test a client that speaks the
// protocol to it, so a test sees what a real client sees: the published
// descriptors, the checked arguments, the results and the notifications.
//
//	func TestReadFile(t *testing.T) {
//		c := mcptest.New(t, mcptest.Tools(MCPTools()...))
//		r := c.CallTool("read_file", map[string]any{"path": "a"})
//		if r.IsError || r.Text() != "hello" {
//			t.Errorf("read_file = %q (isError %v)", r.Text(), r.IsError)
//		}
//	}
//
// A failed protocol step (an unknown tool, a resource not found, a prompt
// refusing its arguments) fails the test with the JSON-RPC error the
// server sent; a tool's own failure is a [Result] with IsError set, which
// the test reads like any other. [Client.Request] sends any method and
// returns the error instead, for tests of the failures themselves.
//
// # Revisions
//
// The client speaks protocol revision 2025-11-25 unless [Revision] names
// another. It is the newest revision with sessions, the one most clients
// speak, and on it a handler runs once per call, so a test reads as the
// code it tests. On 2026-07-28 the client does what a client of that
// revision does: every request carries its _meta, and a handler's
// question ends its run with an input-required result that the client
// answers by calling the test's handler and retrying, which runs the
// handler again from the start. A handler that asks questions is best
// tested on both; [Revisions] lists every revision for a table test.
//
// # What tools ask
//
// [Client.OnElicit], [Client.OnSample] and [Client.OnRoots] answer what a
// handler asks with [mcprt.Elicit], [mcprt.Sample] and [mcprt.ListRoots];
// setting one declares the matching client capability. The capabilities
// are fixed by the first request (a session's initialize), so set them
// before it: a test that sets a new one later fails. Without [Identity]
// the server enables every optional feature but tasks, so whatever a
// handler does reaches the client; pass the identity of your own server
// to test what its clients see.
//
// # Notifications
//
// Progress and log messages (the client asks for every level) arrive
// while a call runs and are there when it returns; list changes and
// resource updates ([Client.Subscribe]) arrive as the server sends them.
// [Client.Notifications] returns what came so far and [Client.Await]
// waits for the next of one method.
//
// See package mcprt for what handlers can ask of their client, and
// package mcpserver for the server being tested.
package mcptest
