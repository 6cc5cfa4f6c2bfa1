// Package apidiff compares what an MCP server served before with what it
// serves now, both as mcpgen -list prints them, and names each change, as
// breaking a client that was written against the old list or as
// compatible. It is what mcpgen -diff runs, for CI: a client that calls a
// tool with arguments valid under the old schema must still be accepted,
// and one that reads a tool's structured result must still understand it.
//
// Breaking: a tool, prompt, resource or template removed or renamed; an
// argument removed (arguments are closed: additionalProperties is false),
// newly required, of a changed type, or more constrained (an enum value
// removed, a bound tightened, a pattern or format added or changed); a
// result field removed, no longer always present, or less constrained; a
// tool that becomes destructive, stops being read-only or idempotent,
// or reaches an open world; a tool that must now run as a task, or can no
// longer run as one; a prompt argument removed or newly required; a
// resource's MIME type changed. Compatible: everything added that nobody
// has to send, constraints relaxed on arguments, and task support that
// becomes optional.
package apidiff

import (
	"fmt"

	"github.com/mcpgen/mcpgen/internal/generator/internal/jsonv"
)

// Change is one difference between the old and the new list.
type Change struct {
	Breaking bool
	Where    string // "tool search_articles", "tool search_articles: argument limit"
	What     string // "maximum lowered from 20 to 10"
}

// String writes the change as -diff prints it.
func (c Change) String() string {
	kind := "compatible"
	if c.Breaking {
		kind = "breaking"
	}
	return kind + ": " + c.Where + ": " + c.What
}

// Breaking reports whether any change breaks clients.
func Breaking(changes []Change) bool {
	for _, c := range changes {
		if c.Breaking {
			return true
		}
	}
	return false
}

// Compare returns the changes from old to new, both -list outputs: tools,
// then prompts, resources and resource templates, each in the old list's
// order, then what was added in the new one's.
func Compare(old, new []byte) ([]Change, error) {
	o, err := parseList(old)
	if err != nil {
		return nil, fmt.Errorf("the old list: %w", err)
	}
	n, err := parseList(new)
	if err != nil {
		return nil, fmt.Errorf("the new list: %w", err)
	}
	var d differ
	d.entries(kinds[0], o.Array("tools"), n.Array("tools"), d.tool)
	d.entries(kinds[1], o.Array("prompts"), n.Array("prompts"), d.prompt)
	d.entries(kinds[2], o.Array("resources"), n.Array("resources"), d.resource)
	d.entries(kinds[3], o.Array("resourceTemplates"), n.Array("resourceTemplates"), d.resource)
	return d.changes, nil
}

func parseList(data []byte) (jsonv.Object, error) {
	v, err := jsonv.Parse(data)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(jsonv.Object)
	if !ok || !obj.Has("tools") {
		return nil, fmt.Errorf("not the output of mcpgen -list: want an object with \"tools\"")
	}
	return obj, nil
}

// kind says how the entries of one list are named and matched: by key (a
// tool's name, a resource's URI), and, to tell a rename from a removal, by
// what stays when an entry is renamed.
type kind struct {
	noun string
	key  func(jsonv.Object) string
	same func(old, new jsonv.Object) bool // new is old under another key
}

var kinds = [4]kind{
	{"tool", field("name"), sameExcept("name", "title", "description")},
	{"prompt", field("name"), sameExcept("name", "title", "description")},
	{"resource", field("uri"), func(o, n jsonv.Object) bool { return o.String("name") == n.String("name") }},
	{"resource template", field("uriTemplate"), func(o, n jsonv.Object) bool { return o.String("name") == n.String("name") }},
}

func field(key string) func(jsonv.Object) string {
	return func(o jsonv.Object) string { return o.String(key) }
}

// sameExcept reports whether two entries are equal but for the keys named.
func sameExcept(keys ...string) func(o, n jsonv.Object) bool {
	strip := func(obj jsonv.Object) string {
		c := append(jsonv.Object(nil), obj...)
		for _, k := range keys {
			c.Delete(k)
		}
		return string(jsonv.Marshal(c))
	}
	return func(o, n jsonv.Object) bool { return strip(o) == strip(n) }
}

// differ collects the changes.
type differ struct{ changes []Change }

func (d *differ) add(breaking bool, where, format string, args ...any) {
	d.changes = append(d.changes, Change{Breaking: breaking, Where: where, What: fmt.Sprintf(format, args...)})
}

// entries matches the old entries of one list with the new by key and
// compares each pair with compare; an old entry without a match is
// removed, or renamed when an unmatched new one is the same under another
// key; an unmatched new one is added.
func (d *differ) entries(k kind, olds, news []any, compare func(where string, o, n jsonv.Object)) {
	oldObjs, newObjs := objects(olds), objects(news)
	oldKeys, byKey := map[string]bool{}, map[string]jsonv.Object{}
	for _, o := range oldObjs {
		oldKeys[k.key(o)] = true
	}
	for _, n := range newObjs {
		byKey[k.key(n)] = n
	}
	taken := map[string]bool{} // new keys matched to an old entry
	for _, o := range oldObjs {
		key := k.key(o)
		if n, ok := byKey[key]; ok {
			taken[key] = true
			compare(k.noun+" "+key, o, n)
			continue
		}
		if n := renamed(k, o, newObjs, oldKeys, taken); n != nil {
			taken[k.key(n)] = true
			d.add(true, k.noun+" "+key, "renamed to %s", k.key(n))
			compare(k.noun+" "+k.key(n), o, n)
			continue
		}
		d.add(true, k.noun+" "+key, "removed")
	}
	for _, n := range newObjs {
		if key := k.key(n); !taken[key] {
			d.add(false, k.noun+" "+key, "added")
		}
	}
}

// renamed returns the new entry that is o under a key the old list does
// not have, and that no other old entry took; nil when there is none.
func renamed(k kind, o jsonv.Object, news []jsonv.Object, oldKeys, taken map[string]bool) jsonv.Object {
	for _, n := range news {
		if key := k.key(n); !oldKeys[key] && !taken[key] && k.same(o, n) {
			return n
		}
	}
	return nil
}

func objects(items []any) []jsonv.Object {
	var out []jsonv.Object
	for _, it := range items {
		if o, ok := it.(jsonv.Object); ok {
			out = append(out, o)
		}
	}
	return out
}
