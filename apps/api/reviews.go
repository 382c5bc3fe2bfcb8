package api

import (
	"context"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/vetted-dev/vetted/core/assessments"
)

// Tier is how critical a vendor is to an organization; "" is not tiered.
type Tier string

// Schema is the Tier component.
func (Tier) Schema(r huma.Registry) *huma.Schema {
	return enum(r, "Tier", "How critical a vendor is; it sets the review cadence. Empty: not tiered", append(assessments.TierValues(), ""))
}

// optionalTime answers the zero time as null.
func optionalTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// ReviewState is where an assessment stands in its review cycle.
type ReviewState string

// Schema is the ReviewState component.
func (ReviewState) Schema(r huma.Registry) *huma.Schema {
	return enum(r, "ReviewState", "never_reviewed until the status first becomes approved, conditional approval or rejected; "+
		"due_soon from the first reminder offset before next_review_at through that day; overdue after it", assessments.StateValues())
}

// CadenceJSON is the review cadence in months per tier.
type CadenceJSON struct {
	Critical  int `json:"critical"`
	High      int `json:"high"`
	Medium    int `json:"medium"`
	Low       int `json:"low"`
	NotTiered int `json:"not_tiered"`
}

// ReviewPolicyJSON is an account's review policy.
type ReviewPolicyJSON struct {
	AccountID           string      `json:"account_id" format:"uuid"`
	CadenceMonths       CadenceJSON `json:"cadence_months" doc:"Months from one review of a vendor to the next, per tier"`
	ReminderOffsetsDays []int       `json:"reminder_offsets_days" doc:"Reminders are sent this many days before the due date (largest first), and on the due date"`
	OverdueRepeatWeekly bool        `json:"overdue_repeat_weekly" doc:"Whether an overdue review is reminded of every week"`
	IsDefault           bool        `json:"is_default" doc:"True while the account has never saved a policy"`
	UpdatedAt           *time.Time  `json:"updated_at" doc:"null for the default policy"`
	UpdatedBy           string      `json:"updated_by"`
}

func reviewPolicyJSON(v assessments.PolicyView) ReviewPolicyJSON {
	c := v.Cadence
	return ReviewPolicyJSON{AccountID: v.AccountID.String(),
		CadenceMonths:       CadenceJSON{Critical: c.Critical, High: c.High, Medium: c.Medium, Low: c.Low, NotTiered: c.NotTiered},
		ReminderOffsetsDays: nonNil(v.ReminderOffsets), OverdueRepeatWeekly: v.RepeatOverdue, IsDefault: v.Default,
		UpdatedAt: optionalTime(v.UpdatedAt), UpdatedBy: v.UpdatedBy}
}

type cadenceBody struct {
	Critical  *int `json:"critical,omitempty"`
	High      *int `json:"high,omitempty"`
	Medium    *int `json:"medium,omitempty"`
	Low       *int `json:"low,omitempty"`
	NotTiered *int `json:"not_tiered,omitempty"`
}

type reviewPolicyBody struct {
	CadenceMonths       *cadenceBody `json:"cadence_months,omitempty" doc:"Months per tier, 1 to 120; an omitted tier keeps its value"`
	ReminderOffsetsDays []int        `json:"reminder_offsets_days,omitempty" limit:"reminders" doc:"Days before the due date, 1 to 365 each; [] sends none before the due date; omitted keeps them"`
	OverdueRepeatWeekly *bool        `json:"overdue_repeat_weekly,omitempty"`
	ReviewPolicyReadOnly
}

// ReviewPolicyReadOnly are the fields of ReviewPolicyJSON the service sets:
// a PUT takes them, so that the document GET answered goes back as it is,
// and ignores them (TestPutAcceptsItsGet).
type ReviewPolicyReadOnly struct {
	AccountID string     `json:"account_id,omitempty" format:"uuid" readOnly:"true" doc:"Ignored: the account is account-id"`
	IsDefault *bool      `json:"is_default,omitempty" readOnly:"true" doc:"Ignored: a saved policy is never the default"`
	UpdatedAt *time.Time `json:"updated_at,omitempty" readOnly:"true" doc:"Ignored"`
	UpdatedBy string     `json:"updated_by,omitempty" readOnly:"true" doc:"Ignored"`
}

type reviewPolicyIn struct {
	AccountParam
}

type reviewPolicyPutIn struct {
	AccountParam
	Body reviewPolicyBody
}

type reviewPolicyOut struct {
	Body ReviewPolicyJSON
}

// reviewPolicy answers get-review-policy.
func (h assessmentsHandler) reviewPolicy(ctx context.Context, in *reviewPolicyIn) (*reviewPolicyOut, error) {
	acc, err := in.accountRef()
	if err != nil {
		return nil, err
	}
	v, err := h.assessments.ReviewPolicy(ctx, actor(ctx), acc)
	if err != nil {
		return nil, err
	}
	return &reviewPolicyOut{Body: reviewPolicyJSON(v)}, nil
}

// putReviewPolicy answers put-review-policy.
func (h assessmentsHandler) putReviewPolicy(ctx context.Context, in *reviewPolicyPutIn) (*reviewPolicyOut, error) {
	b := in.Body
	pin := assessments.PolicyInput{ReminderOffsets: b.ReminderOffsetsDays, RepeatOverdue: b.OverdueRepeatWeekly}
	if c := b.CadenceMonths; c != nil {
		pin.Critical, pin.High, pin.Medium, pin.Low, pin.NotTiered = c.Critical, c.High, c.Medium, c.Low, c.NotTiered
	}
	acc, err := in.accountRef()
	if err != nil {
		return nil, err
	}
	v, err := h.assessments.PutReviewPolicy(ctx, actor(ctx), acc, pin)
	if err != nil {
		return nil, err
	}
	return &reviewPolicyOut{Body: reviewPolicyJSON(v)}, nil
}
