// Package bench measures mcpgen's built-in server against the official Go
// SDK, mcp-go and a hand-written encoding/json baseline, on the same
// requests: bytes in to bytes out, in one run, and (BenchmarkStdio) with
// each server a process of its own over pipes, beside a floor that reads
// no JSON. It holds only benchmarks; see README.md for how to run them,
// the HTTP load run of bench/cmd/load, and the latest figures.
package bench
