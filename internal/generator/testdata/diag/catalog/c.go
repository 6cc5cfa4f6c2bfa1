package c

import "context"

// Format is a format.
type Format string

// Unbound has a variable with no parameter and a parameter with no
// variable.
//
//mcp:resource uri=kb://notes/{id}/{fmt}
func Unbound(ctx context.Context, id int, format Format) (string, error) { return "", nil }

// Vars are the variables of Fields.
type Vars struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
}

// Fields has a field that is no variable.
//
//mcp:resource uri=kb://items/{id}
func Fields(ctx context.Context, v Vars) (string, error) { return "", nil }

// Static takes a parameter its uri has no variable for.
//
//mcp:resource uri=kb://static
func Static(ctx context.Context, id int) (string, error) { return "", nil }

// Nothing returns nothing.
//
//mcp:resource uri=kb://nothing
func Nothing(ctx context.Context) error { return nil }

// Twice serves the same uri as Nothing2.
//
//mcp:resource uri=kb://twice
func Twice() string { return "" }

// Twice2 serves it too.
//
//mcp:resource uri=kb://twice
func Twice2() string { return "" }

// Listy takes a list, which a prompt argument cannot be.
//
//mcp:prompt
func Listy(words []string) string { return "" }

// Count returns a number, which is no prompt.
//
//mcp:prompt
func Count(ctx context.Context) (int, error) { return 0, nil }

//mcp:prompt
func Undescribed() string { return "" }

// Both is a tool and a prompt.
//
//mcp:tool
//mcp:prompt
func Both() string { return "" }

// Styled completes with the wrong function, and with none.
//
//mcp:prompt
//mcp:param style complete=BadCompleter
//mcp:param tone complete=CompleteTon
func Styled(style, tone string) string { return "" }

// BadCompleter has the wrong shape.
func BadCompleter(value string) []string { return nil }

// CompleteTone completes tones.
func CompleteTone(ctx context.Context, value string, args map[string]string) ([]string, error) {
	return nil, nil
}

// In is a tool's input with a completer, which tools do not have.
type In struct {
	Name string `json:"name" mcp:"complete=CompleteTone"` // Name
}

// Tooled is a tool.
//
//mcp:tool
func Tooled(in In) error { return nil }

// Sized is a template with a size.
//
//mcp:resource uri=kb://sized/{id} size=10
func Sized(id string) string { return "" }

// Inner is nested in HeaderIn.
type Inner struct {
	X string `json:"x" mcp:"header=X"` // X
}

// HeaderIn has headers where they cannot be.
type HeaderIn struct {
	Amount float64 `json:"amount" mcp:"header=Amount"` // A number
	Region string  `json:"region" mcp:"header=Region"` // A region
	Zone   string  `json:"zone" mcp:"header=region"`   // A zone
	Inner  Inner   `json:"inner"`                      // Nested
}

// Headed has a tool input with headers.
//
//mcp:tool
func Headed(in HeaderIn) error { return nil }

// HeadedPrompt has a header on a prompt argument.
//
//mcp:prompt
//mcp:param topic header=Topic
func HeadedPrompt(topic string) string { return "" }

// Lookup is a resource returning a comma-ok pair.
//
//mcp:resource uri=file:///lookup
func Lookup(ctx context.Context) (string, bool) { return "", false }

// Clerk is a type with completer methods.
type Clerk struct{}

// Names completes names.
func (Clerk) Names(ctx context.Context, value string, args map[string]string) ([]string, error) {
	return nil, nil
}

// Short has the wrong shape for a completer.
func (*Clerk) Short(value string) []string { return nil }

// Greet is a function completing with a method.
//
//mcp:prompt
//mcp:param who complete=Names
func Greet(who string) string { return who }

// Counter is a type without the method.
type Counter struct{}

// Tally completes with a method of another type, and with one of the
// wrong shape.
//
//mcp:prompt
//mcp:param a complete=Names
//mcp:param b complete=Short
func (c *Counter) Tally(a, b string) string { return a + b }

// Check completes with a method of the wrong shape.
//
//mcp:prompt
//mcp:param a complete=Short
func (c *Clerk) Check(a string) string { return a }
