// Package lint checks a tool's input schema against what model providers
// accept in their own tool definitions. MCP publishes JSON Schema 2020-12,
// but an MCP client hands the schema to a model provider, and each accepts
// a subset: a schema a provider rejects makes the client fail or drop the
// tool. mcpgen -lint runs these checks; rules.go states each provider's
// rules with the documentation it is read from.
//
// The package also writes the portable form of a schema (Portable): the
// same schema with what some provider rejects rewritten where the meaning
// stays the same.
package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/internal/generator/internal/jsonv"
)

// Profile is one provider's rules for tool input schemas.
type Profile string

// The profiles. See rules.go for what each accepts and where it is
// documented.
const (
	OpenAIStrict    Profile = "openai-strict"    // OpenAI function calling with strict: true
	Gemini          Profile = "gemini"           // Gemini FunctionDeclaration.parameters
	Anthropic       Profile = "anthropic"        // Anthropic tool input_schema
	AnthropicStrict Profile = "anthropic-strict" // Anthropic tool input_schema with strict: true
)

// Profiles returns every profile, in the order reports list them.
func Profiles() []Profile {
	return []Profile{OpenAIStrict, Gemini, Anthropic, AnthropicStrict}
}

// ParseProfiles reads a comma-separated list of profile names; an empty
// list is every profile.
func ParseProfiles(list string) ([]Profile, error) {
	if list == "" {
		return Profiles(), nil
	}
	var out []Profile
	for name := range strings.SplitSeq(list, ",") {
		p := Profile(strings.TrimSpace(name))
		if !slices.Contains(Profiles(), p) {
			return nil, fmt.Errorf("unknown profile %q%s (valid: %s)", p, nearestProfile(string(p)), Names())
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// nearestProfile returns `; did you mean "x"?` for the profile name
// nearest to name, or "". A name that is a profile's first word, as
// "openai" is of "openai-strict", counts as near, since edit distance
// alone finds the words too far apart.
func nearestProfile(name string) string {
	var names []string
	for _, p := range Profiles() {
		names = append(names, string(p))
	}
	if s := annotations.DidYouMean(name, names); s != "" {
		return s
	}
	lower := strings.ToLower(name)
	for _, n := range names {
		if strings.HasPrefix(n, lower+"-") || strings.HasPrefix(lower, n+"-") {
			return fmt.Sprintf("; did you mean %q?", n)
		}
	}
	return ""
}

// Names lists the profiles' names, comma-separated.
func Names() string {
	var names []string
	for _, p := range Profiles() {
		names = append(names, string(p))
	}
	return strings.Join(names, ", ")
}

// Finding is one thing a profile rejects in a tool's definition.
type Finding struct {
	Profile Profile
	// Path leads from the schema's root to the schema holding Keyword,
	// as JSON pointer tokens ("properties", "changes", "items", ...);
	// empty for the root or for the tool's name.
	Path    []string
	Keyword string // the keyword rejected, or "name" for the tool's name
	Msg     string // what is wrong and what to do, without the profile's name
	// Closed marks Gemini's refusal of additionalProperties: false, which
	// mcpgen writes on every object of every schema: nothing in the Go
	// code changes it, so callers say it once rather than per object.
	Closed bool
}

// Rule names the finding as nolint= silences it: PROFILE:KEYWORD, as
// anthropic-strict:minimum.
func (f Finding) Rule() string { return string(f.Profile) + ":" + f.Keyword }

// DestructiveRule is the rule of the warning on a tool that is neither
// read-only nor says whether it is destructive, which every client then
// takes for destructive. It is no profile's: -lint always checks it.
const DestructiveRule = "hints:destructive"

// CheckRule says what is wrong with a rule written in nolint=, or returns
// nil. The keyword is any keyword a schema may hold, so only its profile
// is checked.
func CheckRule(rule string) error {
	profile, keyword, ok := strings.Cut(rule, ":")
	switch {
	case !ok || profile == "" || keyword == "":
		return fmt.Errorf("want PROFILE:KEYWORD, as a -lint warning ends, such as anthropic-strict:minimum")
	case profile == "hints":
		if rule != DestructiveRule {
			return fmt.Errorf("the hints rule is %s", DestructiveRule)
		}
	case !slices.Contains(Profiles(), Profile(profile)):
		return fmt.Errorf("unknown profile %q%s (valid: %s, hints)", profile, nearestProfile(profile), Names())
	}
	return nil
}

// Check returns what the profiles reject in the tool named name with the
// input schema schema, in schema order.
func Check(name string, schema []byte, profiles []Profile) ([]Finding, error) {
	v, err := jsonv.Parse(schema)
	if err != nil {
		return nil, fmt.Errorf("input schema of %s: %w", name, err)
	}
	root, _ := v.(jsonv.Object)
	c := &checker{profiles: profiles, root: root}
	c.name(name)
	c.walk(nil, root, 1)
	c.totals()
	return c.findings, nil
}

// checker collects the findings of one schema.
type checker struct {
	profiles []Profile
	root     jsonv.Object
	findings []Finding
	enums    int // enum values in the whole schema, for OpenAI's limit
}

func (c *checker) on(p Profile) bool { return slices.Contains(c.profiles, p) }

func (c *checker) report(p Profile, path []string, keyword, format string, args ...any) {
	if c.on(p) {
		c.findings = append(c.findings, Finding{Profile: p, Path: slices.Clone(path), Keyword: keyword, Msg: fmt.Sprintf(format, args...)})
	}
}

// walk checks the schema s at path and every schema inside it; depth
// counts the objects from the root, the root being 1.
func (c *checker) walk(path []string, s jsonv.Object, depth int) {
	c.node(path, s, depth)
	if isObject(s) {
		depth++
	}
	for _, sub := range subschemas(s) {
		c.walk(append(slices.Clip(path), sub.path...), sub.schema, depth)
	}
}

// sub is a schema inside another, with the tokens that lead to it.
type sub struct {
	path   []string
	schema jsonv.Object
}

// subschemas returns the schemas directly inside s, in document order.
func subschemas(s jsonv.Object) []sub {
	var out []sub
	for _, m := range s {
		switch m.Key {
		case "properties", "$defs", "definitions", "patternProperties", "dependentSchemas":
			obj, _ := m.Value.(jsonv.Object)
			for _, p := range obj {
				if ps, ok := p.Value.(jsonv.Object); ok {
					out = append(out, sub{[]string{m.Key, p.Key}, ps})
				}
			}
		case "items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames":
			if ps, ok := m.Value.(jsonv.Object); ok {
				out = append(out, sub{[]string{m.Key}, ps})
			}
		case "anyOf", "oneOf", "allOf", "prefixItems":
			arr, _ := m.Value.([]any)
			for i, x := range arr {
				if ps, ok := x.(jsonv.Object); ok {
					out = append(out, sub{[]string{m.Key, fmt.Sprint(i)}, ps})
				}
			}
		}
	}
	return out
}

// isObject reports whether s describes objects.
func isObject(s jsonv.Object) bool {
	return slices.Contains(s.Types(), "object") || s.Has("properties")
}
