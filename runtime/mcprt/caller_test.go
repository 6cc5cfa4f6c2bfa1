package mcprt

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

type fakeCaller struct{ progress, logs int }

func (f *fakeCaller) Progress(ctx context.Context, p, t float64, m string) error {
	f.progress++
	return nil
}

func (f *fakeCaller) Log(ctx context.Context, l LogLevel, logger string, data any) error {
	f.logs++
	return nil
}

func (f *fakeCaller) Elicit(ctx context.Context, m string, s []byte) (ElicitResult, error) {
	return ElicitResult{Action: "accept", Content: []byte(`{}`)}, nil
}

func (f *fakeCaller) ElicitURL(ctx context.Context, m, u string) (ElicitResult, string, error) {
	return ElicitResult{Action: "accept"}, "id-" + u, nil
}

func (f *fakeCaller) Sample(ctx context.Context, r SampleRequest) (SampleResult, error) {
	return SampleResult{Role: "assistant", Model: "m"}, nil
}

func (f *fakeCaller) ListRoots(ctx context.Context) ([]Root, error) {
	return []Root{{URI: "file:///work", Name: "work"}}, nil
}

func TestCallerAbsent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	if err := Progress(ctx, 1, 2, ""); err != nil {
		t.Errorf("Progress without caller = %v, want nil", err)
	}
	if err := Log(ctx, LevelInfo, "", "x"); !errors.Is(err, ErrNoCaller) {
		t.Errorf("Log without caller = %v, want ErrNoCaller", err)
	}
	if _, err := Elicit(ctx, "m", nil); !errors.Is(err, ErrNoCaller) {
		t.Errorf("Elicit without caller = %v, want ErrNoCaller", err)
	}
	if _, _, err := ElicitURL(ctx, "m", "u"); !errors.Is(err, ErrNoCaller) {
		t.Errorf("ElicitURL without caller = %v, want ErrNoCaller", err)
	}
	if _, err := Sample(ctx, SampleRequest{}); !errors.Is(err, ErrNoCaller) {
		t.Errorf("Sample without caller = %v, want ErrNoCaller", err)
	}
	if _, err := ListRoots(ctx); !errors.Is(err, ErrNoCaller) {
		t.Errorf("ListRoots without caller = %v, want ErrNoCaller", err)
	}
}

func TestCallerPresent(t *testing.T) {
	t.Parallel()
	f := &fakeCaller{}
	ctx := WithCaller(context.Background(), f)
	_ = Progress(ctx, 1, 2, "")
	_ = Log(ctx, LevelInfo, "", "x")
	if f.progress != 1 || f.logs != 1 {
		t.Errorf("caller saw %d progress, %d logs; want 1, 1", f.progress, f.logs)
	}
	if r, err := Elicit(ctx, "m", nil); err != nil || r.Action != "accept" {
		t.Errorf("Elicit = %+v, %v", r, err)
	}
	if r, id, err := ElicitURL(ctx, "m", "https://x"); err != nil || r.Action != "accept" || id != "id-https://x" {
		t.Errorf("ElicitURL = %+v, %q, %v", r, id, err)
	}
	if r, err := Sample(ctx, SampleRequest{}); err != nil || r.Model != "m" {
		t.Errorf("Sample = %+v, %v", r, err)
	}
	if r, err := ListRoots(ctx); err != nil || len(r) != 1 || r[0].URI != "file:///work" {
		t.Errorf("ListRoots = %+v, %v", r, err)
	}
}

// TestURLElicitationRequired: the error names the page, carries a fresh
// id each time, and survives in the failed result ErrorResult makes.
func TestURLElicitationRequired(t *testing.T) {
	t.Parallel()
	err := URLElicitationRequired("Sign in", "https://example.com/login")
	if err.Error() != "Sign in: open https://example.com/login" {
		t.Errorf("Error() = %q", err.Error())
	}
	var ue *URLElicitationError
	if !errors.As(err, &ue) || len(ue.Elicitations) != 1 || ue.Elicitations[0].ID == "" {
		t.Fatalf("errors.As: %+v", ue)
	}
	var again *URLElicitationError
	if errors.As(URLElicitationRequired("Sign in", "https://example.com/login"), &again); again.Elicitations[0].ID == ue.Elicitations[0].ID {
		t.Error("two elicitations got the same id")
	}
	res := ErrorResult(fmt.Errorf("mail: %w", err))
	if !errors.As(res.Err, &again) || again != ue || !res.IsError {
		t.Errorf("ErrorResult lost the error: %+v", res)
	}
}
