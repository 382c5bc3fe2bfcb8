// Command embed shows another Go program using Vetted's core directly, with
// the in-memory adapters: it creates an organization, saves vendors into
// master-list, runs the outbox relay and the in-process job runner so the
// enrichment jobs that saving queued really run, records an assessment and
// prints the list. Everything it imports is a public package another module
// can import too. Run it with `go run ./embed` in examples/.
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"sync/atomic"
	"time"

	"github.com/vetted-dev/vetted/adapters/enrich"
	"github.com/vetted-dev/vetted/adapters/jobs"
	"github.com/vetted-dev/vetted/adapters/localblob"
	"github.com/vetted-dev/vetted/adapters/mailbox"
	"github.com/vetted-dev/vetted/adapters/webhook"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/relay"
	"github.com/vetted-dev/vetted/core/platform/signedlink"
	"github.com/vetted-dev/vetted/core/usecases"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/memstore"
	"github.com/vetted-dev/vetted/ports/stores"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// offlineEnricher stands in for the web, DNS and TLS scanners of
// adapters/enrich so the example needs no network: it writes a description
// and marks every requested section done.
type offlineEnricher struct{ runs atomic.Int64 }

func (e *offlineEnricher) Enrich(_ context.Context, v vendors.Vendor, p vendors.Profile, secs []vendors.Section) (vendors.EnrichResult, error) {
	e.runs.Add(1)
	if p.Enrichment == nil {
		p.Enrichment = map[vendors.Section]vendors.SectionStatus{}
	}
	for _, s := range secs {
		p.Enrichment[s] = vendors.SectionStatus{Status: "done", Source: "offline example", UpdatedAt: time.Now().UTC()}
	}
	p.Company.CompanyDescription = "Profile of " + v.Name.String() + " (offline example)"
	return vendors.EnrichResult{Profile: p}, nil
}

// noIncidents is an incident source that knows none.
type noIncidents struct{}

func (noIncidents) Fetch(context.Context, vendors.Vendor, time.Time) ([]vendors.Incident, error) {
	return nil, nil
}

func run(ctx context.Context, w io.Writer) error {
	signer, err := signedlink.New([]byte("example-signing-key-0123456789"))
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "vetted-embed-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	const publicURL = "http://127.0.0.1:8080"
	blobs, err := localblob.New(dir, publicURL, signer, ports.SystemClock{})
	if err != nil {
		return err
	}
	defer blobs.Close()

	store, enricher, mail := memstore.New(), &offlineEnricher{}, mailbox.New()
	// Outbound webhooks dial through the scanner's SSRF-safe fetcher.
	sender, err := webhook.NewSender(webhook.SenderConfig{Fetcher: enrich.NewFetcher(enrich.FetcherConfig{})})
	if err != nil {
		return err
	}
	var rl *relay.Relay
	uc, err := usecases.New(usecases.Deps{Store: store, Clock: ports.SystemClock{}, IDs: ports.UUIDv7{},
		Blobs: blobs, Mailer: mail, Enricher: enricher, Incidents: noIncidents{},
		Signer: signer, Webhooks: webhook.Port{Sender: sender}, PublicURL: publicURL,
		// Wake the relay when a write commits side effects.
		Notify: func() {
			if rl != nil {
				rl.Notify()
			}
		}})
	if err != nil {
		return err
	}
	// Side effects (enrichment, mail, alerts) are written to the outbox in
	// the same unit of work as the change; the relay hands them to a queue,
	// here the in-process job runner, whose handler is the use cases' dispatcher.
	queue, err := jobs.New(uc, jobs.Options{Workers: 4})
	if err != nil {
		return err
	}
	defer queue.Close(ctx)
	if rl, err = relay.New(store, queue, ports.SystemClock{}, relay.Options{}); err != nil {
		return err
	}
	relayCtx, stopRelay := context.WithCancel(ctx)
	relayDone := make(chan error, 1)
	go func() { relayDone <- rl.Run(relayCtx) }()
	defer func() { stopRelay(); <-relayDone }()

	admin, err := uc.Accounts.Identify(ctx, ports.Identity{Subject: "ops", Email: "ops@example.test", EmailVerified: true, Groups: []string{ports.PlatformAdminGroup}})
	if err != nil {
		return err
	}
	acc, err := uc.Accounts.CreateAccount(ctx, admin, "Acme", []string{"owner@acme.test"})
	if err != nil {
		return err
	}
	owner, err := uc.Accounts.Identify(ctx, ports.Identity{Subject: "owner", Email: "owner@acme.test", EmailVerified: true})
	if err != nil {
		return err
	}
	ref := accounts.AccountRef{ID: acc.Account.ID}
	named, err := vendors.ParseRefs([]string{"Slack", "Zoom Video Communications, Inc."}, nil)
	if err != nil {
		return err
	}
	res, err := uc.Lists.SaveVendors(ctx, owner, ref, lists.ListRef{}, named)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "saved %d vendors into %s; %d queued for enrichment\n", len(res.Added), res.List.Name, res.Quota.Queued)

	// Wait until the relay has handed every message over and the jobs ran.
	if err := drain(ctx, store, queue); err != nil {
		return err
	}
	fmt.Fprintf(w, "enrichment ran %d times; %d mails sent\n", enricher.runs.Load(), len(mail.Sent()))

	status, cond := assessments.ConditionalApproval, "SSO enforced"
	slack, err := vendors.ParseRef("Slack")
	if err != nil {
		return err
	}
	asm, _, err := uc.Assessments.UpsertAssessment(ctx, owner, ref, lists.ListRef{ID: res.List.ID}, assessments.VendorSel{VendorName: &slack},
		assessments.Input{Status: &status, ConditionalApprovalCondition: &cond})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "assessment of %s: %s (%s)\n", asm.VendorName, asm.Status, asm.ConditionalApprovalCondition)
	_, entries, err := uc.Lists.ListWithVendors(ctx, owner, ref, lists.MasterRef)
	if err != nil {
		return err
	}
	for _, e := range entries {
		fmt.Fprintf(w, "- %s (custom: %v, enrichment: %s, alerts: %v)\n", e.VendorName, e.IsCustom, e.EnrichmentStatus, e.AlertsEnabled)
	}
	return nil
}

// drain waits until the outbox is empty and the job runner idle.
func drain(ctx context.Context, store stores.Store, queue *jobs.Queue) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		var pending int
		if err := store.View(ctx, func(ctx context.Context, tx stores.Tx) (err error) {
			pending, err = tx.Outbox().Pending(ctx)
			return err
		}); err != nil {
			return err
		}
		if err := queue.Wait(ctx); err != nil {
			return err
		}
		if pending == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("outbox did not drain: %d pending: %w", pending, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}
