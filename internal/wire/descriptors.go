package wire

import "bytes"

// Descriptors holds one descriptor (of a tool, a prompt, a resource or a
// template) serialized for each revision of [Revisions], once, when it is
// added: listing then copies bytes and builds nothing. Revisions that
// publish the same bytes share them.
type Descriptors struct {
	desc [][]byte // in the order of Revisions
}

// NewDescriptors serializes v's descriptor for every revision with
// appendDesc ([AppendTool], [AppendPrompt], ...) into one buffer.
func NewDescriptors[T any](v *T, appendDesc func([]byte, *T, Revision) []byte) *Descriptors {
	d := &Descriptors{desc: make([][]byte, len(Revisions))}
	var buf []byte
	for i, rev := range Revisions {
		start := len(buf)
		buf = appendDesc(buf, v, rev)
		b := buf[start:len(buf):len(buf)]
		for _, prev := range d.desc[:i] {
			if bytes.Equal(prev, b) {
				b, buf = prev, buf[:start]
				break
			}
		}
		d.desc[i] = b
	}
	return d
}

// For returns the descriptor as revision rev publishes it; the latest
// revision's for one that is not supported. The bytes must not be
// modified.
func (d *Descriptors) For(rev Revision) []byte {
	for i, r := range Revisions {
		if r == rev {
			return d.desc[i]
		}
	}
	return d.desc[0]
}
