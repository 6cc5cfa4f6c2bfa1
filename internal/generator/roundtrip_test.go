package generator

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpgen/mcpgen/internal/generator/internal/fromschema"
	"github.com/mcpgen/mcpgen/internal/generator/internal/goident"
	"github.com/mcpgen/mcpgen/internal/generator/internal/jsonv"
)

// roundtripExempt are the cases of testdata/client whose schemas a 2020-12
// validator cannot read: a draft-4 bound, a lookahead, a remote $ref.
var roundtripExempt = map[string]bool{"unusual": true}

// instancesPerSchema is how many random values each schema is tried with.
const instancesPerSchema = 40

// TestClientRoundTrip checks the types a client makes from schemas: for
// every object schema of the listings of testdata/client, random values
// of its Go type, sent by a generated client, are JSON the schema
// accepts (santhosh-tekuri/jsonschema), and read back by the client's
// decoders as an equal value (go-cmp). The values are random instances
// of the schema, read into the Go type by encoding/json; a server
// echoes each call's arguments as its structured result.
func TestClientRoundTrip(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a module")
	}
	schemas := roundtripSchemas(t)
	var tools []any
	instances := map[string][]json.RawMessage{}
	r := rand.New(rand.NewPCG(1, 2))
	validators := map[string]*jsonschema.Schema{}
	for _, s := range schemas {
		doc := jsonv.Object{{Key: "$ref", Value: "#/$defs/" + s.def}}
		defs := jsonv.Object{{Key: s.def, Value: withoutDefs(s.schema)}}
		for _, d := range []string{"$defs", "definitions"} {
			if inner, ok := s.schema.Object(d); ok {
				if d == "$defs" {
					defs = append(defs, inner...)
				} else {
					doc = append(doc, jsonv.Member{Key: d, Value: inner})
				}
			}
		}
		doc = append(doc, jsonv.Member{Key: "$defs", Value: defs})
		tools = append(tools, jsonv.Object{{Key: "name", Value: s.tool}, {Key: "inputSchema", Value: doc}, {Key: "outputSchema", Value: doc}})
		v := compileAsserting(t, s.tool, jsonv.Marshal(doc))
		validators[s.tool] = v
		g := &instanceGen{r: r, root: doc}
		for range instancesPerSchema {
			inst := g.value(doc, 0)
			js, _ := json.Marshal(inst)
			if err := validate(v, js); err != nil {
				t.Fatalf("%s: the random instance %s does not validate: %v", s.tool, js, err)
			}
			instances[s.tool] = append(instances[s.tool], js)
		}
	}
	list := jsonv.Marshal(jsonv.Object{{Key: "tools", Value: tools}})

	dir := t.TempDir()
	if err := copyTemplate(dir); err != nil {
		t.Fatal(err)
	}
	files, diags, err := ClientFromSchemas(list, dir, "rt")
	if err != nil || diags.HasErrors() {
		t.Fatalf("ClientFromSchemas: %v %v", err, diags)
	}
	os.MkdirAll(filepath.Join(dir, "rt"), 0o755)
	if _, err := Write(files[:1]); err != nil {
		t.Fatal(err)
	}
	c, _, err := fromschema.Client(list, "rt", "rt")
	if err != nil {
		t.Fatal(err)
	}
	var methods strings.Builder
	methods.WriteString("package main\n\nvar methods = map[string]string{\n")
	for _, tool := range c.Tools {
		fmt.Fprintf(&methods, "\t%q: %q,\n", tool.Name, tool.Method)
	}
	methods.WriteString("}\n")
	cases, _ := json.Marshal(instances)
	writeFile(t, filepath.Join(dir, "cases.json"), string(cases))
	os.MkdirAll(filepath.Join(dir, "cmd", "rt"), 0o755)
	writeFile(t, filepath.Join(dir, "cmd", "rt", "main.go"), roundtripMain)
	writeFile(t, filepath.Join(dir, "cmd", "rt", "methods.go"), methods.String())
	out := goCmd(t, dir, "run", "./cmd/rt", filepath.Join(dir, "cases.json"))

	calls := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var rec struct{ Tool, Sent, Diff, Err string }
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("the round trip printed %q", line)
		}
		calls++
		if rec.Err != "" || rec.Diff != "" {
			t.Errorf("%s: the value did not come back: %s%s\nsent %s", rec.Tool, rec.Err, rec.Diff, rec.Sent)
			continue
		}
		if err := validate(validators[rec.Tool], []byte(rec.Sent)); err != nil {
			t.Errorf("%s: the client sent %s, which the schema refuses: %v", rec.Tool, rec.Sent, err)
		}
	}
	if want := len(schemas) * instancesPerSchema; calls != want {
		t.Errorf("the round trip made %d calls, want %d", calls, want)
	}
}

