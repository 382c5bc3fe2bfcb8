package api

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"testing"

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
