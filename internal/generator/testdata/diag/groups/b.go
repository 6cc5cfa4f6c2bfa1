// A second file's package doc declares a group already declared.
//
//mcp:group billing
package groups