// roundtripSchema is one object schema of a listing, as the tool of the
// round trip that takes and returns it.
type roundtripSchema struct {
	tool, def string
	schema    jsonv.Object
}

// roundtripSchemas are the object schemas of the listings of
// testdata/client: each tool's input and output.
func roundtripSchemas(t *testing.T) []roundtripSchema {
	listings, _ := filepath.Glob(filepath.Join("testdata", "client", "*", "listing.json"))
	var out []roundtripSchema
	for _, l := range listings {
		c := filepath.Base(filepath.Dir(l))
		if roundtripExempt[c] {
			continue
		}
		data, err := os.ReadFile(l)
		if err != nil {
			t.Fatal(err)
		}
		v, err := jsonv.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		for _, tool := range v.(jsonv.Object).Array("tools") {
			tool := tool.(jsonv.Object)
			for _, k := range []string{"inputSchema", "outputSchema"} {
				s, ok := tool.Object(k)
				if !ok || s.Has("$ref") {
					continue
				}
				if props, _ := s.Object("properties"); len(props) == 0 {
					continue
				}
				name := "rt_" + c + "_" + tool.String("name") + "_" + strings.TrimSuffix(k, "Schema")
				out = append(out, roundtripSchema{tool: name, def: goident.Exported(name), schema: s})
			}
		}
	}
	if len(out) < 10 {
		t.Fatalf("only %d schemas to try", len(out))
	}
	return out
}

func withoutDefs(s jsonv.Object) jsonv.Object {
	var out jsonv.Object
	for _, m := range s {
		if m.Key != "$defs" && m.Key != "definitions" && m.Key != "$schema" {
			out = append(out, m)
		}
	}
	return out
}

// compileAsserting compiles a 2020-12 schema that asserts formats.
func compileAsserting(t *testing.T, name string, js []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	url := "mem:///" + name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s does not compile: %v\n%s", name, err, js)
	}
	return s
}

func validate(s *jsonschema.Schema, js []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		return err
	}
	return s.Validate(v)
}

// instanceGen makes random instances of a schema: the JSON values it
// accepts, as encoding/json holds them. It knows the keywords of the
// listings it is given; a schema it cannot satisfy otherwise carries
// examples, of which it picks one.
type instanceGen struct {
	r    *rand.Rand
	root jsonv.Object
}

// maxSafe bounds random integers: go-sdk decodes a structured result's
// numbers as float64, exact up to 2^53.
const maxSafe = 1 << 53

func (g *instanceGen) value(s any, depth int) any {
	obj, ok := s.(jsonv.Object)
	if !ok {
		return g.any(depth)
	}
	if ex := obj.Array("examples"); len(ex) > 0 {
		return plain(ex[g.r.IntN(len(ex))])
	}
	if ref := obj.String("$ref"); ref != "" {
		parts := strings.Split(strings.TrimPrefix(ref, "#/"), "/")
		def, _ := g.root.Object(parts[0])
		target, _ := def.Get(parts[1])
		return g.value(target, depth+1)
	}
	if v, ok := obj.Get("const"); ok {
		return plain(v)
	}
	if enum := obj.Array("enum"); len(enum) > 0 {
		return plain(enum[g.r.IntN(len(enum))])
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		if bs := obj.Array(k); len(bs) > 0 {
			return g.value(bs[g.r.IntN(len(bs))], depth+1)
		}
	}
	if bs := obj.Array("allOf"); len(bs) == 1 {
		return g.value(bs[0], depth+1)
	}
	if bs := obj.Array("allOf"); len(bs) > 1 {
		merged := jsonv.Object{{Key: "type", Value: "object"}}
		props := jsonv.Object{}
		for _, b := range bs {
			p, _ := b.(jsonv.Object).Object("properties")
			props = append(props, p...)
		}
		merged = append(merged, jsonv.Member{Key: "properties", Value: props})
		return g.value(merged, depth+1)
	}
	if not, ok := obj.Object("not"); ok && not.String("type") == "null" {
		return g.scalar()
	}
	if pre := obj.Array("prefixItems"); len(pre) > 0 {
		var out []any
		for _, p := range pre {
			out = append(out, g.value(p, depth+1))
		}
		return out
	}
	types := obj.Types()
	switch {
	case len(types) == 0 && obj.Has("properties"):
		types = []string{"object"}
	case len(types) == 0 && obj.Has("items"):
		types = []string{"array"}
	case len(types) == 0:
		return g.any(depth)
	}
	switch types[g.r.IntN(len(types))] {
	case "null":
		return nil
	case "boolean":
		return g.r.IntN(2) == 0
	case "integer":
		lo, hi := g.bounds(obj, -1000, 1000)
		return int64(math.Ceil(lo)) + g.r.Int64N(int64(math.Floor(hi)-math.Ceil(lo))+1)
	case "number":
		lo, hi := g.bounds(obj, -1e6, 1e6)
		if m, ok := obj.Get("multipleOf"); ok {
			step, _ := m.(json.Number).Float64()
			return math.Ceil(lo/step)*step + float64(g.r.IntN(int((hi-lo)/step)))*step
		}
		for {
			if f := lo + g.r.Float64()*(hi-lo); f > lo && f < hi || !obj.Has("exclusiveMinimum") && !obj.Has("exclusiveMaximum") {
				return f
			}
		}
	case "string":
		return g.string(obj)
	case "array":
		return g.array(obj, depth)
	}
	return g.object(obj, depth)
}

