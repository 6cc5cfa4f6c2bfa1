package mcprt_test

import (
	"context"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// confirm is a form written by hand in the shape mcpgen generates.
type confirm struct {
	OK    bool
	Count int
}

func (*confirm) MCPFormSchema() []byte {
	return []byte(`{"type":"object","properties":{"ok":{"type":"boolean"},"count":{"type":"integer"}},"required":["ok"]}`)
}

func (v *confirm) MCPDecodeForm(ctx context.Context, content []byte) error {
	var d mcpimpl.Decoder
	d.Start(ctx, content)
	v.decode(&d)
	return d.Finish()
}

func (v *confirm) decode(d *mcpimpl.Decoder) {
	var seen [2]bool
	if !d.Object() {
		return
	}
	for d.NextField() {
		switch string(d.Key()) {
		case "ok":
			seen[0] = true
			v.OK = d.Bool()
		case "count":
			seen[1] = true
			v.Count = int(d.Int(64))
		default:
			d.UnknownField([]string{"ok", "count"})
		}
	}
	if !seen[0] {
		d.Missing("ok")
	}
}

// answering is a Caller whose client answers every elicitation with one
// action and content, and records the schema it was sent.
type answering struct {
	mcprt.Caller
	action  string
	content string
	schema  string
}

func (a *answering) Elicit(_ context.Context, _ string, schema []byte) (mcprt.ElicitResult, error) {
	a.schema = string(schema)
	return mcprt.ElicitResult{Action: a.action, Content: []byte(a.content)}, nil
}

func TestElicitForm(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, action, content string
		want                  confirm
		wantErr               string
	}{
		{"accepted", "accept", `{"ok":true,"count":"3"}`, confirm{OK: true, Count: 3}, ""},
		{"declined", "decline", ``, confirm{}, ""},
		{"bad answer", "accept", `{"count":1.5,"okk":true}`, confirm{}, "the answer to the form does not fit it: invalid arguments:\ncount: expected integer, got 1.5\nokk: unknown property; did you mean \"ok\"?\nok: required property is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &answering{action: tt.action, content: tt.content}
			got, action, err := mcprt.ElicitForm[confirm](mcprt.WithCaller(context.Background(), c), "Sure?")
			if errText(err) != tt.wantErr {
				t.Fatalf("error %q, want %q", errText(err), tt.wantErr)
			}
			if action != tt.action || (err == nil && got != tt.want) {
				t.Errorf("got %+v, %q; want %+v, %q", got, action, tt.want, tt.action)
			}
			if c.schema != string((*confirm).MCPFormSchema(nil)) {
				t.Errorf("the client was sent the schema %s", c.schema)
			}
		})
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestElicitFormWithoutServer(t *testing.T) {
	t.Parallel()
	if _, _, err := mcprt.ElicitForm[confirm](context.Background(), "Sure?"); err != mcprt.ErrNoCaller {
		t.Errorf("ElicitForm outside a server: %v, want ErrNoCaller", err)
	}
}
