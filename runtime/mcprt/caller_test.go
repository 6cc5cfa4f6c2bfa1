package mcprt

import (
	"context"
	"errors"
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

func (f *fakeCaller) Sample(ctx context.Context, r SampleRequest) (SampleResult, error) {
	return SampleResult{Role: "assistant", Model: "m"}, nil
}

func (f *fakeCaller) ListRoots(ctx context.Context) ([]Root, error) {
	return []Root{{URI: "file:///work", Name: "work"}}, nil
}

func TestCallerAbsent(t *testing.T) {
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
	if _, err := Sample(ctx, SampleRequest{}); !errors.Is(err, ErrNoCaller) {
		t.Errorf("Sample without caller = %v, want ErrNoCaller", err)
	}
	if _, err := ListRoots(ctx); !errors.Is(err, ErrNoCaller) {
		t.Errorf("ListRoots without caller = %v, want ErrNoCaller", err)
	}
}

func TestCallerPresent(t *testing.T) {
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
	if r, err := Sample(ctx, SampleRequest{}); err != nil || r.Model != "m" {
		t.Errorf("Sample = %+v, %v", r, err)
	}
	if r, err := ListRoots(ctx); err != nil || len(r) != 1 || r[0].URI != "file:///work" {
		t.Errorf("ListRoots = %+v, %v", r, err)
	}
}
