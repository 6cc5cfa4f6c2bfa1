package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen

// TestSimpleText returns one text block.
//
//mcp:tool name=test_simple_text readonly
func TestSimpleText() string {
	return "This is a simple text response for testing."
}

// TestImageContent returns a 1x1 red PNG image.
//
//mcp:tool name=test_image_content readonly
func TestImageContent() (mcprt.Result, error) {
	img, err := redPixelPNG()
	if err != nil {
		return mcprt.Result{}, err
	}
	return mcprt.Result{Content: []mcprt.Content{mcprt.Image(img, "image/png")}}, nil
}

// TestAudioContent returns a short WAV clip of silence.
//
//mcp:tool name=test_audio_content readonly
func TestAudioContent() mcprt.Result {
	return mcprt.Result{Content: []mcprt.Content{mcprt.Audio(silentWAV(), "audio/wav")}}
}

// TestEmbeddedResource returns an embedded text resource.
//
//mcp:tool name=test_embedded_resource readonly
func TestEmbeddedResource() mcprt.Result {
	return mcprt.Result{Content: []mcprt.Content{
		mcprt.TextResource("test://embedded-resource", "text/plain", "This is an embedded resource content."),
	}}
}

// TestMultipleContentTypes returns text, an image and an embedded resource.
//
//mcp:tool name=test_multiple_content_types readonly
func TestMultipleContentTypes() (mcprt.Result, error) {
	img, err := redPixelPNG()
	if err != nil {
		return mcprt.Result{}, err
	}
	return mcprt.Result{Content: []mcprt.Content{
		mcprt.Text("Multiple content types test:"),
		mcprt.Image(img, "image/png"),
		mcprt.TextResource("test://mixed-content-resource", "application/json", `{"test":"data","value":123}`),
	}}, nil
}

// TestToolWithLogging sends three info log messages while it runs.
//
//mcp:tool name=test_tool_with_logging readonly
func TestToolWithLogging(ctx context.Context) (string, error) {
	steps := []string{"Tool execution started", "Tool processing data", "Tool execution completed"}
	for i, msg := range steps {
		if i > 0 {
			if err := sleep(ctx, 50*time.Millisecond); err != nil {
				return "", err
			}
		}
		if err := mcprt.Log(ctx, mcprt.LevelInfo, "conformance", msg); err != nil {
			return "", err
		}
	}
	return "Logging test completed: 3 messages sent", nil
}

// TestToolWithProgress reports progress 0, 50 and 100 of 100.
//
//mcp:tool name=test_tool_with_progress readonly
func TestToolWithProgress(ctx context.Context) (string, error) {
	for i, p := range []float64{0, 50, 100} {
		if i > 0 {
			if err := sleep(ctx, 50*time.Millisecond); err != nil {
				return "", err
			}
		}
		if err := mcprt.Progress(ctx, p, 100, ""); err != nil {
			return "", err
		}
	}
	return "Progress test completed", nil
}

// TestErrorHandling always fails, to show how a tool error reaches the
// client.
//
//mcp:tool name=test_error_handling readonly
func TestErrorHandling() error {
	return errors.New("This tool intentionally returns an error for testing")
}

// TestSampling asks the client's model to answer a prompt.
//
//mcp:tool name=test_sampling
//mcp:param prompt description="The prompt to send to the LLM"
func TestSampling(ctx context.Context, prompt string) (string, error) {
	res, err := mcprt.Sample(ctx, mcprt.SampleRequest{
		Messages:  []mcprt.SampleMessage{{Role: "user", Content: mcprt.Text(prompt)}},
		MaxTokens: 100,
	})
	if err != nil {
		return "", err
	}
	return "LLM response: " + res.Content.Text, nil
}

// TestReconnection answers after a short pause, long enough for a client
// to watch a stream that is still open.
//
//mcp:tool name=test_reconnection readonly
func TestReconnection(ctx context.Context) (string, error) {
	if err := sleep(ctx, 100*time.Millisecond); err != nil {
		return "", err
	}
	return "Reconnection test completed successfully", nil
}

// Address is a postal address.
type Address struct {
	Street string `json:"street,omitempty"`
	City   string `json:"city,omitempty"`
}

// SchemaInput is what json_schema_2020_12_tool takes; its published schema
// comes from schema.json.
type SchemaInput struct {
	Name          string   `json:"name,omitempty"`
	Address       *Address `json:"address,omitempty"`
	ContactMethod string   `json:"contactMethod,omitempty" mcp:"enum=phone|email"`
	Phone         string   `json:"phone,omitempty"`
	Email         string   `json:"email,omitempty"`
}

// JSONSchema202012Tool is a tool whose input schema uses JSON Schema 2020-12
// keywords: $schema, $defs with an $anchor, $ref, composition (allOf,
// anyOf) and conditionals (if, then, else).
//
//mcp:tool name=json_schema_2020_12_tool description="Tool with JSON Schema 2020-12 features" input=schema.json readonly
func JSONSchema202012Tool(in SchemaInput) (string, error) {
	if in.Address == nil {
		return fmt.Sprintf("name=%q", in.Name), nil
	}
	return fmt.Sprintf("name=%q street=%q city=%q", in.Name, in.Address.Street, in.Address.City), nil
}

// sleep waits for d or the end of ctx.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// redPixelPNG encodes a 1x1 red image as PNG.
func redPixelPNG() ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, fmt.Errorf("encoding the image: %w", err)
	}
	return b.Bytes(), nil
}

// silentWAV returns 10 ms of 8 kHz 8-bit mono silence as a WAV file: a
// RIFF header, a fmt chunk and a data chunk. The standard library has no
// WAV encoder and a 44-byte header does not warrant a dependency.
func silentWAV() []byte {
	const rate, samples = 8000, 80
	var b bytes.Buffer
	le := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	le(uint32(36 + samples))
	b.WriteString("WAVEfmt ")
	le(uint32(16))   // fmt chunk size
	le(uint16(1))    // PCM
	le(uint16(1))    // mono
	le(uint32(rate)) // sample rate
	le(uint32(rate)) // byte rate
	le(uint16(1))    // block align
	le(uint16(8))    // bits per sample
	b.WriteString("data")
	le(uint32(samples))
	b.Write(bytes.Repeat([]byte{128}, samples)) // 8-bit PCM silence is 128
	return b.Bytes()
}
