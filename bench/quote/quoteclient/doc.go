// Package quoteclient calls price_quote with the quote package's own
// types: mcpgen -client wrote mcp_client.go from its declarations.
package quoteclient
