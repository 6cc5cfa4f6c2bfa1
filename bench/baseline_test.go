package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/mcpgen/mcpgen/bench/pricing"
)

// callRequest returns the reference request: tools/call of
// bulk_price_update with n changes, every other one with a date.
func callRequest(id, n int) []byte { return pricing.CallRequest(id, n) }

// wantCallText is the text every path answers the reference request with.
const wantCallText = "updated 10 prices in emea"

// The baseline "c": what a careful hand-written server does with
// encoding/json. It decodes the envelope, then the arguments into structs
// with pointer fields (to tell absent from zero), rejects unknown fields,
// checks required fields and enums by hand and marshals the response.
type (
	baseEnvelope struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params"`
	}
	baseCallParams struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	baseChange struct {
		ProductID     *string    `json:"product_id"`
		NewPrice      *float64   `json:"new_price"`
		EffectiveFrom *time.Time `json:"effective_from"`
	}
	baseArgs struct {
		Region   *string      `json:"region"`
		Rounding *string      `json:"rounding"`
		Changes  []baseChange `json:"changes"`
	}
	baseContent struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	baseResult struct {
		Content []baseContent `json:"content"`
		IsError bool          `json:"isError,omitempty"`
	}
	baseResponse struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  baseResult      `json:"result"`
	}
)

// baselineServe answers one tools/call request.
func baselineServe(req []byte) ([]byte, error) {
	var env baseEnvelope
	if err := json.Unmarshal(req, &env); err != nil {
		return nil, err
	}
	if env.JSONRPC != "2.0" || env.Method != "tools/call" || env.ID == nil {
		return nil, errors.New("not a tools/call request")
	}
	var p baseCallParams
	if err := json.Unmarshal(env.Params, &p); err != nil {
		return nil, err
	}
	if p.Name != "bulk_price_update" {
		return nil, fmt.Errorf("unknown tool %q", p.Name)
	}
	res := baseResult{Content: []baseContent{{Type: "text"}}}
	in, err := baselineArgs(p.Arguments)
	if err == nil {
		res.Content[0].Text, err = pricing.Apply(in)
	}
	if err != nil {
		res.Content[0].Text, res.IsError = err.Error(), true
	}
	return json.Marshal(baseResponse{JSONRPC: "2.0", ID: env.ID, Result: res})
}

// baselineArgs decodes and checks the arguments of bulk_price_update.
func baselineArgs(raw json.RawMessage) (pricing.BulkPriceUpdateInput, error) {
	var a baseArgs
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(&a); err != nil {
		return pricing.BulkPriceUpdateInput{}, err
	}
	var in pricing.BulkPriceUpdateInput
	switch {
	case a.Region == nil:
		return in, errors.New("region: required property is missing")
	case !slices.Contains([]string{"emea", "amer", "apac"}, *a.Region):
		return in, fmt.Errorf("region: %q is not one of the regions", *a.Region)
	case a.Rounding != nil && !slices.Contains([]string{"none", "nearest_cent", "nearest_unit"}, *a.Rounding):
		return in, fmt.Errorf("rounding: %q is not one of the modes", *a.Rounding)
	case a.Changes == nil:
		return in, errors.New("changes: required property is missing")
	}
	in.Region = pricing.Region(*a.Region)
	if a.Rounding != nil {
		in.Rounding = pricing.Rounding(*a.Rounding)
	}
	in.Changes = make([]pricing.PriceChange, len(a.Changes))
	for i, c := range a.Changes {
		switch {
		case c.ProductID == nil:
			return in, fmt.Errorf("changes[%d].product_id: required property is missing", i)
		case c.NewPrice == nil:
			return in, fmt.Errorf("changes[%d].new_price: required property is missing", i)
		case *c.NewPrice < 0:
			return in, fmt.Errorf("changes[%d].new_price: must be at least 0", i)
		}
		in.Changes[i] = pricing.PriceChange{ProductID: *c.ProductID, NewPrice: *c.NewPrice, EffectiveFrom: c.EffectiveFrom}
	}
	return in, nil
}
