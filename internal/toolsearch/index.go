package toolsearch

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Field is a part of a tool the index weighs on its own.
type Field int

// The fields of a tool's document.
const (
	Name        Field = iota // the tool's name, split at _ . - and case changes
	Title                    // its title
	Description              // its description
	ParamNames               // the names of its input's properties
	ParamText                // their descriptions and enum values
	Group                    // the groups it belongs to
	NumFields
)

// Doc is one tool as the index sees it: the text of each field.
type Doc struct {
	Name string // the tool's name, as results give it
	Text [NumFields]string
}

// DocOf returns the document of a tool from its descriptor. The
// properties are those at the top of inputSchema; a schema that is not
// JSON contributes nothing.
func DocOf(name, title, description string, inputSchema []byte, groups []string) Doc {
	d := Doc{Name: name}
	d.Text[Name] = name
	d.Text[Title] = title
	d.Text[Description] = description
	d.Text[Group] = strings.Join(groups, " ")
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(inputSchema, &s) != nil {
		return d
	}
	keys := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var names, text strings.Builder
	for _, k := range keys {
		var p any
		if json.Unmarshal(s.Properties[k], &p) != nil {
			continue
		}
		names.WriteString(k + " ")
		if m, ok := p.(map[string]any); ok {
			if desc, ok := m["description"].(string); ok {
				text.WriteString(desc + " ")
			}
		}
		enumWords(&text, p, 0)
	}
	d.Text[ParamNames] = names.String()
	d.Text[ParamText] = text.String()
	return d
}

// enumWords writes the string values of the enums of schema s: its own,
// those of its anyOf and oneOf branches (an optional property's enum is
// in a branch beside null) and of its items, to a small depth.
func enumWords(b *strings.Builder, s any, depth int) {
	m, ok := s.(map[string]any)
	if !ok || depth > 3 {
		return
	}
	if vs, ok := m["enum"].([]any); ok {
		for _, v := range vs {
			if str, ok := v.(string); ok {
				b.WriteString(str + " ")
			}
		}
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		if bs, ok := m[key].([]any); ok {
			for _, br := range bs {
				enumWords(b, br, depth+1)
			}
		}
	}
	enumWords(b, m["items"], depth+1)
}

// Options are the parameters of an index: how text becomes terms, how
// much a term weighs in each field, and BM25's k1 (how soon more
// occurrences stop adding) and b (how much a long document is
// discounted).
type Options struct {
	Tokenizer Tokenizer
	Weights   [NumFields]float64
	K1, B     float64
}

// DefaultOptions are those of the generated indexes. A word of the name
// or title weighs most, being what the tool is; the description tells
// what it does; parameters say what it acts on; the group only narrows
// the area. TestSearchTuning in bench/catalog measures each choice.
var DefaultOptions = Options{
	Tokenizer: Default,
	Weights:   [NumFields]float64{Name: 2, Title: 1, Description: 1, ParamNames: 0.3, ParamText: 0.5, Group: 0.5},
	K1:        1.2,
	B:         0.75,
}

// Index is a built index: the tools' names by document number, and each
// term with the documents holding it and its BM25 score in each.
type Index struct {
	Names []string
	Terms []Term // sorted by Text
}

// Term is one term of an index and its postings, in document order.
type Term struct {
	Text   string
	Docs   []uint16
	Scores []float32
}

// MaxDocs is how many tools one index may hold.
const MaxDocs = math.MaxUint16 + 1

// Build builds the index of docs with o. Each term's score in a
// document is BM25 of the term's weighted frequency there: the sum over
// fields of the field's weight times the term's count in it, and the
// document's length weighted alike (BM25F with one length).
func Build(docs []Doc, o Options) (*Index, error) {
	if len(docs) > MaxDocs {
		return nil, fmt.Errorf("%d tools: an index holds at most %d", len(docs), MaxDocs)
	}
	freqs := make([]map[string]float64, len(docs))
	lengths := make([]float64, len(docs))
	var total float64
	var buf []string
	for i, d := range docs {
		f := map[string]float64{}
		for fi, text := range d.Text {
			w := o.Weights[fi]
			if w == 0 {
				continue
			}
			buf = o.Tokenizer.Terms(buf[:0], text)
			for _, t := range buf {
				f[t] += w
			}
			lengths[i] += w * float64(len(buf))
		}
		freqs[i] = f
		total += lengths[i]
	}
	avg := 1.0
	if len(docs) > 0 && total > 0 {
		avg = total / float64(len(docs))
	}
	byTerm := map[string]*Term{}
	for i, f := range freqs {
		for t := range f {
			tm := byTerm[t]
			if tm == nil {
				tm = &Term{Text: t}
				byTerm[t] = tm
			}
			tm.Docs = append(tm.Docs, uint16(i))
		}
	}
	ix := &Index{Names: make([]string, len(docs))}
	for i, d := range docs {
		ix.Names[i] = d.Name
	}
	n := float64(len(docs))
	for _, tm := range byTerm {
		slices.Sort(tm.Docs)
		df := float64(len(tm.Docs))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		tm.Scores = make([]float32, len(tm.Docs))
		for j, doc := range tm.Docs {
			tf := freqs[doc][tm.Text]
			norm := o.K1 * (1 - o.B + o.B*lengths[doc]/avg)
			tm.Scores[j] = float32(idf * tf * (o.K1 + 1) / (tf + norm))
		}
		ix.Terms = append(ix.Terms, *tm)
	}
	slices.SortFunc(ix.Terms, func(a, b Term) int { return strings.Compare(a.Text, b.Text) })
	return ix, nil
}

// Postings returns the postings of term, or nil.
func (ix *Index) Postings(term string) (docs []uint16, scores []float32) {
	i, ok := slices.BinarySearchFunc(ix.Terms, term, func(t Term, s string) int { return strings.Compare(t.Text, s) })
	if !ok {
		return nil, nil
	}
	return ix.Terms[i].Docs, ix.Terms[i].Scores
}
