// Command embed shows another Go program using Vetted's core directly, with
// the in-memory adapters: it creates an organization, saves vendors into
// master-list, records an assessment and prints the list. Run it with
// `go run ./examples/embed`.
package main

import (
	"context"
	"fmt"
	"log"

	"github.com/vetted-dev/vetted/adapters/mailbox"
	"github.com/vetted-dev/vetted/adapters/memory"
	"github.com/vetted-dev/vetted/core/review"
	"github.com/vetted-dev/vetted/core/service"
	"github.com/vetted-dev/vetted/core/signing"
	"github.com/vetted-dev/vetted/examples/internal/offline"
	"github.com/vetted-dev/vetted/ports"
)

func main() {
	if err := run(context.Background()); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context) error {
	signer, err := signing.New([]byte("example-signing-key-0123456789"))
	if err != nil {
		return err
	}
	mail := mailbox.New()
	svc, err := service.New(service.Deps{Store: memory.New(), Clock: ports.SystemClock{}, IDs: ports.UUIDv7{},
		Blobs: offline.Blobs{}, Mailer: mail, Enricher: offline.Enricher{}, Incidents: offline.Incidents{},
		Signer: signer, PublicURL: "http://127.0.0.1:8080"})
	if err != nil {
		return err
	}
	admin, err := svc.Identify(ctx, ports.Identity{Subject: "ops", Email: "ops@example.test", EmailVerified: true, Groups: []string{ports.PlatformAdminGroup}})
	if err != nil {
		return err
	}
	acc, err := svc.CreateAccount(ctx, admin, "Acme", []string{"owner@acme.test"})
	if err != nil {
		return err
	}
	owner, err := svc.Identify(ctx, ports.Identity{Subject: "owner", Email: "owner@acme.test", EmailVerified: true})
	if err != nil {
		return err
	}
	ref := acc.Account.ID.String()
	res, err := svc.SaveVendors(ctx, owner, ref, service.ListRef{}, []service.VendorInput{{Name: "Slack"}, {Name: "Zoom Video Communications, Inc."}})
	if err != nil {
		return err
	}
	fmt.Printf("saved %d vendors into %s; %d queued for enrichment\n", len(res.Added), res.List.Name, res.Quota.Queued)
	status := "conditional approval"
	cond := "SSO enforced"
	asm, _, err := svc.UpsertAssessment(ctx, owner, ref, service.ListRef{ID: res.List.ID.String()}, service.VendorSel{VendorName: "Slack"},
		review.Input{Status: &status, ConditionalApprovalCondition: &cond})
	if err != nil {
		return err
	}
	fmt.Printf("assessment of %s: %s (%s)\n", asm.VendorName, asm.Status, asm.ConditionalApprovalCondition)
	_, entries, err := svc.ListWithVendors(ctx, owner, ref, service.ListRef{Ref: "master-list"})
	if err != nil {
		return err
	}
	for _, e := range entries {
		fmt.Printf("- %s (custom: %v, alerts: %v)\n", e.VendorName, e.IsCustom, e.AlertsEnabled)
	}
	return nil
}
