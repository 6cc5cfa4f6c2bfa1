// Package bench measures mcpgen's built-in server against the official Go
// SDK, mcp-go and a hand-written encoding/json baseline, on the same
// requests, bytes in to bytes out, in one run. It holds only benchmarks;
// see README.md for how to run them and the latest figures.
package bench
