package usecases

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/ports"
)

// ReenrichAge is how old a profile gets before the periodic job
// (KindReenrichStale) enriches it again.
const ReenrichAge = 30 * 24 * time.Hour

// Handle runs one job (it implements ports.JobHandler) by handing its
// payload to the area that owns the kind. Handlers are idempotent: mail is
// claimed by delivery key before it is sent and marked sent after, so a
// retried job does not mail twice (see core/platform/mailonce).
func (u *UseCases) Handle(ctx context.Context, kind outbox.Kind, payload any) error {
	switch kind {
	case outbox.KindMemberMail:
		return run(kind, payload, func(p outbox.MemberMail) error { return u.Accounts.SendMemberMail(ctx, p) })
	case outbox.KindSubscriberConfirm:
		return run(kind, payload, func(p outbox.SubscriberConfirm) error { return u.Alerts.SendConfirmation(ctx, p) })
	case outbox.KindIncidentFanout:
		return run(kind, payload, func(p outbox.IncidentFanout) error { return u.Alerts.FanOut(ctx, p) })
	case outbox.KindAlertMail:
		return run(kind, payload, func(p outbox.AlertMail) error { return u.Alerts.SendAlert(ctx, p) })
	case outbox.KindRatingChanged:
		return run(kind, payload, func(p outbox.RatingChanged) error { return u.Alerts.FanOutRating(ctx, p) })
	case outbox.KindRatingMail:
		return run(kind, payload, func(p outbox.RatingMail) error { return u.Alerts.SendRatingAlert(ctx, p) })
	case outbox.KindReminderMail:
		return run(kind, payload, func(p outbox.ReminderMail) error { return u.Assessments.SendReminder(ctx, p) })
	case outbox.KindMentionMail:
		return run(kind, payload, func(p outbox.MentionMail) error { return u.Records.SendMention(ctx, p) })
	case outbox.KindEnrich:
		return run(kind, payload, func(p outbox.Enrich) error { return u.Vendors.EnrichJob(ctx, p) })
	case outbox.KindBackfill:
		return run(kind, payload, func(p outbox.Backfill) error { return u.Vendors.RunBackfill(ctx, p) })
	case outbox.KindBlobDelete:
		return run(kind, payload, func(p outbox.BlobDelete) error { return u.blobs.Delete(ctx, p.Keys...) })
	case outbox.KindWebhookEvent:
		return run(kind, payload, func(p outbox.WebhookEvent) error { return u.Webhooks.FanOut(ctx, p) })
	case outbox.KindWebhookAttempt:
		return run(kind, payload, func(p outbox.WebhookAttempt) error { return u.Webhooks.Attempt(ctx, p) })
	case outbox.KindWebhookDisabledMail:
		return run(kind, payload, func(p outbox.WebhookDisabledMail) error { return u.Webhooks.SendDisabledMail(ctx, p) })
	case outbox.KindPollIncidents:
		// The vendors' own feeds, then the platform-wide sources: each
		// logs and leaves its failures, so one never stops the other.
		return errors.Join(u.Vendors.PollIncidents(ctx), u.Incidents.Poll(ctx))
	case outbox.KindReenrichStale:
		_, err := u.Vendors.ReenrichStale(ctx, ReenrichAge)
		return err
	case outbox.KindReviewReminders:
		_, err := u.Assessments.ReviewReminders(ctx)
		return err
	}
	return fmt.Errorf("unknown job kind %q: %w", kind, ports.ErrPermanent)
}

// run hands a payload of type P to fn; a payload of another type (one the
// store or the queue could not read back hands on raw) is a permanent
// failure: a retry cannot fix it.
func run[P any](kind outbox.Kind, payload any, fn func(P) error) error {
	p, ok := payload.(P)
	if !ok {
		return fmt.Errorf("%s: bad payload: %T is not %T: %w", kind, payload, p, ports.ErrPermanent)
	}
	return fn(p)
}
