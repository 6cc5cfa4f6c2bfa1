package wire

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// ParseContent reads a content block as a client sends it, in a sampling
// result: text, or an image or audio with base64 data. Of an array of
// blocks, the first is taken. Servers and adapters share it.
func ParseContent(raw []byte) (mcprt.Content, error) {
	if len(raw) > 0 && raw[0] == '[' {
		var blocks []json.RawMessage
		if err := json.Unmarshal(raw, &blocks); err != nil || len(blocks) == 0 {
			return mcprt.Content{}, errors.New("sampling result has no content")
		}
		raw = blocks[0]
	}
	var b struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		Data     string `json:"data"`
		MIMEType string `json:"mimeType"`
	}
	if err := json.Unmarshal(raw, &b); err != nil || b.Type == "" {
		return mcprt.Content{}, fmt.Errorf("malformed sampling content: %s", raw)
	}
	c := mcprt.Content{Type: mcprt.ContentType(b.Type), Text: b.Text, MIMEType: b.MIMEType}
	if b.Data != "" {
		data, err := base64.StdEncoding.DecodeString(b.Data)
		if err != nil {
			return mcprt.Content{}, fmt.Errorf("sampling content data: %w", err)
		}
		c.Data = data
	}
	return c, nil
}
