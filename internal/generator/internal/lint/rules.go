package lint

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/internal/generator/internal/jsonv"
)

// The rules, profile by profile, each read from the provider's own
// documentation; where a rule is known only from the errors the API
// returns, the comment says so and names where the error was reported.
//
// OpenAI, function calling with strict: true ("Structured Outputs",
// https://platform.openai.com/docs/guides/structured-outputs#supported-schemas,
// and https://platform.openai.com/docs/guides/function-calling for
// strict and the function name):
//   - the root is an object, not anyOf;
//   - every object sets additionalProperties: false;
//   - every property is listed in required (an optional one is written as
//     a union with null and still required);
//   - allOf, not, dependentRequired, dependentSchemas, if, then and else
//     are not supported; nor are the keywords the guide lists as not
//     supported: patternProperties, unevaluatedProperties, propertyNames,
//     minProperties, maxProperties, unevaluatedItems, contains,
//     minContains, maxContains, uniqueItems;
//   - string formats: date-time, time, date, duration, email, hostname,
//     ipv4, ipv6, uuid;
//   - at most 10 levels of nesting, and 1000 enum values in all;
//   - "default" is refused ("'default' is not permitted", reported in
//     dotnet/extensions#6196 and 567-labs/instructor#1074), and so is a
//     schema without a type ("schema must have a 'type' key",
//     can1357/oh-my-pi#211), though neither is in the guide's text;
//   - function names match ^[a-zA-Z0-9_-]{1,64}$.
//
// Gemini, FunctionDeclaration.parameters (the Schema object,
// https://ai.google.dev/api/caching#Schema and #FunctionDeclaration; Vertex
// AI: https://cloud.google.com/vertex-ai/docs/reference/rest/v1/Schema): a
// "select subset of an OpenAPI 3.0 schema object" with the fields type,
// format, title, description, nullable, enum, maxItems, minItems,
// properties, required, minProperties, maxProperties, minLength, maxLength,
// pattern, example, anyOf, propertyOrdering, default, items, minimum and
// maximum. Any other field is an unknown field of the request, which the
// API refuses (400 INVALID_ARGUMENT): no $ref or $defs, no
// additionalProperties, no exclusive bounds, no const. type is one name (a
// nullable value says nullable: true, not a list of types); enum holds
// strings. Function names start with a letter or an underscore and hold
// a-z, A-Z, 0-9, _, ., : and -, at most 64; parameter names (the root's
// properties) start with a letter or an underscore and hold a-z, A-Z, 0-9
// and _, at most 64 (Vertex AI's FunctionDeclaration). The newer
// parametersJsonSchema field takes JSON Schema instead; this profile is
// the parameters field, which clients still send.
//
// Anthropic, tool input_schema
// (https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools):
// a JSON Schema object; the API refuses oneOf, allOf and anyOf at the top
// level ("input_schema does not support oneOf, allOf, or anyOf at the top
// level", anthropics/claude-code#5319), and the root's type must be
// object. Tool names match ^[a-zA-Z0-9_-]{1,64}$.
//
// Anthropic, strict: true (grammar-constrained tool use,
// https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use
// and its JSON Schema limitations,
// https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations):
// everything of the non-strict profile; additionalProperties: false on
// every object; no recursive schema; no minimum, maximum, exclusive
// bounds or multipleOf; no minLength or maxLength; no array constraint
// but minItems of 0 or 1; string formats date-time, time, date, duration,
// email, hostname, uri, ipv4, ipv6, uuid; enum values that are strings,
// numbers, booleans or null; simple patterns (no backreferences or
// lookaround); local references only, and none inside allOf.

var (
	// openAIName and anthropicName are the documented function and tool
	// name rules; geminiName is Gemini's function name rule, geminiParam
	// its parameter name rule.
	openAIName    = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	anthropicName = openAIName
	geminiName    = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`)
	geminiParam   = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`)

	openAIFormats    = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
	anthropicFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}

	openAIUnsupported = []string{"allOf", "not", "dependentRequired", "dependentSchemas", "if", "then", "else",
		"patternProperties", "unevaluatedProperties", "propertyNames", "minProperties", "maxProperties",
		"unevaluatedItems", "contains", "minContains", "maxContains", "uniqueItems", "default"}

	geminiFields = []string{"type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
		"properties", "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern",
		"example", "anyOf", "propertyOrdering", "default", "items", "minimum", "maximum"}

	anthropicStrictUnsupported = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
		"minLength", "maxLength", "maxItems", "uniqueItems"}

	// lookaround and backreferences are what a simple pattern lacks.
	complexPattern = regexp.MustCompile(`\(\?<?[=!]|\\[1-9]|\\k<`)
)

const (
	openAIMaxDepth = 10
	openAIMaxEnums = 1000
)

