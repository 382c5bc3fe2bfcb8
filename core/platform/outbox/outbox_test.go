package outbox_test

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/platform/outbox"
)

func TestKindQueue(t *testing.T) {
	t.Parallel()
	want := map[outbox.Kind]string{
		outbox.KindMemberMail:          outbox.QueueCritical,
		outbox.KindSubscriberConfirm:   outbox.QueueCritical,
		outbox.KindIncidentFanout:      outbox.QueueCritical,
		outbox.KindAlertMail:           outbox.QueueCritical,
		outbox.KindReminderMail:        outbox.QueueCritical,
		outbox.KindWebhookDisabledMail: outbox.QueueCritical,
		outbox.KindMentionMail:         outbox.QueueCritical,
		outbox.KindWebhookEvent:        outbox.QueueDefault,
		outbox.KindWebhookAttempt:      outbox.QueueDefault,
		outbox.KindReviewReminders:     outbox.QueueLow,
		outbox.KindRatingChanged:       outbox.QueueCritical,
		outbox.KindRatingMail:          outbox.QueueCritical,
		outbox.KindEnrich:              outbox.QueueDefault,
		outbox.KindBlobDelete:          outbox.QueueDefault,
		outbox.KindBackfill:            outbox.QueueLow,
		outbox.KindPollIncidents:       outbox.QueueLow,
		outbox.KindReenrichStale:       outbox.QueueLow,
		outbox.Kind("something:new"):   outbox.QueueDefault,
	}
	for k, q := range want {
		if got := k.Queue(); got != q {
			t.Errorf("%s.Queue() = %q, want %q", k, got, q)
		}
	}
	if len(outbox.Kinds()) != 17 {
		t.Fatalf("Kinds() = %v, want the 17 kinds", outbox.Kinds())
	}
	seen := map[outbox.Kind]bool{}
	for _, k := range outbox.Kinds() {
		if _, ok := want[k]; !ok || seen[k] {
			t.Errorf("Kinds() has %q unexpected or twice", k)
		}
		seen[k] = true
	}
}

func TestNew(t *testing.T) {
	t.Parallel()
	id, run, job, vendor := uuid.New(), uuid.New(), uuid.New(), uuid.New()
	now := time.Date(2026, 9, 1, 0, 0, 0, 0, time.FixedZone("X", 3600))
	m := outbox.New(id, outbox.KindEnrich, outbox.Enrich{RunID: run, JobID: job, VendorID: vendor, Sections: []string{"basic"}}, now)
	if m.ID != id || m.Kind != outbox.KindEnrich || m.Attempts != 0 || m.LastError != "" || m.CreatedAt.Location() != time.UTC || !m.CreatedAt.Equal(now) {
		t.Fatalf("New = %+v", m)
	}
	got, ok := m.Payload.(outbox.Enrich)
	if !ok {
		t.Fatalf("payload is %T", m.Payload)
	}
	if got.RunID != run || got.JobID != job || got.VendorID != vendor || len(got.Sections) != 1 || got.Sections[0] != "basic" {
		t.Fatalf("payload = %+v", m.Payload)
	}
}
