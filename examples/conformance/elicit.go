package main

import (
	"context"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// userInfoSchema is the form test_elicitation asks the user to fill in.
const userInfoSchema = `{"type":"object","properties":{` +
	`"username":{"type":"string","description":"User's response"},` +
	`"email":{"type":"string","description":"User's email address"}},` +
	`"required":["username","email"]}`

// defaultsSchema has a default value for each primitive type (SEP-1034).
const defaultsSchema = `{"type":"object","properties":{` +
	`"name":{"type":"string","description":"User name","default":"John Doe"},` +
	`"age":{"type":"integer","description":"User age","default":30},` +
	`"score":{"type":"number","description":"User score","default":95.5},` +
	`"status":{"type":"string","description":"User status","enum":["active","inactive","pending"],"default":"active"},` +
	`"verified":{"type":"boolean","description":"Verification status","default":true}}}`

// enumsSchema has the five enum forms of SEP-1330.
const enumsSchema = `{"type":"object","properties":{` +
	`"untitledSingle":{"type":"string","description":"Untitled single-select","enum":["option1","option2","option3"]},` +
	`"titledSingle":{"type":"string","description":"Titled single-select","oneOf":[` +
	`{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},{"const":"value3","title":"Third Option"}]},` +
	`"legacyEnum":{"type":"string","description":"Legacy titled enum","enum":["opt1","opt2","opt3"],` +
	`"enumNames":["Option One","Option Two","Option Three"]},` +
	`"untitledMulti":{"type":"array","description":"Untitled multi-select","items":{"type":"string","enum":["option1","option2","option3"]}},` +
	`"titledMulti":{"type":"array","description":"Titled multi-select","items":{"anyOf":[` +
	`{"const":"value1","title":"First Choice"},{"const":"value2","title":"Second Choice"},{"const":"value3","title":"Third Choice"}]}}}}`

// TestElicitation asks the user for a user name and an email address.
//
//mcp:tool name=test_elicitation
//mcp:param message description="The message to show the user"
func TestElicitation(ctx context.Context, message string) (string, error) {
	res, err := mcprt.Elicit(ctx, message, []byte(userInfoSchema))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("User response: action=%s, content=%s", res.Action, contentJSON(res)), nil
}

// TestElicitationSEP1034Defaults asks for a form whose fields all have
// default values.
//
//mcp:tool name=test_elicitation_sep1034_defaults
func TestElicitationSEP1034Defaults(ctx context.Context) (string, error) {
	return elicitCompleted(ctx, "Please review and update the form fields with defaults", defaultsSchema)
}

// TestElicitationSEP1330Enums asks for a form with every kind of enum
// field.
//
//mcp:tool name=test_elicitation_sep1330_enums
func TestElicitationSEP1330Enums(ctx context.Context) (string, error) {
	return elicitCompleted(ctx, "Please select options from the enum fields", enumsSchema)
}

func elicitCompleted(ctx context.Context, message, schema string) (string, error) {
	res, err := mcprt.Elicit(ctx, message, []byte(schema))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Elicitation completed: action=%s, content=%s", res.Action, contentJSON(res)), nil
}

// contentJSON is the submitted form data, {} when there is none.
func contentJSON(res mcprt.ElicitResult) string {
	if len(res.Content) == 0 {
		return "{}"
	}
	return string(res.Content)
}