// name checks the tool's name.
func (c *checker) name(name string) {
	if !openAIName.MatchString(name) {
		c.report(OpenAIStrict, nil, "name", "tool name %q: function names are 1 to 64 of a-z A-Z 0-9 _ -; rename it with name=", name)
	}
	if !geminiName.MatchString(name) {
		c.report(Gemini, nil, "name", "tool name %q: function names start with a letter or _ and hold up to 64 of a-z A-Z 0-9 _ . : -; rename it with name=", name)
	}
	for _, p := range []Profile{Anthropic, AnthropicStrict} {
		if !anthropicName.MatchString(name) {
			c.report(p, nil, "name", "tool name %q: tool names are 1 to 64 of a-z A-Z 0-9 _ -; rename it with name=", name)
		}
	}
}

// node applies every profile's rules to one schema.
func (c *checker) node(path []string, s jsonv.Object, depth int) {
	if len(path) == 0 {
		c.rootRules(s)
	}
	c.openAI(path, s, depth)
	c.gemini(path, s)
	c.anthropicStrict(path, s)
}

// rootRules checks what every profile asks of the root.
func (c *checker) rootRules(s jsonv.Object) {
	if !slices.Equal(s.Types(), []string{"object"}) {
		for _, p := range Profiles() {
			c.report(p, nil, "type", "the input schema's type must be object")
		}
	}
	for _, key := range []string{"anyOf", "oneOf", "allOf"} {
		if s.Has(key) {
			for _, p := range []Profile{OpenAIStrict, Anthropic, AnthropicStrict} {
				c.report(p, nil, key, "%s at the top level of the input schema is refused; move the alternatives into a property", key)
			}
		}
	}
}

func (c *checker) openAI(path []string, s jsonv.Object, depth int) {
	if isObject(s) {
		closedObject(c, OpenAIStrict, path, s)
		required := s.Strings("required")
		props, _ := s.Object("properties")
		for _, p := range props {
			if !slices.Contains(required, p.Key) {
				c.report(OpenAIStrict, append(slices.Clip(path), "properties", p.Key), "required",
					"optional property: strict mode needs every property in required (an optional one as a union with null); make it required, or call the tool without strict")
			}
		}
		if depth > openAIMaxDepth {
			c.report(OpenAIStrict, path, "properties", "objects nested %d deep: strict mode allows %d levels", depth, openAIMaxDepth)
		}
	}
	for _, key := range openAIUnsupported {
		if s.Has(key) {
			c.report(OpenAIStrict, path, key, "%s is not supported in strict mode%s", key, fixFor(key))
		}
	}
	if f := s.String("format"); f != "" && !slices.Contains(openAIFormats, f) {
		c.report(OpenAIStrict, path, "format", "format %q is not supported in strict mode (supported: %s)", f, strings.Join(openAIFormats, ", "))
	}
	if !s.Has("type") && !s.Has("anyOf") && !s.Has("$ref") && !s.Has("enum") && !s.Has("const") {
		c.report(OpenAIStrict, path, "type", "a schema without a type (any JSON value) is refused in strict mode; give the field a concrete type")
	}
	c.enums += len(s.Array("enum"))
}

// fixFor says how to avoid a keyword mcpgen writes from a tag.
func fixFor(key string) string {
	switch key {
	case "default":
		return "; drop default=, or publish it in the description with -portable"
	case "uniqueItems":
		return "; drop uniqueItems from the tag, or call the tool without strict"
	}
	return ""
}

// closedObject reports an object without additionalProperties: false, for
// a profile that needs it.
func closedObject(c *checker, p Profile, path []string, s jsonv.Object) {
	ap, ok := s.Get("additionalProperties")
	switch {
	case ap == false:
	case !ok || ap == true:
		c.report(p, path, "additionalProperties", "objects must set additionalProperties: false")
	default:
		c.report(p, path, "additionalProperties", "a map (an object with additionalProperties holding a schema) cannot be expressed; use a list of key-value objects")
	}
}

func (c *checker) gemini(path []string, s jsonv.Object) {
	for _, m := range s {
		if !slices.Contains(geminiFields, m.Key) {
			c.report(Gemini, path, m.Key, "%s is not a field of Gemini's Schema, which refuses unknown fields%s", m.Key, geminiFix(m.Key))
			if m.Key == "additionalProperties" && m.Value == false && c.on(Gemini) {
				c.findings[len(c.findings)-1].Closed = true
			}
		}
	}
	if t, _ := s.Get("type"); t != nil {
		if _, one := t.(string); !one {
			c.report(Gemini, path, "type", "type must be one name; a nullable value says nullable: true")
		}
	}
	for _, v := range s.Array("enum") {
		if _, ok := v.(string); !ok {
			c.report(Gemini, path, "enum", "enum values must be strings, not %s", jsonv.Text(v))
			break
		}
	}
	if len(path) == 0 {
		props, _ := s.Object("properties")
		for _, p := range props {
			if !geminiParam.MatchString(p.Key) {
				c.report(Gemini, []string{"properties", p.Key}, "properties",
					"parameter name %q: names start with a letter or _ and hold up to 64 of a-z A-Z 0-9 _; rename the json tag", p.Key)
			}
		}
	}
}