// bounds are the numeric bounds of a schema, exclusive ones moved in.
func (g *instanceGen) bounds(obj jsonv.Object, lo, hi float64) (float64, float64) {
	num := func(k string) (float64, bool) {
		v, ok := obj.Get(k)
		if !ok {
			return 0, false
		}
		f, err := v.(json.Number).Float64()
		return f, err == nil
	}
	if v, ok := num("minimum"); ok {
		lo = v
	}
	if v, ok := num("exclusiveMinimum"); ok {
		lo = v + 1e-9
		if slices.Contains(obj.Types(), "integer") {
			lo = v + 1
		}
	}
	if v, ok := num("maximum"); ok {
		hi = v
	}
	if v, ok := num("exclusiveMaximum"); ok {
		hi = v - 1e-9
		if slices.Contains(obj.Types(), "integer") {
			hi = v - 1
		}
	}
	return max(lo, -maxSafe), min(hi, maxSafe)
}

func (g *instanceGen) string(obj jsonv.Object) any {
	switch {
	case obj.String("format") == "date-time":
		sec := g.r.Int64N(4e9)
		zone := time.FixedZone("", (g.r.IntN(48)-24)*1800)
		return time.Unix(sec, g.r.Int64N(1e9)).In(zone).Format(time.RFC3339Nano)
	case obj.String("format") == "date":
		return time.Unix(g.r.Int64N(4e9), 0).UTC().Format(time.DateOnly)
	case obj.String("format") == "email":
		return fmt.Sprintf("u%d@h%d.example", g.r.IntN(1000), g.r.IntN(1000))
	case obj.String("contentEncoding") == "base64" || obj.String("format") == "byte":
		b := make([]byte, g.r.IntN(12))
		for i := range b {
			b[i] = byte(g.r.IntN(256))
		}
		return base64.StdEncoding.EncodeToString(b)
	}
	lo, hi := 0, 12
	if v := intOf(obj, "minLength"); v >= 0 {
		lo = v
	}
	if v := intOf(obj, "maxLength"); v >= 0 {
		hi = v
	} else if hi < lo {
		hi = lo + 8
	}
	return g.letters(lo, hi)
}

// letters is a random string of n to m characters, some beyond ASCII
// and some a JSON string escapes.
func (g *instanceGen) letters(n, m int) string {
	const alphabet = "abcxyzABC019 _-\"\\/\té€𝄞\u2028<&"
	rs := []rune(alphabet)
	k := n + g.r.IntN(m-n+1)
	var b strings.Builder
	for range k {
		b.WriteRune(rs[g.r.IntN(len(rs))])
	}
	return b.String()
}

func intOf(obj jsonv.Object, k string) int {
	v, ok := obj.Get(k)
	if !ok {
		return -1
	}
	n, err := v.(json.Number).Int64()
	if err != nil {
		return -1
	}
	return int(n)
}

func (g *instanceGen) array(obj jsonv.Object, depth int) any {
	lo, hi := 0, 3
	if v := intOf(obj, "minItems"); v >= 0 {
		lo = v
	}
	if v := intOf(obj, "maxItems"); v >= 0 {
		hi = min(v, lo+3)
	} else {
		hi = lo + 3
	}
	if depth > 4 {
		hi = lo
	}
	items, _ := obj.Get("items")
	n := lo + g.r.IntN(hi-lo+1)
	out := []any{}
	seen := map[string]bool{}
	for tries := 0; len(out) < n && tries < 100; tries++ {
		v := g.value(items, depth+1)
		key := fmt.Sprint(v)
		if isTrue(obj, "uniqueItems") && seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, v)
	}
	return out
}

