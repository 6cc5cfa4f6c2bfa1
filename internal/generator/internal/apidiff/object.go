package apidiff

import (
	"slices"

	"github.com/mcpgen/mcpgen/internal/generator/internal/jsonv"
)

// openness is how an object treats properties it does not name, from the
// most to the least strict: additionalProperties false, a schema (a map's
// values), or anything (true, or absent).
type openness int

const (
	closed openness = iota
	schemaValued
	open
)

func opennessOf(s jsonv.Object) openness {
	switch v := get(s, "additionalProperties").(type) {
	case bool:
		if !v {
			return closed
		}
	case jsonv.Object:
		return schemaValued
	}
	return open
}

// object compares the properties of an object schema, whether each is
// required, and the object's other properties.
func (d *differ) object(s site, path string, o, n jsonv.Object) {
	op, _ := o.Object("properties")
	np, _ := n.Object("properties")
	oreq, nreq := o.Strings("required"), n.Strings("required")
	on, nn := opennessOf(o), opennessOf(n)
	for _, p := range op {
		d.property(s, join(path, p.Key), p, np, slices.Contains(oreq, p.Key), slices.Contains(nreq, p.Key), nn)
	}
	for _, p := range np {
		if op.Has(p.Key) {
			continue
		}
		req := slices.Contains(nreq, p.Key)
		// A new optional result field is compatible, even where the old
		// object was closed: clients are expected to ignore what they do
		// not know.
		wider := on == closed && s.dir == input
		d.change(s.at(join(path, p.Key)), s.dir, req, wider, "added%s", requiredNote(req))
	}
	switch {
	case on == nn && on == schemaValued:
		ov, _ := o.Object("additionalProperties")
		nv, _ := n.Object("additionalProperties")
		d.value(s, path+".*", ov, nv)
	case nn < on:
		d.change(s.at(path), s.dir, true, false, "accepts fewer properties than it named (additionalProperties)")
	case nn > on:
		d.change(s.at(path), s.dir, false, true, "accepts more properties than it names (additionalProperties)")
	}
}

// property compares one property of the old object with the new one's.
func (d *differ) property(s site, path string, p jsonv.Member, np jsonv.Object, wasReq, isReq bool, nn openness) {
	where := s.at(path)
	nv, ok := np.Object(p.Key)
	if !ok {
		// Old values that carry it are refused by a closed object; new
		// values lack what the old schema required.
		d.change(where, s.dir, nn == closed, wasReq, "removed")
		return
	}
	switch {
	case isReq && !wasReq:
		d.change(where, s.dir, true, false, "now required")
	case wasReq && !isReq:
		d.change(where, s.dir, false, true, "no longer required")
	}
	ov, _ := p.Value.(jsonv.Object)
	d.value(s, path, ov, nv)
}

// join appends a property name to a path: "a", "a.b", "a[].b".
func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
