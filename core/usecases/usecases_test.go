package usecases_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/signedlink"
	"github.com/vetted-dev/vetted/core/usecases"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/core/webhooks"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/memstore"
	"github.com/vetted-dev/vetted/ports/stores"
)

// The ports other than the store implement no method: these tests reach
// only the wiring and the dispatcher, and the blob store's Delete.
type (
	blobs struct {
		ports.BlobStore
		deleted []string
	}
	mailer    struct{ ports.Mailer }
	enricher  struct{ vendors.Enricher }
	incidents struct{ vendors.IncidentSource }
)

func (b *blobs) Delete(_ context.Context, keys ...string) error {
	b.deleted = append(b.deleted, keys...)
	return nil
}

// errDown is the store's answer to everything: the dispatch tests check
// that each kind reaches its area, which then asks the store.
var errDown = errors.New("store down")

// down is the memory store, down.
type down struct{ *memstore.Store }

func (down) InTx(context.Context, func(context.Context, stores.Tx) error) error { return errDown }
func (down) View(context.Context, func(context.Context, stores.Tx) error) error { return errDown }
func (down) Ping(context.Context) error                                         { return errDown }

type sender struct{ webhooks.WebhookSender }

func TestNewNamesWhatIsMissing(t *testing.T) {
	t.Parallel()
	_, err := usecases.New(usecases.Deps{})
	if err == nil || !strings.Contains(err.Error(), "Store, Clock, IDs, Blobs, Mailer, Enricher, Incidents, Signer, Webhooks") {
		t.Fatalf("New: %v", err)
	}
}

func TestDispatch(t *testing.T) {
	t.Parallel()
	signer, err := signedlink.New([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	b := &blobs{}
	uc, err := usecases.New(usecases.Deps{Store: down{memstore.New()}, Clock: ports.SystemClock{}, IDs: ports.UUIDv7{}, Blobs: b, Mailer: mailer{},
		Enricher: enricher{}, Incidents: incidents{}, Signer: signer, Webhooks: sender{}})
	if err != nil {
		t.Fatal(err)
	}
	if uc.Accounts == nil || uc.Lists == nil || uc.Vendors == nil || uc.Assessments == nil || uc.Alerts == nil || uc.Webhooks == nil {
		t.Fatal("an area is not wired")
	}
	ctx := context.Background()
	if err := uc.Handle(ctx, "no-such-kind", nil); !errors.Is(err, ports.ErrPermanent) {
		t.Fatalf("unknown kind: %v", err)
	}
	// A payload of another type (one a store could not read back hands on
	// raw) cannot be fixed by a retry.
	for _, k := range []outbox.Kind{outbox.KindMemberMail, outbox.KindSubscriberConfirm, outbox.KindIncidentFanout, outbox.KindAlertMail,
		outbox.KindReminderMail, outbox.KindEnrich, outbox.KindBackfill, outbox.KindBlobDelete,
		outbox.KindWebhookEvent, outbox.KindWebhookAttempt, outbox.KindWebhookDisabledMail, outbox.KindMentionMail} {
		if err := uc.Handle(ctx, k, json.RawMessage(`[`)); !errors.Is(err, ports.ErrPermanent) {
			t.Errorf("%s with a bad payload: %v", k, err)
		}
	}
	// Every kind with a good payload reaches the area that owns it.
	for k, p := range map[outbox.Kind]any{outbox.KindMemberMail: outbox.MemberMail{}, outbox.KindSubscriberConfirm: outbox.SubscriberConfirm{},
		outbox.KindIncidentFanout: outbox.IncidentFanout{}, outbox.KindAlertMail: outbox.AlertMail{}, outbox.KindReminderMail: outbox.ReminderMail{},
		outbox.KindEnrich: outbox.Enrich{}, outbox.KindBackfill: outbox.Backfill{}, outbox.KindPollIncidents: struct{}{},
		outbox.KindReenrichStale: struct{}{}, outbox.KindReviewReminders: struct{}{},
		outbox.KindWebhookEvent: outbox.WebhookEvent{}, outbox.KindWebhookAttempt: outbox.WebhookAttempt{},
		outbox.KindWebhookDisabledMail: outbox.WebhookDisabledMail{}, outbox.KindMentionMail: outbox.MentionMail{}} {
		if err := uc.Handle(ctx, k, p); !errors.Is(err, errDown) {
			t.Errorf("%s: %v, want the store's error", k, err)
		}
	}
	if err := uc.Ready(ctx); !errors.Is(err, errDown) {
		t.Fatalf("Ready: %v", err)
	}
	if err := uc.Handle(ctx, outbox.KindBlobDelete, outbox.BlobDelete{Keys: []string{"a", "b"}}); err != nil || !slices.Equal(b.deleted, []string{"a", "b"}) {
		t.Fatalf("blob delete: %v, deleted %v", err, b.deleted)
	}
}
