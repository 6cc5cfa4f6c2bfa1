// Package jsonx is the JSON plumbing every part of mcpgen's runtime shares:
// the one scanner of JSON text, the one writer of JSON strings and
// numbers (byte for byte what encoding/json writes), and the limits that
// bound what one message may cost to read.
//
// It imports only the standard library. The decoder behind generated code
// (package mcpimpl), the built-in server and the adapters build on it, so
// a JSON rule is written once.
package jsonx
