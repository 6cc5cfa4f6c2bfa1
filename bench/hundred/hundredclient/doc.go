// Package hundredclient calls the 100 synthetic tools of package hundred:
// mcpgen -client wrote mcp_client.go from their declarations, as a
// measure of what a client of a large catalog costs to generate and
// build.
package hundredclient
