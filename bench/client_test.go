package bench

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/pricing"
	"github.com/mcpgen/mcpgen/bench/pricing/pricingclient"
	"github.com/mcpgen/mcpgen/bench/quote"
	"github.com/mcpgen/mcpgen/bench/quote/quoteclient"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// The client benchmarks call a tool through go-sdk's client session in
// two ways, on the same session: with the client mcpgen -client
// generated, and by hand, with CallTool, a map of the arguments built
// from the same Go value, and type assertions on what comes back. The
// server is the built-in one over in-process pipes, the cheapest there
// is, so that the clients' costs show.

// clientSession connects go-sdk's client to the built-in server serving
// the tools of pricing and quote.
func clientSession(tb testing.TB) *mcp.ClientSession {
	tb.Helper()
	srv := mcpserver.New(identity, append(pricing.MCPTools(), quote.MCPTools()...)...)
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	go srv.ServeStream(ctx, sr, sw)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &mcp.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		cs.Close()
		cancel()
	})
	return cs
}

// referenceInput is the arguments of the reference request with n
// changes, as a Go value.
func referenceInput(n int) pricing.BulkPriceUpdateInput {
	day := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	in := pricing.BulkPriceUpdateInput{Region: pricing.EMEA, Rounding: pricing.RoundNearestCent}
	for i := range n {
		c := pricing.PriceChange{ProductID: fmt.Sprintf("SKU-%05d", 10000+i), NewPrice: float64(10+i) + 0.99}
		if i%2 == 0 {
			c.EffectiveFrom = &day
		}
		in.Changes = append(in.Changes, c)
	}
	return in
}

// priceUpdateByHand is bulk_price_update called by hand: the arguments
// as a map, the text block read by a type assertion.
func priceUpdateByHand(ctx context.Context, cs *mcp.ClientSession, in pricing.BulkPriceUpdateInput) (string, error) {
	changes := make([]any, len(in.Changes))
	for i, c := range in.Changes {
		m := map[string]any{"product_id": c.ProductID, "new_price": c.NewPrice}
		if c.EffectiveFrom != nil {
			m["effective_from"] = c.EffectiveFrom.Format(time.RFC3339)
		}
		changes[i] = m
	}
	args := map[string]any{"region": string(in.Region), "rounding": string(in.Rounding), "changes": changes}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "bulk_price_update", Arguments: args})
	if err != nil {
		return "", err
	}
	if res.IsError || len(res.Content) != 1 {
		return "", fmt.Errorf("bulk_price_update failed: %+v", res.Content)
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return "", fmt.Errorf("bulk_price_update: not text: %+v", res.Content[0])
	}
	return text.Text, nil
}

// quoteInput asks for ten products.
func quoteInput() quote.Input {
	in := quote.Input{Region: "emea"}
	for i := range 10 {
		in.Products = append(in.Products, fmt.Sprintf("SKU-%05d", 10000+i))
	}
	return in
}

// quoteByHand is price_quote called by hand: the arguments as a map, the
// structured content read into the Go value by type assertions.
func quoteByHand(ctx context.Context, cs *mcp.ClientSession, in quote.Input) (quote.Quote, error) {
	products := make([]any, len(in.Products))
	for i, p := range in.Products {
		products[i] = p
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "price_quote", Arguments: map[string]any{"region": in.Region, "products": products}})
	if err != nil {
		return quote.Quote{}, err
	}
	sc, ok := res.StructuredContent.(map[string]any)
	if res.IsError || !ok {
		return quote.Quote{}, fmt.Errorf("price_quote failed: %+v", res.Content)
	}
	var q quote.Quote
	q.Region, _ = sc["region"].(string)
	q.Total, _ = sc["total"].(float64)
	lines, _ := sc["lines"].([]any)
	q.Lines = make([]quote.Line, len(lines))
	for i, l := range lines {
		m, ok := l.(map[string]any)
		if !ok {
			return quote.Quote{}, fmt.Errorf("price_quote: line %d is not an object", i)
		}
		q.Lines[i].ProductID, _ = m["product_id"].(string)
		q.Lines[i].Price, _ = m["price"].(float64)
		q.Lines[i].InStock, _ = m["in_stock"].(bool)
	}
	return q, nil
}

// TestClientsAgree checks that the typed and the hand-written calls get
// the same results, so that the benchmarks compare the same work.
func TestClientsAgree(t *testing.T) {
	t.Parallel()
	cs := clientSession(t)
	ctx := context.Background()
	in := referenceInput(10)
	typed, err := pricingclient.NewClient(cs).BulkPriceUpdate(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	hand, err := priceUpdateByHand(ctx, cs, in)
	if err != nil || typed != hand || typed != "updated 10 prices in emea" {
		t.Errorf("bulk_price_update: typed %q, by hand %q (%v)", typed, hand, err)
	}
	q, err := quoteclient.NewClient(cs).PriceQuote(ctx, quoteInput())
	if err != nil {
		t.Fatal(err)
	}
	qh, err := quoteByHand(ctx, cs, quoteInput())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(qh, q); diff != "" || len(q.Lines) != 10 {
		t.Errorf("price_quote (-by hand +typed):\n%s", diff)
	}
}

// BenchmarkClient runs each tool's typed call and hand-written call in
// turns on one session and reports each one's median and their ratio
// (see BenchmarkHTTPAuthRatio for why in turns).
func BenchmarkClient(b *testing.B) {
	ctx := context.Background()
	b.Run("bulk_price_update", func(b *testing.B) {
		cs := clientSession(b)
		c, in := pricingclient.NewClient(cs), referenceInput(10)
		clientTurns(b, func() error {
			_, err := c.BulkPriceUpdate(ctx, in)
			return err
		}, func() error {
			_, err := priceUpdateByHand(ctx, cs, in)
			return err
		})
	})
	b.Run("price_quote", func(b *testing.B) {
		cs := clientSession(b)
		c, in := quoteclient.NewClient(cs), quoteInput()
		clientTurns(b, func() error {
			_, err := c.PriceQuote(ctx, in)
			return err
		}, func() error {
			_, err := quoteByHand(ctx, cs, in)
			return err
		})
	})
}

// clientTurns calls typed and byHand in turns, each first every other
// time, for as long as b loops, and reports their medians and ratio.
func clientTurns(b *testing.B, typed, byHand func() error) {
	b.ReportAllocs()
	var dt, dh []time.Duration
	for i := 0; b.Loop(); i++ {
		first, second, d1, d2 := typed, byHand, &dt, &dh
		if i%2 == 1 {
			first, second, d1, d2 = byHand, typed, &dh, &dt
		}
		t0 := time.Now()
		err1 := first()
		t1 := time.Now()
		err2 := second()
		t2 := time.Now()
		if err1 != nil || err2 != nil {
			b.Fatal(err1, err2)
		}
		*d1 = append(*d1, t1.Sub(t0))
		*d2 = append(*d2, t2.Sub(t1))
	}
	mt, mh := median(dt), median(dh)
	b.ReportMetric(float64(mt.Nanoseconds()), "typed-ns/call")
	b.ReportMetric(float64(mh.Nanoseconds()), "map-ns/call")
	b.ReportMetric(float64(mt)/float64(mh), "typed/map")
}