func isTrue(obj jsonv.Object, k string) bool {
	v, _ := obj.Get(k)
	b, _ := v.(bool)
	return b
}

func (g *instanceGen) object(obj jsonv.Object, depth int) any {
	out := map[string]any{}
	props, _ := obj.Object("properties")
	required := obj.Strings("required")
	for _, p := range props {
		if slices.Contains(required, p.Key) || depth < 4 && g.r.IntN(2) == 0 {
			out[p.Key] = g.value(p.Value, depth+1)
		}
	}
	ap, hasAP := obj.Get("additionalProperties")
	if len(props) == 0 && ap != false && depth < 4 {
		for range g.r.IntN(3) {
			if hasAP {
				out["k"+g.letters(1, 6)] = g.value(ap, depth+1)
			} else {
				out["k"+g.letters(1, 6)] = g.any(depth + 1)
			}
		}
	}
	return out
}

func (g *instanceGen) scalar() any {
	switch g.r.IntN(3) {
	case 0:
		return g.letters(0, 6)
	case 1:
		return g.r.Int64N(1000)
	}
	return g.r.IntN(2) == 0
}

// any is a random JSON value, for a schema that takes any.
func (g *instanceGen) any(depth int) any {
	if depth > 3 {
		return g.scalar()
	}
	switch g.r.IntN(5) {
	case 0:
		return nil
	case 1:
		return []any{g.scalar(), g.any(depth + 1)}
	case 2:
		return map[string]any{"a": g.any(depth + 1)}
	}
	return g.scalar()
}

// plain is a jsonv value as encoding/json holds one.
func plain(v any) any {
	switch v := v.(type) {
	case jsonv.Object:
		m := map[string]any{}
		for _, e := range v {
			m[e.Key] = plain(e.Value)
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = plain(e)
		}
		return out
	}
	return v
}

// roundtripMain serves a tool for each case that returns its arguments
// as its structured result, and calls each with every instance through
// the generated client rt, reading the instance into the method's input
// type with encoding/json. It prints a line a call: what the client sent,
// and how the value that came back differs, if it does.
const roundtripMain = `package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"reflect"
	"sort"
	"sync"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"example.com/e2e/rt"
)

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	var cases map[string][]json.RawMessage
	if err := json.Unmarshal(data, &cases); err != nil {
		panic(err)
	}
	var mu sync.Mutex
	var sent []byte
	srv := mcpserver.New(mcprt.Identity{Name: "echo", Version: "1"})
	var names []string
	for name := range cases {
		names = append(names, name)
		srv.AddTools(mcprt.Tool{Name: name, InputSchema: []byte(` + "`" + `{"type":"object"}` + "`" + `), Handler: func(_ context.Context, args []byte) mcprt.Result {
			mu.Lock()
			sent = append([]byte(nil), args...)
			mu.Unlock()
			return mcprt.StructuredResult(args)
		}})
	}
	sort.Strings(names)
	hs := httptest.NewServer(srv.HTTPHandler())
	defer hs.Close()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "rt", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL}, nil)
	if err != nil {
		panic(err)
	}
	c := reflect.ValueOf(rt.NewClient(cs))
	rawType := reflect.TypeOf(json.RawMessage(nil))
	isRaw := func(p cmp.Path) bool { return p.Last().Type() == rawType }
	notRaw := func(p cmp.Path) bool { return !isRaw(p) }
	rawEqual := cmp.Comparer(func(a, b json.RawMessage) bool {
		if len(a) == 0 || len(b) == 0 {
			return len(a) == len(b)
		}
		var x, y any
		if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
			return bytes.Equal(a, b)
		}
		return reflect.DeepEqual(x, y)
	})
	for _, name := range names {
		m := c.MethodByName(methods[name])
		for _, inst := range cases[name] {
			in := reflect.New(m.Type().In(1))
			rec := map[string]string{"tool": name}
			if err := json.Unmarshal(inst, in.Interface()); err != nil {
				rec["err"] = fmt.Sprintf("encoding/json cannot read %s: %v", inst, err)
			} else {
				res := m.Call([]reflect.Value{reflect.ValueOf(ctx), in.Elem()})
				mu.Lock()
				rec["sent"] = string(sent)
				mu.Unlock()
				if err, _ := res[1].Interface().(error); err != nil {
					rec["err"] = err.Error()
				} else {
					rec["diff"] = cmp.Diff(in.Elem().Interface(), res[0].Interface(), cmp.FilterPath(isRaw, rawEqual), cmp.FilterPath(notRaw, cmpopts.EquateEmpty()))
				}
			}
			line, _ := json.Marshal(rec)
			fmt.Println(string(line))
		}
	}
}
`
