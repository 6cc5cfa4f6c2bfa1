package apidiff

import (
	"github.com/mcpgen/mcpgen/internal/generator/internal/jsonv"
)

// tool compares one tool: its arguments, its structured result, its hints
// and how it runs as a task. Its title and description are for people and
// models; a change there is compatible and said once.
func (d *differ) tool(where string, o, n jsonv.Object) {
	d.text(where, o, n)
	oi, _ := o.Object("inputSchema")
	ni, _ := n.Object("inputSchema")
	d.schema(where, "arguments", oi, ni, input)
	oo, hadOut := o.Object("outputSchema")
	no, hasOut := n.Object("outputSchema")
	switch {
	case hadOut && hasOut:
		d.schema(where, "result", oo, no, output)
	case hadOut:
		d.add(true, where, "structured result removed")
	case hasOut:
		d.add(false, where, "structured result added")
	}
	d.hints(where, o, n)
	d.tasks(where, o, n)
}

// text notes a change of title or description.
func (d *differ) text(where string, o, n jsonv.Object) {
	for _, key := range []string{"title", "description"} {
		if o.String(key) != n.String(key) {
			d.add(false, where, "%s changed", key)
		}
	}
}

// hint is one behaviour hint with the value the specification gives it
// when a tool does not publish it.
type hint struct {
	key          string
	absent       bool
	safe         bool   // the value a client may rely on more
	lost, gained string // what a change away from and back to safe says
}

// The hints' defaults, from the specification's ToolAnnotations:
// readOnlyHint false, destructiveHint true, idempotentHint false,
// openWorldHint true.
var hintTable = []hint{
	{"readOnlyHint", false, true, "no longer read-only", "now read-only"},
	{"destructiveHint", true, false, "now destructive", "no longer destructive"},
	{"idempotentHint", false, true, "no longer idempotent", "now idempotent"},
	{"openWorldHint", true, false, "now reaches an open world", "now in a closed world"},
}

// hints compares the behaviour hints as a client reads them, defaults
// applied: a tool that becomes less safe to call unattended breaks clients
// that call it unattended. destructiveHint means nothing for a read-only
// tool, so it is compared only when the tool is not read-only now.
func (d *differ) hints(where string, o, n jsonv.Object) {
	oa, _ := o.Object("annotations")
	na, _ := n.Object("annotations")
	readOnly := effective(na, hintTable[0])
	for _, h := range hintTable {
		if h.key == "destructiveHint" && readOnly {
			continue
		}
		was, is := effective(oa, h), effective(na, h)
		if h.key == "destructiveHint" && effective(oa, hintTable[0]) {
			was = false // a read-only tool destroys nothing, whatever it said
		}
		switch {
		case was == is:
		case was == h.safe:
			d.add(true, where, "%s", h.lost)
		default:
			d.add(false, where, "%s", h.gained)
		}
	}
}

func effective(ann jsonv.Object, h hint) bool {
	if v, ok := ann.Get(h.key); ok {
		b, _ := v.(bool)
		return b
	}
	return h.absent
}

// tasks compares execution.taskSupport: a tool that must now run as a
// task, or may no longer run as one, breaks the clients that called it the
// other way.
func (d *differ) tasks(where string, o, n jsonv.Object) {
	was, is := taskSupport(o), taskSupport(n)
	switch {
	case was == is:
	case is == "required":
		d.add(true, where, "must now run as a task (taskSupport %s, was %s)", is, was)
	case is == "forbidden":
		d.add(true, where, "can no longer run as a task (taskSupport %s, was %s)", is, was)
	default:
		d.add(false, where, "taskSupport %s, was %s", is, was)
	}
}

func taskSupport(t jsonv.Object) string {
	exec, _ := t.Object("execution")
	if s := exec.String("taskSupport"); s != "" {
		return s
	}
	return "forbidden"
}

// prompt compares one prompt's arguments, which are strings: one removed
// is refused when a client still sends it, one newly required is missing
// from every old call.
func (d *differ) prompt(where string, o, n jsonv.Object) {
	d.text(where, o, n)
	olds, news := arguments(o), arguments(n)
	for _, name := range order(o) {
		req, ok := news[name]
		switch {
		case !ok:
			d.add(true, where+": argument "+name, "removed")
		case req && !olds[name]:
			d.add(true, where+": argument "+name, "now required")
		case !req && olds[name]:
			d.add(false, where+": argument "+name, "no longer required")
		}
	}
	for _, name := range order(n) {
		if _, ok := olds[name]; !ok {
			d.add(news[name], where+": argument "+name, "added%s", requiredNote(news[name]))
		}
	}
}

func requiredNote(required bool) string {
	if required {
		return ", required"
	}
	return ""
}

// arguments maps a prompt's argument names to whether each is required.
func arguments(p jsonv.Object) map[string]bool {
	args := map[string]bool{}
	for _, a := range objects(p.Array("arguments")) {
		req, _ := a.Get("required")
		args[a.String("name")] = req == true
	}
	return args
}

// order lists a prompt's argument names in order.
func order(p jsonv.Object) []string {
	var names []string
	for _, a := range objects(p.Array("arguments")) {
		names = append(names, a.String("name"))
	}
	return names
}

// resource compares one resource or template, matched by its URI: a
// client parses its contents by MIME type. Its name is a label; a new one
// is compatible.
func (d *differ) resource(where string, o, n jsonv.Object) {
	d.text(where, o, n)
	if o.String("name") != n.String("name") {
		d.add(false, where, "name changed from %s to %s", o.String("name"), n.String("name"))
	}
	if om, nm := o.String("mimeType"), n.String("mimeType"); om != nm {
		d.add(true, where, "MIME type changed from %q to %q", om, nm)
	}
}
