package wire

import "bytes"

// Descriptors holds one descriptor (of a tool, a prompt, a resource or a
// template) serialized for each revision, once, when it is added: listing
// then copies bytes and builds nothing. It is indexed by [Revision.Index].
// Revisions that publish the same bytes share them.
type Descriptors [NumRevisions][]byte

// NewDescriptors serializes v's descriptor for every revision with
// appendDesc ([AppendTool], [AppendPrompt], ...) into one buffer. The
// buffer is made size bytes at first, a guess that saves regrowth; 0 lets
// it grow.
func NewDescriptors[T any](v *T, appendDesc func([]byte, *T, Revision) []byte, size int) Descriptors {
	var d Descriptors
	buf := make([]byte, 0, size)
	for i, rev := range Revisions {
		start := len(buf)
		buf = appendDesc(buf, v, rev)
		b := buf[start:len(buf):len(buf)]
		for _, prev := range d[:i] {
			if bytes.Equal(prev, b) {
				b, buf = prev, buf[:start]
				break
			}
		}
		d[i] = b
	}
	return d
}

// For returns the descriptor as revision rev publishes it; the latest
// revision's for one that is not supported. The bytes must not be
// modified.
func (d *Descriptors) For(rev Revision) []byte { return d[rev.Index()] }
