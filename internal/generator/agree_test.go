package generator

import (
	"bufio"
	"encoding/json"
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// How the generated decoder and the schema validator judge a document.
const (
	valid     = iota // both accept
	invalid          // both reject
	coerced          // the decoder accepts a string for a number or boolean; the schema does not
	stricter         // the decoder rejects what the schema cannot say: a type's own methods refuse it
	unchecked        // an input= file's keyword the generator warned it does not check (not, if, ...) rejects it
)

// argCase is one argument document for a golden tool. patch is merged into
// the case's base document (a null member of patch removes the member).
type argCase struct {
	tool, patch string
	want        int
}

// agreeCases are, per golden case, base documents per tool and cases.
var agreeCases = map[string]struct {
	base  map[string]string
	cases []argCase
}{
	"types": {map[string]string{"check": `{"id":"ab-1","shade":"red","shade_override":3,"small":-5,"count":10,"ratio":0.5,"when":"2024-05-01T10:00:00Z","tags":["a"],"level":1,"inline":{"a":1}}`}, []argCase{
		{"check", `{}`, valid},
		{"check", `{"id":null}`, invalid},
		{"check", `{"id":"AB-1"}`, invalid},
		{"check", `{"zzz":1}`, invalid},
		{"check", `{"note":"x","step":1.5,"on":true,"wait":"1h30m","blob":"aGVsbG8=","raw":{"x":[1]},"anything":[null]}`, valid},
		{"check", `{"small":200}`, invalid},
		{"check", `{"count":0}`, invalid},
		{"check", `{"count":"5"}`, coerced},
		{"check", `{"ratio":1}`, invalid},
		{"check", `{"step":0.3}`, invalid},
		{"check", `{"when":"yesterday"}`, invalid},
		{"check", `{"wait":"90"}`, invalid},
		{"check", `{"blob":"%%%"}`, invalid},
		{"check", `{"tags":[]}`, invalid},
		{"check", `{"tags":["abcdefghi"]}`, invalid},
		{"check", `{"pair":[1,2]}`, valid},
		{"check", `{"pair":[1]}`, invalid},
		{"check", `{"pair":[1,2,3]}`, invalid},
		{"check", `{"labels":{"a":"b"}}`, valid},
		{"check", `{"labels":{"a":1}}`, invalid},
		{"check", `{"level":5}`, invalid},
		{"check", `{"mode":"medium"}`, invalid},
		{"check", `{"tree":{"name":"r","children":[{"name":"c"}]}}`, valid},
		{"check", `{"tree":{"name":"r","children":[{}]}}`, invalid},
		{"check", `{"inline":5,"id":null,"mode":"medium"}`, invalid},
		{"check", `{"inline":{"a":1,"b":2}}`, invalid},
	}},
	"tags": {map[string]string{"greet": `{"name":"bob","must":"x"}`, "search": `{"query":"a"}`, "lookup": `{"isbn":"9781234567890","shelf":"AB"}`}, []argCase{
		{"greet", `{}`, valid},
		{"greet", `{"must":null}`, invalid},
		{"greet", `{"name":"b"}`, invalid},
		{"greet", `{"name":"bobbyy"}`, invalid},
		{"greet", `{"name":"Bob"}`, invalid},
		{"greet", `{"greeting":"hello","times":9,"flag":false}`, valid},
		{"greet", `{"greeting":"hey"}`, invalid},
		{"greet", `{"times":0}`, invalid},
		{"greet", `{"times":10}`, invalid},
		{"greet", `{"small":255,"tiny":-9,"step":0.5}`, valid},
		{"greet", `{"small":256}`, invalid},
		{"greet", `{"small":-1}`, invalid},
		{"greet", `{"tiny":-10}`, invalid},
		{"greet", `{"tiny":128}`, invalid},
		{"greet", `{"step":0.3}`, invalid},
		{"greet", `{"mail":"a@b.example","site":"https://x.example/a","id":"123e4567-e89b-12d3-a456-426614174000"}`, valid},
		{"greet", `{"day":"2024-02-29","at":"10:00:00Z","when":"2024-05-01T10:00:00.5+02:00"}`, valid},
		{"greet", `{"v4":"10.0.0.1","v6":"::1","host":"example.com"}`, valid},
		{"greet", `{"mail":"not mail"}`, invalid},
		{"greet", `{"site":"x"}`, invalid},
		{"greet", `{"id":"123e4567-e89b-12d3-a456"}`, invalid},
		{"greet", `{"day":"2024-13-01"}`, invalid},
		{"greet", `{"at":"25:00:00Z"}`, invalid},
		{"greet", `{"when":"2024-05-01"}`, invalid},
		{"greet", `{"v4":"10.0.0"}`, invalid},
		{"greet", `{"v6":"10.0.0.1"}`, invalid},
		{"greet", `{"codes":[1,2],"pair":["a","b"]}`, valid},
		{"greet", `{"codes":[1,1]}`, invalid},
		{"greet", `{"codes":[]}`, invalid},
		{"greet", `{"codes":[1,2,3,4]}`, invalid},
		{"greet", `{"codes":[-1]}`, invalid},
		{"greet", `{"pair":["a","a"]}`, invalid},
		{"greet", `{"spots":[{"x":1},{"x":2}]}`, valid},
		{"greet", `{"spots":[{"x":1,"y":2},{"y":2,"x":1}]}`, invalid},
		{"greet", `{"spots":[{"x":1},{"x":1,"y":0}]}`, valid},
		{"greet", `{"spots":[{"x":1},{"x":1.0}]}`, invalid},
		{"greet", `{"grid":[[1,2],[2,1]]}`, valid},
		{"greet", `{"grid":[[1,2],[1,2e0]]}`, invalid},
		{"greet", `{"grid":[[1],["1"]]}`, invalid}, // the string is read as the number: not unique either way
		{"greet", `{"grid":[[1],["2"]]}`, coerced},
		{"greet", `{"sets":[{"a":true},{"a":false}]}`, valid},
		{"greet", `{"sets":[{"a":true,"b":false},{"b":false,"a":true}]}`, invalid},
		{"greet", `{"refs":[1,2]}`, valid},
		{"greet", `{"refs":[3,3]}`, invalid},
		{"greet", `{"refs":[1,null]}`, valid},
		{"greet", `{"refs":[null,null]}`, invalid},
		{"greet", `{"times":null}`, valid},
		{"greet", `{"region":"eu"}`, valid},
		{"greet", `{"region":null}`, invalid}, // mirrored in a header: one type, no null
		{"greet", `{"times":"3"}`, coerced},
		{"search", `{}`, valid},
		{"search", `{"query":null}`, invalid},
		{"search", `{"limit":51}`, invalid},
		{"search", `{"limit":0}`, invalid}, // the file's minimum, checked
		{"search", `{"x":1}`, invalid},
		{"lookup", `{}`, valid},
		{"lookup", `{"isbn":"'9781234567890'"}`, invalid}, // the quotes are the directive's, not the pattern's
		{"lookup", `{"isbn":"1234567890123"}`, invalid},
		{"lookup", `{"shelf":"abc"}`, invalid},
	}},
	"methods": {map[string]string{"read": `{"temp":21,"on":"2024-05-01","level":"low","addr":"10.0.0.1"}`}, []argCase{
		{"read", `{}`, valid},
		{"read", `{"temp":"21C","level":"high","days":["2024-01-02"],"peers":["::1"],"big":123456789012345678901234567890,"stamp":{"n":1}}`, valid},
		{"read", `{"temp":null}`, invalid},
		{"read", `{"temp":"hot"}`, stricter},
		{"read", `{"on":"2024-5-1"}`, invalid},
		{"read", `{"on":5}`, invalid},
		{"read", `{"days":["x"]}`, invalid},
		{"read", `{"level":"mid"}`, stricter},
		{"read", `{"level":"medium"}`, invalid},
		{"read", `{"addr":"nope"}`, stricter},
		{"read", `{"addr":7}`, invalid},
		{"read", `{"peers":["::1","::2","::3"]}`, invalid},
		{"read", `{"alarm":"high"}`, valid},
		{"read", `{"alarm":null}`, valid},
		{"read", `{"alarm":"medium"}`, invalid},
		{"read", `{"alarm":2}`, invalid},
	}},
	"files": {map[string]string{"place_order": `{"customer":"a@b.example","lines":[{"sku":"ABC-1","qty":1}]}`}, []argCase{
		{"place_order", `{}`, valid},
		{"place_order", `{"customer":""}`, invalid},
		{"place_order", `{"customer":"not mail"}`, invalid},
		{"place_order", `{"customer":"abcdefghijklmnop@b.example"}`, invalid},
		{"place_order", `{"customer":"A@b.example"}`, valid}, // the tag's pattern is not published, so not checked
		{"place_order", `{"lines":[]}`, invalid},
		{"place_order", `{"lines":[{"sku":"abc","qty":1}]}`, invalid},
		{"place_order", `{"lines":[{"sku":"ABC-1","qty":100}]}`, invalid},
		{"place_order", `{"lines":[{"sku":"ABC-1","qty":1},{"sku":"ABC-1","qty":1.0}]}`, invalid},
		{"place_order", `{"lines":[{"sku":"ABC-1","qty":1},{"sku":"ABC-1","qty":2}]}`, valid},
		{"place_order", `{"lines":[{"sku":"ABC-1","qty":1,"note":null}]}`, valid},
		{"place_order", `{"lines":[{"sku":"ABC-1","qty":1,"note":"aaaaaaaaaaaaaaaaaaaaa"}]}`, invalid},
		{"place_order", `{"lines":[{"sku":"ABC-1","qty":1,"x":1}]}`, invalid},
		{"place_order", `{"lines":[{"sku":"ABC-1"}]}`, invalid},
		{"place_order", `{"ship":{"country":"DE"}}`, valid},
		{"place_order", `{"ship":{"country":"XX"}}`, invalid},
		{"place_order", `{"ship":null}`, invalid},
		{"place_order", `{"ship":{"country":"DE","express":false}}`, invalid},
		{"place_order", `{"ship":{"country":"DE","express":true,"zip":"1"}}`, valid},
		{"place_order", `{"ship":{}}`, invalid},
		{"place_order", `{"gift":null}`, valid},
		{"place_order", `{"gift":{"country":"FR"}}`, valid},
		{"place_order", `{"gift":{"country":"FR"},"extra":1}`, unchecked},
		{"place_order", `{"tags":{"a":""}}`, invalid},
		{"place_order", `{"tags":{"a":"x"}}`, valid},
		{"place_order", `{"level":0}`, invalid},
		{"place_order", `{"level":5}`, valid},
		{"place_order", `{"level":6}`, invalid},
		{"place_order", `{"codes":[[1],[2],[3],[4]]}`, invalid},
		{"place_order", `{"codes":[[1,2]]}`, valid},
		{"place_order", `{"extra":{"any":[1]}}`, valid},
		{"place_order", `{"other":1}`, invalid},
	}},
	"maps": {map[string]string{"count": `{"colors":{"red":1}}`, "tally": `{"counts":{"red":1}}`}, []argCase{
		{"count", `{}`, valid},
		{"count", `{"colors":{}}`, valid},
		{"count", `{"colors":{"purple":1}}`, invalid},
		{"count", `{"colors":{"red":1,"Red":1}}`, invalid},
		{"count", `{"any":{"purple":true}}`, valid},
		{"count", `{"labels":{"any label":"z"}}`, valid},
		{"count", `{"plain":{"x":1}}`, valid},
		{"count", `{"mixes":{"red":{"any":1}}}`, valid},
		{"count", `{"mixes":{"teal":{}}}`, invalid},
		{"count", `{"mixes":{"red":{"a":"x"}}}`, invalid},
		{"count", `{"boxes":{"blue":{"n":1}}}`, valid},
		{"count", `{"boxes":{"grey":{"n":1}}}`, invalid},
		{"count", `{"shades":[{"red":"blue"}]}`, valid},
		{"count", `{"shades":[{"red":"gold"}]}`, invalid},
		{"count", `{"shades":[{"gold":"red"}]}`, invalid},
		{"tally", `{"counts":{"blue":2,"green":0}}`, valid},
		{"tally", `{"counts":{"Blue":2}}`, invalid},
	}},
	"remote": {map[string]string{"order": `{"customer":{"name":"a"},"buyer":{"name":"b"},"where":{"Filename":"f","Offset":0,"Line":1,"Column":1},"lines":{"items":[{"sku":"s","quantity":1}]}}`}, []argCase{
		{"order", `{}`, valid},
		{"order", `{"customer":{"name":"a","email":"a@b.example"},"counts":{"items":[1,2],"next":2},"labels":[{"key":"k","value":true}]}`, valid},
		{"order", `{"customer":{"name":""}}`, invalid},
		{"order", `{"customer":{"name":"a","email":"x"}}`, invalid},
		{"order", `{"where":{"Filename":"f"}}`, invalid},
		{"order", `{"lines":{}}`, invalid},
		{"order", `{"counts":{"items":["a"]}}`, invalid},
		{"order", `{"labels":[{"key":"k","value":"x"}]}`, invalid},
		{"order", `{"lines":{"items":[{"sku":"s","quantity":1,"x":0}]}}`, invalid},
		{"order", `{"counts":{"items":[],"next":null}}`, valid},
		{"order", `{"topics":{"value":"a","kids":[{"value":"b","kids":[]}]}}`, valid},
		{"order", `{"topics":{"value":"a","kids":[{"kids":[]}]}}`, invalid},
		{"order", `{"topics":{"value":"a","kids":[{"value":1}]}}`, invalid},
	}},
}

// agreeProblems are, per golden case and patch of agreeCases, the exact
// text of the decoder's error result.
var agreeProblems = map[string]map[string]string{
	"maps": {
		// A key of a type with constants is checked as the property name
		// it is, at its path.
		`{"colors":{"purple":1}}`: "invalid arguments:\ncolors.purple: property name \"purple\" is not one of \"red\", \"green\", \"blue\"",
	},
	"methods": {
		// An enum of a type that reads itself from text checks the text.
		`{"alarm":"medium"}`: "invalid arguments:\nalarm: \"medium\" is not one of \"low\", \"high\"",
	},
	"tags": {
		// Objects are the same whatever the order of their members, and
		// numbers whatever their spelling.
		`{"spots":[{"x":1},{"x":1.0}]}`: "invalid arguments:\nspots: items are not unique",
	},
	"types": {
		// An anonymous struct that is not an object leaves the rest of the
		// arguments to be decoded and checked.
		`{"inline":5,"id":null,"mode":"medium"}`: "invalid arguments:\ninline: expected object, got 5\n" +
			"mode: \"medium\" is not one of \"fast\", \"slow\"\nid: required property is missing",
	},
}

// agreeMain calls the tools of the golden case named by its argument with
// the documents read from stdin, one "tool<TAB>arguments" a line, and
// prints "ok" or "error<TAB>text" for each. It imports every case of
// agreeCases, in the shared module, so that one program serves them all.
func agreeMain() string {
	var imports, entries strings.Builder
	for _, c := range slices.Sorted(maps.Keys(agreeCases)) {
		fmt.Fprintf(&imports, "\t%q\n", modulePath+"/"+c)
		fmt.Fprintf(&entries, "\t%q: %s.MCPTools,\n", c, c)
	}
	return `package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/mcprt"

` + imports.String() + `)

var cases = map[string]func() []mcprt.Tool{
` + entries.String() + `}

func main() {
	tools := map[string]int{}
	all := cases[os.Args[1]]()
	for i, t := range all {
		tools[t.Name] = i
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	for in.Scan() {
		name, args, _ := strings.Cut(in.Text(), "\t")
		res := all[tools[name]].Handler(context.Background(), []byte(args))
		if !res.IsError {
			fmt.Println("ok")
			continue
		}
		fmt.Printf("error\t%q\n", res.Content[0].Text)
	}
}
`
}

// TestDecoderAgreesWithValidator runs the documents of agreeCases through
// each golden case's generated decoders, in a built program, and through
// the independent validator with its generated schema, formats asserted.
// Both must give the outcome the table says.
func TestDecoderAgreesWithValidator(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds programs")
	}
	for dir, tc := range agreeCases {
		t.Run(dir, func(t *testing.T) {
			t.Parallel()
			src, _ := filepath.Abs(filepath.Join("testdata", "golden", dir))
			schemas := inputSchemas(t, src)
			var docs []string
			var stdin strings.Builder
			for _, c := range tc.cases {
				doc := patchDoc(t, tc.base[c.tool], c.patch)
				docs = append(docs, doc)
				stdin.WriteString(c.tool + "\t" + doc + "\n")
			}
			outs := runDecoders(t, dir, stdin.String())
			if len(outs) != len(docs) {
				t.Fatalf("%d results for %d documents", len(outs), len(docs))
			}
			for i, c := range tc.cases {
				decoded := outs[i] == "ok"
				doc, _ := jsonschema.UnmarshalJSON(strings.NewReader(docs[i]))
				err := schemas[c.tool].Validate(doc)
				wantDecoded, wantValid := c.want == valid || c.want == coerced || c.want == unchecked, c.want == valid || c.want == stricter
				if decoded != wantDecoded || (err == nil) != wantValid {
					t.Errorf("%s %s: decoder %s, validator %v; want outcome %d", c.tool, docs[i], outs[i], err, c.want)
				}
				if text, ok := agreeProblems[dir][c.patch]; ok && outs[i] != "error\t"+strconv.Quote(text) {
					t.Errorf("%s %s: decoder says\n%s\nwant\nerror\t%q", c.tool, docs[i], outs[i], text)
				}
			}
		})
	}
}

