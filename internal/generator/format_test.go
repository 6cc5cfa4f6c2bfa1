package generator

import (
	"strings"
	"testing"
)

// formatSource has a property whose format is misspelt.
const formatSource = `package x

import "context"

// In is the input.
type In struct {
	Mail string ` + "`json:\"mail\" mcp:\"format=e-mail\"`" + ` // Address to write to
}

// Send sends mail.
//
//mcp:tool
func Send(ctx context.Context, in In) error { return nil }
`

// TestLintWarnsOfFormat checks that a misspelt format is a warning at
// the tag, naming the nearest format, in a run and in -lint, and an error
// under -strict.
func TestLintWarnsOfFormat(t *testing.T) {
	t.Parallel()
	dir := miniModule(t, map[string]string{"a.go": formatSource})
	const warning = `a.go:7:32: warning: format "e-mail" is not one JSON Schema defines, so neither the decoder nor a client checks it; did you mean "email"?`
	for _, args := range [][]string{{"-list"}, {"-lint=anthropic"}} {
		code, _, stderr := runMain(t, dir, args...)
		if code != ExitOK || !strings.HasPrefix(stderr, warning+" (known: date-time, ") {
			t.Errorf("%s: exit %d, stderr %q; want exit 0 and the warning %s", args, code, stderr, warning)
		}
	}
	code, _, stderr := runMain(t, dir, "-lint=anthropic", "-strict")
	if code != ExitFail || !strings.HasPrefix(stderr, strings.Replace(warning, "warning: ", "", 1)) {
		t.Errorf("-lint -strict: exit %d, stderr %q; want exit 1 and the warning as an error", code, stderr)
	}
}
