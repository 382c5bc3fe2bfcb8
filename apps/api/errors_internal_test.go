package api

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/vetted-dev/vetted/apps/obs"
)

// TestClientGoneIsNotAnInternalError: a use case that fails because the
// client closed the request (its context canceled) answers 499 and logs no
// error; a cancellation while the client still waits is a failure (500,
// logged).
func TestClientGoneIsNotAnInternalError(t *testing.T) {
	var logged bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logged, nil))
	ctx, cancel := context.WithCancel(obs.WithLogger(context.Background(), log))
	cancel()
	p, _ := buildProblem(ctx, fmt.Errorf("members of acme: %w", context.Canceled))
	if p.Status != StatusClientClosedRequest || logged.Len() != 0 {
		t.Fatalf("client gone: status %d, logged %q; want 499 and nothing", p.Status, logged.String())
	}
	p, _ = buildProblem(obs.WithLogger(context.Background(), log), fmt.Errorf("members of acme: %w", context.Canceled))
	if p.Status != http.StatusInternalServerError || logged.Len() == 0 {
		t.Fatalf("canceled with the client waiting: status %d, logged %q; want 500, logged", p.Status, logged.String())
	}
}

// TestEveryOperationMapsItsErrors: every operation of the document was
// added through register, so that its errors pass the one mapping (an
// operation added by huma.Register itself would answer an unknown error with
// its text).
func TestEveryOperationMapsItsErrors(t *testing.T) {
	n := 0
	for path, item := range Describe().OpenAPI().Paths {
		for _, op := range []*huma.Operation{item.Get, item.Put, item.Post, item.Delete, item.Patch, item.Head, item.Options} {
			if op == nil {
				continue
			}
			n++
			if mapped, _ := op.Metadata[errorsMappedKey].(bool); !mapped {
				t.Errorf("%s %s (%s) was not added by register: its errors skip the mapping", op.Method, path, op.OperationID)
			}
		}
	}
	if n == 0 {
		t.Fatal("the document has no operations")
	}
}
