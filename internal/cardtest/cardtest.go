// Package cardtest checks Server Cards against card.schema.json, this
// project's JSON Schema (2020-12) of the card the SEP-2127 draft
// describes, with formats asserted. Only tests import it.
package cardtest

import (
	"bytes"
	_ "embed"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed card.schema.json
var schemaJSON []byte

// schemaURL is where the compiler finds the schema; nothing is fetched.
const schemaURL = "mem:///card.schema.json"

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	return c.Compile(schemaURL)
})

// Validate reports whether doc, a card's JSON, is valid by the schema:
// nil, or an error naming each place it is not.
func Validate(doc []byte) error {
	s, err := compiled()
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return err
	}
	return s.Validate(v)
}
