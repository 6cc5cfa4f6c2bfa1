package toolsearch

import (
	"strings"
	"sync"
)

// synonyms are the words of everyday requests and the words API
// descriptions use for the same thing: a question says "remove the VM",
// the tool "deletes an instance". A query word also looks up its
// synonyms, at the weight Tokenizer.Expand gives them; documents are not
// changed, so "machine type" still means a machine type. The table is of
// the vocabulary every API shares (the verbs of create, read, update
// and delete, of a thing's life, of access), and of the common nouns of
// hosted software; it holds no word of any one product. It is an array
// of constants, not a map, so that a program importing it does no work
// at start-up; the lookup table is made on the first search.
var synonyms = [...]struct{ from, to string }{
	// creating
	{"add", "create attach insert"}, {"new", "create"}, {"make", "create"}, {"spin", "create start"},
	{"provision", "create"}, {"setup", "create configure"}, {"open", "create"}, {"register", "create"},
	{"book", "create"}, {"put", "add upload create"}, {"write", "create update"}, {"post", "create send"},
	{"onboard", "create"}, {"file", "create"},
	// removing
	{"remove", "delete detach"}, {"drop", "delete"}, {"destroy", "delete"}, {"erase", "delete"}, {"kill", "cancel terminate stop"},
	{"terminate", "delete stop"}, {"discard", "delete"}, {"purge", "delete"},
	// changing
	{"change", "update set"}, {"edit", "update"}, {"modify", "update"}, {"rename", "update"}, {"turn", "set enable"},
	{"configure", "set update"}, {"tweak", "update"}, {"adjust", "update set"},
	// reading
	{"show", "get list"}, {"view", "get"}, {"fetch", "get download"}, {"display", "get"}, {"read", "get"},
	{"find", "search list"}, {"look", "search get"}, {"see", "get list"}, {"browse", "list"}, {"details", "get"},
	{"check", "get verify test"}, {"inspect", "get"}, {"describe", "get"},
	// a thing's life
	{"restart", "reboot"}, {"reboot", "restart"}, {"bounce", "restart reboot"}, {"shut", "stop"}, {"halt", "stop"},
	{"resume", "start"}, {"undo", "rollback revert"}, {"revert", "rollback restore"}, {"back", "rollback restore"},
	{"recover", "restore"}, {"combine", "merge"}, {"join", "merge"}, {"finish", "complete"}, {"close", "complete resolve"},
	{"silence", "mute"}, {"quiet", "mute"}, {"lock", "suspend disable"}, {"ban", "suspend"}, {"deactivate", "disable suspend"},
	{"enable", "set start"}, {"fix", "resolve"}, {"rerun", "retry"}, {"redo", "retry"},
	// access
	{"give", "grant add"}, {"allow", "grant"}, {"access", "role grant permission"}, {"permission", "role grant"},
	{"revoke", "remove"}, {"deny", "revoke"},
	// common nouns of hosted software
	{"vm", "instance"}, {"machine", "instance"}, {"server", "instance"}, {"host", "instance"}, {"box", "instance"},
	{"volume", "disk"}, {"repo", "repository"}, {"pr", "pull request"}, {"ticket", "issue"}, {"bug", "issue"},
	{"employee", "user"}, {"person", "contact user"}, {"people", "contact user"}, {"lead", "contact"}, {"team", "group"},
	{"chargeback", "dispute"}, {"newsletter", "campaign"}, {"discount", "coupon"}, {"bill", "invoice"},
	{"meeting", "event"}, {"appointment", "event"}, {"doc", "file"}, {"document", "file"}, {"spreadsheet", "file"},
	{"build", "pipeline run"}, {"ci", "pipeline"}, {"outage", "incident"}, {"chart", "dashboard metric"}, {"graph", "dashboard metric"},
	{"latency", "metric"}, {"cpu", "metric"}, {"config", "variable environment"}, {"env", "environment variable"},
	{"history", "log revision"}, {"changelog", "history"}, {"text", "sms"}, {"sms", "text message"}, {"backup", "snapshot"},
	{"port", "firewall"}, {"token", "key secret"}, {"space", "usage size"}, {"storage", "bucket"},
}

// expansions are the synonyms by the stem of the query word, stemmed, for
// each stemmer.
var (
	expansionsOnce sync.Once
	expansions     [3]map[string][]string
)

// expand returns the stemmed synonyms of a query term under tk.
func (tk Tokenizer) expand(term string) []string {
	expansionsOnce.Do(func() {
		for s := range expansions {
			m := map[string][]string{}
			plain := Tokenizer{Camel: true, Stem: Stemmer(s)}
			for _, syn := range synonyms {
				k := stem(syn.from, Stemmer(s))
				m[k] = append(m[k], plain.Terms(nil, syn.to)...)
			}
			expansions[s] = m
		}
	})
	if int(tk.Stem) >= len(expansions) {
		return nil
	}
	return expansions[tk.Stem][strings.ToLower(term)]
}
