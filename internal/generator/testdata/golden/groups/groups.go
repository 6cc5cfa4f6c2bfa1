// Package groups is a small billing server whose declarations all belong
// to the group of its doc comment, some to further groups named by
// group=, with a pinned tool and its tool search index.
//
//mcp:group billing title="Billing" description="Invoices, refunds and what customers owe"
//mcp:search
package groups

import "context"

// InvoiceIn names an invoice.
type InvoiceIn struct {
	InvoiceID string `json:"invoice_id"` // ID of the invoice
}

// RefundIn is a refund of a charge.
type RefundIn struct {
	ChargeID string `json:"charge_id"`        // Charge to refund
	Amount   int    `json:"amount,omitempty"` // Amount in cents; all of it when left out
}

// SendInvoice emails an open invoice to its customer.
//
//mcp:tool group=mail group=billing
func SendInvoice(ctx context.Context, in InvoiceIn) (string, error) { return in.InvoiceID, nil }

// RefundCharge gives money back to the customer for a charge.
//
//mcp:tool group=payments pin destructive
func RefundCharge(ctx context.Context, in RefundIn) (string, error) { return in.ChargeID, nil }

// Balance returns what a customer owes.
//
//mcp:tool readonly
func Balance(ctx context.Context, in InvoiceIn) (int, error) { return 0, nil }

// Dunning asks for a reminder to a customer who is late to pay.
//
//mcp:prompt group=mail
func Dunning(ctx context.Context, in InvoiceIn) (string, error) { return "Remind " + in.InvoiceID, nil }

// Terms are the payment terms.
//
//mcp:resource uri=billing://terms
func Terms(ctx context.Context) (string, error) { return "Net 30", nil }
