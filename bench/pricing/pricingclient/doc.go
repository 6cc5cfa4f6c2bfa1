// Package pricingclient calls bulk_price_update, the tool of the
// benchmarks' reference request, with the pricing package's own types:
// mcpgen -client wrote mcp_client.go from its declarations. The client
// benchmarks compare it with go-sdk's CallTool and a map.
package pricingclient
