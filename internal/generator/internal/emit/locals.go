package emit

import (
	"strconv"
	"strings"
)

// locals are the names generated functions give their parameters and
// variables. Those functions refer to the user's package-level types and
// functions, so a local must not take a name the user's package declares:
// each local keeps its usual name (d, v, in, x0, ...) unless the package
// declares that name, or for a numbered local (x0, x1, ...) any name of its
// family, and then gets underscores appended until it is free. The choice
// depends on the package's names alone, so output stays deterministic, and
// a package that declares none of them gets the usual names.
type locals struct {
	ctx, args string // a handler's parameters
	recv      string // the receiver of a tool list method
	dec, val  string // a decode function's Decoder and target, an encode function's value
	in, out   string // a handler's decoded arguments and its function's result
	err, enc  string // a handler's error and result Encoder; enc is an encoder's parameter too
	// The parameters of a resource's read function and of a completer, and
	// whether a template matched.
	uri, argument, value, ok string
	// A generated client's receiver and the result it read.
	client, res string
	// Prefixes of the numbered locals, one of each per nesting depth.
	enumVal, seen, count, key, elem, index, mapVal, sep, at string
}

// newLocals chooses the locals of a file for a package whose package-level
// names are scope.
func newLocals(scope map[string]bool) *locals {
	one := func(name string) string {
		for scope[name] {
			name += "_"
		}
		return name
	}
	family := func(prefix string) string {
		for familyTaken(scope, prefix) {
			prefix += "_"
		}
		return prefix
	}
	return &locals{
		ctx: one("ctx"), args: one("args"), recv: one("r"), dec: one("d"), val: one("v"),
		in: one("in"), out: one("out"), err: one("err"), enc: one("enc"),
		uri: one("uri"), argument: one("argument"), value: one("value"), ok: one("ok"),
		client: one("c"), res: one("res"),
		enumVal: family("x"), seen: family("seen"), count: family("n"), key: family("k"),
		elem: family("e"), index: family("i"), mapVal: family("v"), sep: family("sep"), at: family("at"),
	}
}

// familyTaken reports whether scope holds prefix followed by digits.
func familyTaken(scope map[string]bool, prefix string) bool {
	for name := range scope {
		rest, ok := strings.CutPrefix(name, prefix)
		if ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
			return true
		}
	}
	return false
}

// local is the local of a family at a nesting depth: x0, seen1, ...
func local(prefix string, depth int) string { return prefix + strconv.Itoa(depth) }
