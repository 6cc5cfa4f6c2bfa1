package wire

import (
	"fmt"
	"reflect"
	"runtime"
)

// Duplicate is the error of a second tool, prompt, resource or template
// (kind) of one name or URI (key) added to a server. It names the Go
// function of each, first and second (a Handler, Get or Read), which
// tells where each came from.
func Duplicate(kind, key string, first, second any) error {
	a, b := FuncName(first), FuncName(second)
	if a == b {
		return fmt.Errorf("%s %q is added twice, both times with %s", kind, key, a)
	}
	return fmt.Errorf("%s %q is added twice: first with %s, then with %s", kind, key, a, b)
}

// FuncName names the function f as the runtime knows it: its package
// path and name, "example.com/shop.mcpgen_call_Add".
func FuncName(f any) string {
	v := reflect.ValueOf(f)
	if !v.IsValid() || v.Kind() != reflect.Func || v.IsNil() {
		return "no function"
	}
	if fn := runtime.FuncForPC(v.Pointer()); fn != nil {
		return fn.Name()
	}
	return "a function of no name"
}
