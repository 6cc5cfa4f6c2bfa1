package toolsearch

import "sync"

// Hit is one ranked tool: its document number and score.
type Hit struct {
	Doc   int
	Score float32
}

// Postings looks up one term of an index: the documents holding it, in
// ascending order, and its score in each; nil when no document has it.
type Postings func(term string) (docs []uint16, scores []float32)

// scratch is the per-query state, pooled: a search allocates only its
// result.
type scratch struct {
	scores  []float32
	touched []uint16
	terms   []string
	look    []weighted
}

// weighted is a term to look up and the weight of its scores.
type weighted struct {
	term string
	w    float32
}

var scratches = sync.Pool{New: func() any { return new(scratch) }}

// Rank returns the limit best documents of the n an index holds for
// query: the sum of the scores of the query's distinct terms, best
// first, ties in document order. Documents matching no term are not
// returned.
func Rank(n int, postings Postings, tk Tokenizer, query string, limit int) []Hit {
	if limit <= 0 || n == 0 {
		return nil
	}
	s := scratches.Get().(*scratch)
	defer scratches.Put(s)
	if cap(s.scores) < n {
		s.scores = make([]float32, n)
	}
	scores := s.scores[:n]
	s.touched = s.touched[:0]
	s.terms = tk.Terms(s.terms[:0], query)
	s.look = s.look[:0]
	for _, t := range s.terms {
		s.look = lookUp(s.look, t, 1)
	}
	if tk.Expand > 0 {
		for _, t := range s.terms {
			for _, syn := range tk.expand(t) {
				s.look = lookUp(s.look, syn, tk.Expand)
			}
		}
	}
	for _, l := range s.look {
		docs, sc := postings(l.term)
		for j, d := range docs {
			if int(d) >= n {
				break
			}
			if scores[d] == 0 {
				s.touched = append(s.touched, d)
			}
			scores[d] += l.w * sc[j]
		}
	}
	hits := top(scores, s.touched, limit)
	for _, d := range s.touched {
		scores[d] = 0
	}
	return hits
}

// lookUp adds term at weight w to look, once: a term met again keeps
// the greater weight, so that a word and its synonym count once.
func lookUp(look []weighted, term string, w float32) []weighted {
	for i := range look {
		if look[i].term == term {
			look[i].w = max(look[i].w, w)
			return look
		}
	}
	return append(look, weighted{term, w})
}

// top selects the limit best of the touched documents by insertion into
// a short sorted list: limit is small, and most documents fall below its
// last entry.
func top(scores []float32, touched []uint16, limit int) []Hit {
	hits := make([]Hit, 0, min(limit, len(touched)))
	for _, d := range touched {
		h := Hit{Doc: int(d), Score: scores[d]}
		if len(hits) == limit && !better(h, hits[len(hits)-1]) {
			continue
		}
		i := len(hits)
		if i < limit {
			hits = append(hits, h)
		} else {
			i--
		}
		for i > 0 && better(h, hits[i-1]) {
			hits[i] = hits[i-1]
			i--
		}
		hits[i] = h
	}
	return hits
}

// better orders hits: higher score first, then lower document number.
func better(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.Doc < b.Doc
}
