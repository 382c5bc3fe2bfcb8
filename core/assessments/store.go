package assessments

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/webhooks"
)

// Tx is what the assessments area reads and writes in one unit of work:
// its reviews with their audit events, evidence documents, review
// policies, calendar keys and reminder keys; the lists it sits above (with
// the accounts and the directory they reach), the webhook endpoints its
// reminders check, the outbox and the mail delivery keys.
type Tx interface {
	Assessments() AssessmentRepo
	Documents() DocumentRepo
	ReviewPolicies() ReviewPolicyRepo
	CalendarKeys() CalendarKeyRepo
	Reminders() ReminderRepo
	lists.Tx
	Webhooks() webhooks.WebhookRepo
	outbox.Tx
	mailonce.Tx
}

// AssessmentFilter selects assessments of one list; nil fields do not filter.
type AssessmentFilter struct {
	AccountID       uuid.UUID
	ListID          *uuid.UUID
	VendorID        *uuid.UUID
	VendorProfileID *uuid.UUID
	ID              *uuid.UUID
}

// AssessmentRepo stores assessments (one per list and vendor) and audit events.
type AssessmentRepo interface {
	// Get returns an assessment of the account, or core.ErrNotFound.
	Get(ctx context.Context, accountID, id uuid.UUID) (Assessment, error)
	// ListByVendors returns the assessments of a list for the given vendors.
	ListByVendors(ctx context.Context, listID uuid.UUID, vendorIDs []uuid.UUID) ([]Assessment, error)
	// Find returns the assessments matching f, newest update first.
	Find(ctx context.Context, f AssessmentFilter) ([]Assessment, error)
	// Timings returns the timing (TimingOf) of each assessment
	// matching f, in no order: a count of reviews due reads these few
	// columns, not whole
	Timings(ctx context.Context, f AssessmentFilter) ([]Timing, error)
	// Save inserts or updates assessments by id (one call for many);
	// core.ErrConflict if a new one collides on (list, vendor).
	Save(ctx context.Context, as []Assessment) error
	// Delete removes an assessment with its audit events and document
	// records; core.ErrNotFound if absent.
	Delete(ctx context.Context, accountID, id uuid.UUID) error
	// AppendEvents stores audit events.
	AppendEvents(ctx context.Context, es []AuditEvent) error
	// Events returns a page of an assessment's events, newest first, and the total.
	Events(ctx context.Context, assessmentID uuid.UUID, offset, limit int) ([]AuditEvent, int, error)
	// Counts counts over the lists of scope, in one set-based read whatever
	// their number: the distinct vendors on them, those with alerts on on
	// at least one of them, and the assessments on them whose status is
	// one of statuses. A list of another account counts nothing.
	Counts(ctx context.Context, scope lists.ListScope, statuses []Status) (lists.ListCounts, error)
}

// DocumentRepo stores evidence document records.
type DocumentRepo interface {
	// Create inserts a record.
	Create(ctx context.Context, d Document) error
	// Get returns a record of the account, or core.ErrNotFound.
	Get(ctx context.Context, accountID, id uuid.UUID) (Document, error)
	// ListByAssessment returns the records of an assessment, oldest first.
	ListByAssessment(ctx context.Context, assessmentID uuid.UUID) ([]Document, error)
	// ListByAccount returns every record of an account (for blob cleanup).
	ListByAccount(ctx context.Context, accountID uuid.UUID) ([]Document, error)
	// Update stores the status, size and SHA-256 of a record.
	Update(ctx context.Context, d Document) error
	// Delete removes a record; core.ErrNotFound if absent.
	Delete(ctx context.Context, accountID, id uuid.UUID) error
}

// ReviewPolicyRepo stores each account's review policy. An
// account that never saved one has none: the core then uses
// DefaultPolicy. A policy goes with its account.
type ReviewPolicyRepo interface {
	// Get returns the account's policy, or core.ErrNotFound.
	Get(ctx context.Context, accountID uuid.UUID) (Policy, error)
	// Put stores the account's policy, replacing the one it had.
	Put(ctx context.Context, accountID uuid.UUID, p Policy) error
}

// CalendarKey is the secret behind a member's personal review calendar
// link: the link carries it signed, and deleting it revokes the link.
type CalendarKey struct {
	ID        uuid.UUID
	AccountID uuid.UUID
	UserID    uuid.UUID
	CreatedAt time.Time
}

// CalendarKeyRepo stores calendar keys, at most one per account and user.
// A key goes with its account and its user.
type CalendarKeyRepo interface {
	// Get returns the key of a member of an account, or core.ErrNotFound.
	Get(ctx context.Context, accountID, userID uuid.UUID) (CalendarKey, error)
	// GetByID returns a key by its id, or core.ErrNotFound.
	GetByID(ctx context.Context, id uuid.UUID) (CalendarKey, error)
	// Create stores a key; core.ErrConflict if the member has one.
	Create(ctx context.Context, k CalendarKey) error
	// Delete removes the key of a member; core.ErrNotFound if none.
	Delete(ctx context.Context, accountID, userID uuid.UUID) error
}

// ReminderRepo remembers keys of review reminders: a reminder
// queued for one assessment, due date, window and recipient
// (review.Reminder.Key), and a recipient's opt-out of an account's
// reminders. A key once recorded stays recorded; recording is what makes a
// reminder go to the outbox once however many runs ask for it at once.
type ReminderRepo interface {
	// Record records the keys not recorded yet, at now, and returns those
	// (in input order; duplicates in keys count once). Of concurrent units
	// of work recording one key, exactly one returns it. One set-based call.
	Record(ctx context.Context, keys []string, now time.Time) ([]string, error)
	// Recorded returns which of keys are recorded (any order).
	Recorded(ctx context.Context, keys []string) ([]string, error)
}
