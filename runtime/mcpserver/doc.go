// Package mcpserver is mcpgen's built-in MCP server. It serves the tools,
// prompts, resources and resource templates of package mcprt over stdio
// ([Server.ServeStdio], [Server.ServeStream]) and Streamable HTTP
// ([Server.HTTPHandler]). It speaks every protocol revision: the
// initialize-based 2024-11-05, 2025-03-26, 2025-06-18 and 2025-11-25, and
// the stateless 2026-07-28 beside them. The stores it keeps tasks,
// sessions and events in are package mcpstore's.
//
// The server publishes, per negotiated revision, only what that revision
// has. Descriptors of tools, prompts, resources and resource templates
// are serialized once per revision when they are added; list pages are
// copied from those bytes. Every request runs in its own goroutine and the
// call path takes no global lock.
//
// Handlers reach their client through their context with the functions of
// package mcprt: [mcprt.Progress], [mcprt.Log], [mcprt.Elicit],
// [mcprt.ElicitForm], [mcprt.Sample] and [mcprt.ListRoots]. On the session
// revisions a question is a request to the client; on 2026-07-28 it is an
// input-required result, whose request state is sealed with
// [Server.StateKey], and the client's retry runs the handler again.
//
// Tools annotated task=optional or task=required run as tasks where
// Identity.EnableTasks is set: on 2025-11-25 when the client asks, through
// the io.modelcontextprotocol/tasks extension on 2026-07-28 when a call
// outlives [Server.TaskGrace]. Tasks are kept by a [mcpstore.TaskStore].
//
// # Seeing what the server does
//
// [Server.Use] adds [Interceptor] functions around every request and
// notification, after the transport and before dispatch, on every
// transport and revision; [Server.OnSessionEnd] tells when a session
// ends. They are shaped like gRPC's unary interceptors, which Go
// developers know: one function that calls next, rather than a pair of
// before and after hooks, so that timing, refusing, changing the context
// and recovering are all plain Go around one call. A server with none
// does no work for them. [RequestLog] is one, writing a line per request
// to a log/slog logger; package mcpotel builds traces and metrics on them.
//
// # Choices the specification leaves open
//
//   - Log messages are sent only after the client set a level (legacy
//     revisions: logging/setLevel; 2026-07-28: the logLevel in the request's
//     _meta), and only when Identity.EnableLogging is set.
//   - Over HTTP a request is answered with application/json, unless its
//     handler sends a notification or a request to the client while it runs:
//     then the answer switches to an SSE stream that carries those messages
//     and finally the response.
//   - A request cancelled by notifications/cancelled gets no response.
//   - 2026-07-28 requests are served statelessly. A question a handler asks
//     there without an answer ends its run with [mcprt.ErrInputRequired];
//     all the questions of the run go out in one input-required result.
//     A run that fails for a capability the client did not declare is
//     MissingRequiredClientCapability (-32021).
//   - Over HTTP a 2026-07-28 request refused for its _meta or headers is
//     answered with status 400; a method the revision lacks with 404; a
//     missing capability with 400; every other answer, errors of unknown
//     tools and resources included, with 200.
//   - A 2025-11-25 task's handler asks the client with requests tagged with
//     the task, sent on the stream of a waiting tasks/result, else on the
//     session's stream; its tool error makes the task failed. A
//     2026-07-28 task's tool error completes it with an isError result;
//     a panic fails it with an internal error. Progress sets the task's
//     status message while it runs; at its end a completed task has none
//     and a failed one says how it failed.
//   - subscriptions/listen (2026-07-28) honors what the capabilities
//     publish, which is the same on every revision: toolsListChanged with
//     Identity.EnableToolNotifications, promptsListChanged with
//     EnablePromptNotifications, resourcesListChanged with
//     EnableResourceNotifications, and resourceSubscriptions, of any
//     URIs, with EnableResourceSubscriptions while the resources
//     capability is published. The acknowledgement leaves out the rest.
//   - A change waiting to go out on a listen is not queued again, so a
//     client that does not read holds at most one pending notification per
//     kind and URI, and never holds up the code making the change.
//   - A listen the client ends (it closes the HTTP response, or sends
//     notifications/cancelled on stdio) gets no answer. One the server
//     ends ([Server.CloseStreams], the end of a stdio connection or of a
//     [Conn]) is answered with a complete result carrying its subscription
//     id; that answer is also the end on stdio, where the server sends no
//     notifications/cancelled.
//   - The prompts capability is published when the server has prompts or
//     Identity.EnablePromptNotifications is set, the resources capability
//     when it has resources or templates or
//     Identity.EnableResourceNotifications is set; their methods are
//     unknown (-32601) otherwise.
//   - A read of a URI a static resource has is answered by that resource
//     alone; otherwise the templates are asked in the order they were
//     added, and the first whose Read does not return mcprt.ErrNotFound
//     answers. On 2026-07-28 reads and lists carry the caching hints of
//     [Server.ReadCache] and [Server.ListCache].
//   - The server hands prompt arguments to Prompt.Get as the client sent
//     them: checking them (required, unknown, parsing) is Get's job, as
//     generated code does it; its *mcpimpl.ArgumentError is answered -32602.
//   - resources/subscribe accepts any URI, served yet or not.
package mcpserver
