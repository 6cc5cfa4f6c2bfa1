package bench

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestReferenceRequest pins the size of the reference request, about 800
// bytes, so that figures measured with it stay comparable.
func TestReferenceRequest(t *testing.T) {
	req := callRequest(7, 10)
	if n := len(req); n < 780 || n > 840 {
		t.Logf("%d", n)
		t.Fatalf("reference request is %d bytes, want about 807", n)
	}
	if !json.Valid(req) {
		t.Fatalf("reference request is not JSON: %s", req)
	}
}

// TestPathsAgree checks that every path of the comparison answers the
// reference request with the same result, so the benchmarks measure the
// same work.
func TestPathsAgree(t *testing.T) {
	paths, err := callPaths()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		resp, err := p.serve(callRequest(7, 10))
		p.close()
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		if got := callText(t, p.name, resp); got != wantCallText {
			t.Errorf("%s answered %q, want %q (response %s)", p.name, got, wantCallText, resp)
		}
	}
}

// TestBadArgumentsRejected checks that the paths that validate reject a
// region outside the enum with an isError result.
func TestBadArgumentsRejected(t *testing.T) {
	paths, err := callPaths()
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(callRequest(8, 10), []byte(`"emea"`), []byte(`"mars"`), 1)
	for _, p := range paths {
		resp, err := p.serve(bad)
		p.close()
		switch p.name {
		case "mcpgo-untyped", "gosdk-typed", "mcpgo-typed":
			// No enum to check: untyped has no validation, and the schemas
			// the SDKs infer from the Go type have no enum.
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		if !strings.Contains(string(resp), `"isError":true`) || !strings.Contains(string(resp), "mars") {
			t.Errorf("%s accepted region mars: %s", p.name, resp)
		}
	}
}

// TestListPaths checks that every tools/list path lists the 100 tools.
func TestListPaths(t *testing.T) {
	paths, err := listPaths()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		resp, err := p.serve([]byte(listToolsRequest))
		p.close()
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		var r struct {
			Result struct {
				Tools []struct{ Name string } `json:"tools"`
			} `json:"result"`
		}
		if err := json.Unmarshal(resp, &r); err != nil {
			t.Fatalf("%s: %v in %s", p.name, err, resp)
		}
		if n := len(r.Result.Tools); n != 100 || r.Result.Tools[0].Name != "tool000" {
			t.Errorf("%s listed %d tools, first %+v; want 100 from tool000", p.name, n, r.Result.Tools[:min(n, 1)])
		}
	}
}

// callText returns the text of the first content block of a tools/call
// response.
func callText(t *testing.T, name string, resp []byte) string {
	t.Helper()
	var r struct {
		Result struct {
			Content []struct{ Text string } `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal(resp, &r); err != nil || len(r.Result.Content) == 0 {
		t.Fatalf("%s: bad response %s (%v)", name, resp, err)
	}
	return r.Result.Content[0].Text
}