// geminiFix says how to avoid a field mcpgen writes.
func geminiFix(key string) string {
	switch key {
	case "additionalProperties":
		// Only a map's reaches the author: the closed objects mcpgen
		// writes are said once for the run (Finding.Closed).
		return "; a map cannot be expressed, use a list of key-value objects"
	case "exclusiveMinimum", "exclusiveMaximum":
		return "; on an integer, -portable writes the inclusive bound"
	case "$ref", "$defs":
		return "; a recursive type cannot be expressed"
	case "const":
		return "; -portable writes an enum of one value"
	case "contentEncoding":
		return "; -portable moves it into the description"
	}
	return ""
}

func (c *checker) anthropicStrict(path []string, s jsonv.Object) {
	if isObject(s) {
		closedObject(c, AnthropicStrict, path, s)
	}
	for _, key := range anthropicStrictUnsupported {
		if s.Has(key) {
			c.report(AnthropicStrict, path, key, "%s is not supported in strict mode; the constraint is still checked by the server, so say it in the description", key)
		}
	}
	if n, ok := s.Get("minItems"); ok && jsonv.Text(n) != "0" && jsonv.Text(n) != "1" {
		c.report(AnthropicStrict, path, "minItems", "minItems %s: strict mode supports only 0 or 1", jsonv.Text(n))
	}
	if f := s.String("format"); f != "" && !slices.Contains(anthropicFormats, f) {
		c.report(AnthropicStrict, path, "format", "format %q is not supported in strict mode (supported: %s)", f, strings.Join(anthropicFormats, ", "))
	}
	for _, v := range s.Array("enum") {
		if _, complex := v.(jsonv.Object); complex || isArray(v) {
			c.report(AnthropicStrict, path, "enum", "enum values must be strings, numbers, booleans or null")
			break
		}
	}
	if p := s.String("pattern"); complexPattern.MatchString(p) {
		c.report(AnthropicStrict, path, "pattern", "pattern %q uses lookaround or a backreference, which strict mode does not support", p)
	}
	c.references(path, s)
}

func isArray(v any) bool {
	_, ok := v.([]any)
	return ok
}

// references checks a $ref for strict Anthropic: local, not in allOf,
// and not recursive.
func (c *checker) references(path []string, s jsonv.Object) {
	ref := s.String("$ref")
	if ref == "" {
		return
	}
	switch {
	case !strings.HasPrefix(ref, "#"):
		c.report(AnthropicStrict, path, "$ref", "external reference %q: strict mode resolves only references inside the schema", ref)
	case slices.Contains(path, "allOf"):
		c.report(AnthropicStrict, path, "$ref", "a reference inside allOf is not supported in strict mode")
	case recursive(c.root, ref, nil):
		c.report(AnthropicStrict, path, "$ref", "recursive schema (%s refers back to itself): strict mode does not support recursion", ref)
	}
}

// recursive reports whether following ref from root can lead back to it.
func recursive(root jsonv.Object, ref string, seen []string) bool {
	if ref == "#" || slices.Contains(seen, ref) {
		return true
	}
	target := resolve(root, ref)
	if target == nil {
		return false
	}
	seen = append(seen, ref)
	found := false
	visit(target, func(s jsonv.Object) {
		if r := s.String("$ref"); r != "" && !found {
			found = recursive(root, r, seen)
		}
	})
	return found
}

// resolve finds a local reference "#/$defs/Name" in root.
func resolve(root jsonv.Object, ref string) jsonv.Object {
	cur := root
	for tok := range strings.SplitSeq(strings.TrimPrefix(ref, "#/"), "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		next, ok := cur.Object(tok)
		if !ok {
			return nil
		}
		cur = next
	}
	return cur
}

// visit calls f on s and every schema inside it.
func visit(s jsonv.Object, f func(jsonv.Object)) {
	f(s)
	for _, sub := range subschemas(s) {
		visit(sub.schema, f)
	}
}

// totals checks the limits on the whole schema.
func (c *checker) totals() {
	if c.enums > openAIMaxEnums {
		c.report(OpenAIStrict, nil, "enum", "%d enum values in all: strict mode allows %d", c.enums, openAIMaxEnums)
	}
}

// Describe writes a finding's place in the schema as a property path:
// "changes[].new_price", "$defs.Node.children"; "" for the root.
func Describe(path []string) string {
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		switch tok := path[i]; tok {
		case "properties", "$defs", "definitions", "patternProperties", "dependentSchemas":
			if i+1 < len(path) {
				if tok != "properties" {
					b.WriteString(sep(&b) + tok)
				}
				b.WriteString(sep(&b) + path[i+1])
				i++
			}
		case "items":
			b.WriteString("[]")
		case "additionalProperties":
			b.WriteString(".*")
		case "anyOf", "oneOf", "allOf", "prefixItems":
			if i+1 < len(path) {
				fmt.Fprintf(&b, "(%s %s)", tok, path[i+1])
				i++
			}
		default:
			fmt.Fprintf(&b, "(%s)", tok)
		}
	}
	return b.String()
}

func sep(b *strings.Builder) string {
	if b.Len() == 0 {
		return ""
	}
	return "."
}
