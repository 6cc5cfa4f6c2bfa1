package mcpclient

import (
	"encoding/json"
	"math"
	"slices"

	"github.com/mcpgen/mcpgen/internal/jsonx"
)

// AppendJSON appends v, a value as go-sdk decodes JSON into an any
// (maps, slices, strings, float64 numbers, booleans, nil), as JSON, with
// the keys of each object sorted. go-sdk hands a structured result over
// decoded so; a type switch writes it back for the generated decoders,
// without reflection. Any other value goes through encoding/json.
func AppendJSON(dst []byte, v any) []byte { return appendJSON(dst, v, true) }

// appendJSON is AppendJSON, the keys of objects sorted when sorted is
// set: a decoder reads them in any order, and sorting costs.
func appendJSON(dst []byte, v any, sorted bool) []byte {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...)
	case bool:
		return jsonx.AppendBool(dst, v)
	case string:
		return jsonx.AppendString(dst, v)
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return append(dst, "null"...)
		}
		return jsonx.AppendFloat(dst, v, 64)
	case json.Number:
		return append(dst, v...)
	case json.RawMessage:
		return append(dst, v...)
	case []any:
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSON(dst, e, sorted)
		}
		return append(dst, ']')
	case map[string]any:
		dst = append(dst, '{')
		if !sorted {
			i := 0
			for k, e := range v {
				if i > 0 {
					dst = append(dst, ',')
				}
				i++
				dst = append(jsonx.AppendString(dst, k), ':')
				dst = appendJSON(dst, e, false)
			}
			return append(dst, '}')
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(jsonx.AppendString(dst, k), ':')
			dst = appendJSON(dst, v[k], true)
		}
		return append(dst, '}')
	}
	js, err := json.Marshal(v)
	if err != nil {
		return append(dst, "null"...)
	}
	return append(dst, js...)
}
