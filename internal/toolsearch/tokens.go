// Package toolsearch is the tool search of mcpgen's servers: the words a
// tool is found by, the BM25 index the generator writes of a package's
// tools, and the ranking servers run over it. The generator and the
// servers tokenise with the same code, so a query meets the terms the
// index was built from.
//
// The choices here (splitting, stop words, stemming, field weights, k1
// and b) were made by measurement on the 500 tools and 169 labelled
// questions of bench/catalog; its TestSearchTuning prints the figures of
// each alternative.
package toolsearch

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokenizer says how text becomes terms. The zero value lower-cases and
// splits at anything that is not a letter or a digit, and nothing more.
type Tokenizer struct {
	Camel bool // split camelCase and letter-digit boundaries: parseConfig -> parse config
	Stop  bool // drop English stop words ("the", "of", "my")
	Stem  Stemmer
	// Expand is the weight, beside a query word's own of 1, of each of
	// its synonyms (see synonyms); 0 looks up none.
	Expand float32
}

// Stemmer names a way to reduce words to a stem.
type Stemmer int

// The stemmers.
const (
	NoStem     Stemmer = iota
	PluralStem         // plurals only: instances -> instance, policies -> policy
	LightStem          // plurals, -ing, -ed, -er and -ly: restarting -> restart
)

// Default is the tokenizer of the generated indexes and of the queries
// run on them. Splitting camelCase lets a question name code symbols;
// stop words carry no meaning and only lengthen documents; the light
// stemmer meets "restarting" with "restart" and "deployed" with
// "deploy". TestSearchTuning shows each choice's effect.
var Default = Tokenizer{Camel: true, Stem: LightStem, Expand: 0.7}

// Terms appends the terms of text to dst and returns it.
func (tk Tokenizer) Terms(dst []string, text string) []string {
	start := -1
	var prev rune
	flush := func(end int) {
		if start >= 0 {
			dst = tk.add(dst, text[start:end])
			start = -1
		}
	}
	for i, r := range text {
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case !word:
			flush(i)
		case start < 0:
			start = i
		case tk.Camel && boundary(prev, r, text[i+utf8.RuneLen(r):]):
			flush(i)
			start = i
		}
		prev = r
	}
	flush(len(text))
	return dst
}

// boundary reports whether a word ends between prev and r, whose text
// goes on with rest: lower to upper (parseConfig), the last capital of
// an acronym before a lower-case letter (HTTPServer), and letters to
// digits and back are not split, since names such as e2 and p99 are one
// word.
func boundary(prev, r rune, rest string) bool {
	if !unicode.IsUpper(r) {
		return false
	}
	if unicode.IsLower(prev) {
		return true
	}
	if unicode.IsUpper(prev) && rest != "" {
		next, _ := utf8.DecodeRuneInString(rest)
		return unicode.IsLower(next)
	}
	return false
}

// add appends the term of one word, unless it is a stop word or a single
// letter.
func (tk Tokenizer) add(dst []string, word string) []string {
	w := strings.ToLower(word)
	if utf8.RuneCountInString(w) < 2 && !isDigits(w) {
		return dst
	}
	if _, stop := slices.BinarySearch(stopWords[:], w); tk.Stop && stop {
		return dst
	}
	return append(dst, stem(w, tk.Stem))
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// stopWords are English words that say nothing of what a tool does,
// sorted: an array of constants, which costs a program nothing at
// start-up.
var stopWords = [...]string{
	"a", "all", "an", "and", "any", "are", "as", "at", "be", "by", "can", "do", "does",
	"each", "for", "from", "has", "have", "how", "i", "if", "in", "into", "is", "it", "its",
	"me", "my", "of", "on", "one", "or", "our", "so", "that", "the", "their", "them",
	"then", "there", "these", "this", "those", "to", "us", "was", "we", "were", "what",
	"when", "where", "which", "while", "who", "why", "will", "with", "you", "your",
}

// stem reduces w, a lower-case word, by s. The rules are few and
// conservative: a stem keeps three letters, so that short words ("bus",
// "news", "red") are left alone. The light stemmer also drops a final
// e, so that "share", "shared" and "sharing" all become "shar".
func stem(w string, s Stemmer) string {
	if s == NoStem || !isLetters(w) {
		return w
	}
	w = plural(w)
	if s == PluralStem {
		return w
	}
	if base, ok := strings.CutSuffix(w, "ied"); ok && len(base) >= 2 {
		return base + "y"
	}
	for _, suf := range []string{"ing", "ed", "er", "ly"} {
		if base, ok := strings.CutSuffix(w, suf); ok && len(base) >= 3 && hasVowel(base) {
			w = undouble(base)
			break
		}
	}
	if len(w) >= 4 && w[len(w)-1] == 'e' {
		w = w[:len(w)-1]
	}
	return w
}

// plural turns a plural into its singular: policies -> policy,
// addresses -> address, statuses -> status, instances -> instance;
// words ending in ss, us or is are not plurals.
func plural(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), len(w) > 5 && strings.HasSuffix(w, "uses"):
		return w[:len(w)-2]
	case len(w) > 4 && (strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes")):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

// undouble drops the doubled consonant a suffix leaves: stopped -> stop.
func undouble(w string) string {
	n := len(w)
	if n >= 4 && w[n-1] == w[n-2] && !strings.ContainsRune("aeioulsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

func isLetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

func hasVowel(w string) bool { return strings.ContainsAny(w, "aeiouy") }
