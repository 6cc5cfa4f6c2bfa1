package mcprt

import (
	"encoding/json"
	"strconv"
)

// AppendString appends s as a JSON string, exactly as encoding/json writes it.
func AppendString(dst []byte, s string) []byte {
	js, _ := json.Marshal(s) // a string always marshals
	return append(dst, js...)
}

// AppendBool appends b as a JSON boolean.
func AppendBool(dst []byte, b bool) []byte { return strconv.AppendBool(dst, b) }