// inputSchemas compiles the input schemas of a golden case, asserting
// formats, by tool name.
func inputSchemas(t *testing.T, dir string) map[string]*jsonschema.Schema {
	files, diags := generated(dir)
	if diags.HasErrors() || len(files) != 1 {
		t.Fatalf("Generate: %v", diags)
	}
	out := map[string]*jsonschema.Schema{}
	for _, tool := range files[0].Tools {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(tool.InputSchema)))
		if err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		c.AssertFormat()
		if err := c.AddResource("mem:///"+tool.Name+".json", doc); err != nil {
			t.Fatal(err)
		}
		if out[tool.Name], err = c.Compile("mem:///" + tool.Name + ".json"); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// runDecoders feeds stdin to the program of the shared module that runs
// the decoders of golden case c (agreeMain).
func runDecoders(t *testing.T, c, stdin string) []string {
	bin := sharedModule(t).binary("agree")
	cmd := exec.Command(bin, c)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", bin, err)
	}
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

// patchDoc merges patch into base; a null member of patch removes the
// member, except where the base lacks it (then null is the value sent).
func patchDoc(t *testing.T, base, patch string) string {
	var b, p map[string]json.RawMessage
	if err := json.Unmarshal([]byte(base), &b); err != nil {
		t.Fatalf("base %s: %v", base, err)
	}
	if err := json.Unmarshal([]byte(patch), &p); err != nil {
		t.Fatalf("patch %s: %v", patch, err)
	}
	for k, v := range p {
		if _, inBase := b[k]; inBase && string(v) == "null" {
			delete(b, k)
			continue
		}
		b[k] = v
	}
	out, _ := json.Marshal(b)
	return string(out)
}
