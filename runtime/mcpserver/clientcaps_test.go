package mcpserver

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// decodedCaps reads a ClientCapabilities object with encoding/json into
// fields of the names parseClientCaps reads, as the server once did: the
// reference parseClientCaps keeps to.
func decodedCaps(raw json.RawMessage) clientCaps {
	var c struct {
		Elicitation json.RawMessage            `json:"elicitation"`
		Sampling    json.RawMessage            `json:"sampling"`
		Roots       json.RawMessage            `json:"roots"`
		Tasks       json.RawMessage            `json:"tasks"`
		Extensions  map[string]json.RawMessage `json:"extensions"`
	}
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &c)
	}
	var elicit struct {
		URL json.RawMessage `json:"url"`
	}
	var sample struct {
		Tools json.RawMessage `json:"tools"`
	}
	var tasks struct {
		Requests struct {
			Sampling struct {
				CreateMessage json.RawMessage `json:"createMessage"`
			} `json:"sampling"`
			Elicitation struct {
				Create json.RawMessage `json:"create"`
			} `json:"elicitation"`
		} `json:"requests"`
	}
	if len(c.Tasks) > 0 {
		_ = json.Unmarshal(c.Tasks, &tasks)
	}
	if len(c.Elicitation) > 0 {
		_ = json.Unmarshal(c.Elicitation, &elicit)
	}
	if len(c.Sampling) > 0 {
		_ = json.Unmarshal(c.Sampling, &sample)
	}
	present := func(v json.RawMessage) bool { return v != nil && !isNull(v) }
	return clientCaps{
		elicitation:     present(c.Elicitation),
		elicitationURL:  present(c.Elicitation) && present(elicit.URL),
		sampling:        present(c.Sampling),
		samplingTools:   present(c.Sampling) && present(sample.Tools),
		roots:           present(c.Roots),
		tasks:           present(c.Extensions[TasksExtension]),
		taskSampling:    present(tasks.Requests.Sampling.CreateMessage),
		taskElicitation: present(tasks.Requests.Elicitation.Create),
	}
}

// TestParseClientCaps: the capabilities read are those encoding/json
// decodes, for the objects clients send and for odd ones: names in
// another case, repeated members, nulls, values of another kind, text
// that is not one object.
func TestParseClientCaps(t *testing.T) {
	t.Parallel()
	cases := []string{
		``, `{}`, `null`, `[]`, `"x"`, `{`, `{}x`, `{"elicitation":{}`,
		`{"elicitation":{},"sampling":{},"roots":{"listChanged":true}}`,
		`{"elicitation":{"form":{},"url":{}},"sampling":{"tools":{}}}`,
		`{"extensions":{"io.modelcontextprotocol/tasks":{}}}`,
		`{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{},"other":{}}}`,
		`{"tasks":{"requests":{"sampling":{"createMessage":{}},"elicitation":{"create":{}}}}}`,
		`{"Elicitation":{"URL":{}},"SAMPLING":{"Tools":true},"Roots":{}}`,
		`{"Extensions":{"io.modelcontextprotocol/tasks":{}}}`,
		`{"extensions":{"IO.modelcontextprotocol/tasks":{}}}`,
		`{"elicitation":null,"sampling":null,"roots":null,"tasks":null,"extensions":null}`,
		`{"extensions":{"io.modelcontextprotocol/tasks":null}}`,
		`{"extensions":{"io.modelcontextprotocol/tasks":{}},"extensions":{}}`,
		`{"extensions":{"io.modelcontextprotocol/tasks":{}},"extensions":null}`,
		`{"extensions":{"io.modelcontextprotocol/tasks":{}},"extensions":[]}`,
		`{"extensions":[],"elicitation":{}}`,
		`{"elicitation":{},"elicitation":null}`,
		`{"elicitation":null,"elicitation":{"url":{}}}`,
		`{"elicitation":"yes","sampling":1,"roots":false}`,
		`{"elicitation":{"url":null}}`, `{"elicitation":[{"url":{}}]}`,
		`{"tasks":{"requests":{"sampling":{"createMessage":{}}},"requests":{}}}`,
		`{"tasks":{"requests":{"sampling":{"createMessage":{}}},"requests":null}}`,
		`{"tasks":{"requests":{"sampling":{"createMessage":{}}},"requests":{"sampling":{"createMessage":null}}}}`,
		`{"tasks":{"requests":5}}`, `{"tasks":{"requests":{"sampling":[]}}}`,
		`{"tasks":{"Requests":{"Elicitation":{"CREATE":{}}}}}`,
		`{"tasks":{},"tasks":{"requests":{"elicitation":{"create":{}}}}}`,
		`{"tasks":{"requests":{"elicitation":{"create":{}}}},"tasks":{}}`,
		`{"elicit\u0061tion":{},"extensions":{"io.modelcontextprotocol\/tasks":{}}}`,
		` { "elicitation" : { "url" : { } } , "roots" : { } } `,
	}
	// And objects made at random of the same names and values.
	names := []string{`"elicitation"`, `"sampling"`, `"roots"`, `"tasks"`, `"extensions"`, `"Tasks"`, `"url"`, `"tools"`, `"requests"`, `"create"`, `"createMessage"`, `"io.modelcontextprotocol/tasks"`}
	r := rand.New(rand.NewPCG(1, 2))
	var value func(depth int) string
	value = func(depth int) string {
		switch n := r.IntN(6); {
		case n == 0 || depth > 3:
			return []string{`null`, `{}`, `[]`, `true`, `"s"`}[r.IntN(5)]
		default:
			var b strings.Builder
			b.WriteByte('{')
			for i := range r.IntN(4) {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(names[r.IntN(len(names))] + ":" + value(depth+1))
			}
			b.WriteByte('}')
			return b.String()
		}
	}
	for range 3000 {
		cases = append(cases, value(0))
	}
	for _, c := range cases {
		if got, want := parseClientCaps(json.RawMessage(c)), decodedCaps(json.RawMessage(c)); got != want {
			t.Errorf("parseClientCaps(%s) = %+v, want %+v", c, got, want)
		}
	}
}

// TestParseClientCapsAllocs: reading the capabilities of a client that
// declares the tasks extension allocates nothing.
// Not parallel: AllocsPerRun counts the allocations of every goroutine.
func TestParseClientCapsAllocs(t *testing.T) {
	raw := json.RawMessage(`{"elicitation":{"url":{}},"sampling":{"tools":{}},"extensions":{"io.modelcontextprotocol/tasks":{}}}`)
	if n := testing.AllocsPerRun(100, func() { parseClientCaps(raw) }); n != 0 {
		t.Errorf("parseClientCaps allocates %v times, want none", n)
	}
}
