package contracts

import (
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
)

// Bounds of the free-text fields and the notice period.
const (
	MaxReference  = 200
	MaxNoticeDays = 3650
)

// Input is a contract's writable fields as the caller gives them, under
// their wire names (a merge patch is applied to this form).
type Input struct {
	VendorID                 string         `json:"vendor_id"`
	Reference                string         `json:"reference"`
	StartDate                string         `json:"start_date"`
	EndDate                  string         `json:"end_date"`
	AutoRenew                bool           `json:"auto_renew"`
	NoticePeriodDays         int            `json:"notice_period_days"`
	AnnualValue              Amount         `json:"annual_value"`
	Currency                 string         `json:"currency"`
	GoverningLaw             string         `json:"governing_law"`
	DPASigned                bool           `json:"dpa_signed"`
	Services                 []ServiceEntry `json:"services"`
	SupportsCriticalFunction bool           `json:"supports_critical_function"`
	LEI                      string         `json:"lei"`
}

// Terms are a contract's writable fields, checked.
type Terms struct {
	VendorID                 uuid.UUID
	Reference                string
	Start, End               time.Time // civil dates (UTC midnight)
	AutoRenew                bool
	NoticePeriodDays         int
	AnnualValue              Amount
	Currency                 string
	GoverningLaw             string
	DPASigned                bool
	Services                 []ServiceEntry
	SupportsCriticalFunction bool
	LEI                      string
}

// Contract is a contract of an account with a vendor on one of its lists.
type Contract struct {
	ID        uuid.UUID
	AccountID uuid.UUID
	Terms
	// VendorName is the vendor's name, filled on read.
	VendorName string
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// Derive is the contract's current period, notice deadline and state on
// today (see Derive).
func (c Contract) Derive(today time.Time) Derived {
	return Derive(c.Start, c.End, c.AutoRenew, c.NoticePeriodDays, today)
}

// Check validates an input and returns its terms; every failing field is
// named (by its wire name).
func (in Input) Check() (Terms, error) {
	var (
		t    Terms
		errs core.Fields
		err  error
	)
	if strings.TrimSpace(in.VendorID) == "" {
		errs.Add("Contract.VendorID", "is required")
	} else if t.VendorID, err = uuid.Parse(strings.TrimSpace(in.VendorID)); err != nil {
		errs.Add("Contract.VendorID", "must be a UUID")
	}
	t.Reference = strings.Join(strings.Fields(in.Reference), " ")
	if len([]rune(t.Reference)) > MaxReference {
		errs.Add("Contract.Reference", "at most %d characters", MaxReference)
	}
	t.Start, err = parseDate("Contract.StartDate", in.StartDate)
	errs.AddErr(err)
	t.End, err = parseDate("Contract.EndDate", in.EndDate)
	errs.AddErr(err)
	if !t.Start.IsZero() && !t.End.IsZero() && t.End.Before(t.Start) {
		errs.Add("Contract.EndDate", "must not be before start_date")
	}
	t.AutoRenew, t.DPASigned, t.SupportsCriticalFunction = in.AutoRenew, in.DPASigned, in.SupportsCriticalFunction
	t.NoticePeriodDays = in.NoticePeriodDays
	if t.NoticePeriodDays < 0 || t.NoticePeriodDays > MaxNoticeDays {
		errs.Add("Contract.NoticePeriodDays", "must be between 0 and %d", MaxNoticeDays)
	}
	t.AnnualValue, err = ParseAmount(string(in.AnnualValue))
	errs.AddErr(err)
	t.Currency, err = ParseCurrency(in.Currency)
	errs.AddErr(err)
	if err == nil && t.AnnualValue != "" && t.Currency == "" {
		errs.Add("Contract.Currency", "is required with annual_value")
	}
	t.GoverningLaw, err = ParseCountry(in.GoverningLaw)
	errs.AddErr(err)
	t.Services, err = ParseServices(in.Services)
	errs.AddErr(err)
	t.LEI, err = ParseLEI(in.LEI)
	errs.AddErr(err)
	if err := errs.Err(); err != nil {
		return Terms{}, err
	}
	return t, nil
}

// Input returns the terms in their input form.
func (t Terms) Input() Input {
	return Input{VendorID: t.VendorID.String(), Reference: t.Reference, StartDate: t.Start.Format(time.DateOnly),
		EndDate: t.End.Format(time.DateOnly), AutoRenew: t.AutoRenew, NoticePeriodDays: t.NoticePeriodDays,
		AnnualValue: t.AnnualValue, Currency: t.Currency, GoverningLaw: t.GoverningLaw, DPASigned: t.DPASigned,
		Services: append([]ServiceEntry{}, t.Services...), SupportsCriticalFunction: t.SupportsCriticalFunction, LEI: t.LEI}
}

// parseDate reads a required civil date (2006-01-02) between the years
// 1900 and 9999.
func parseDate(name, raw string) (time.Time, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return time.Time{}, core.Invalid(name, "is required")
	}
	d, err := time.Parse(time.DateOnly, raw)
	if err != nil {
		return time.Time{}, core.Invalid(name, "must be a date (2006-01-02)")
	}
	if d.Year() < 1900 {
		return time.Time{}, core.Invalid(name, "must be in 1900 or later")
	}
	return d, nil
}

// FromStore rebuilds a stored contract as it was written; it never refuses
// a row (a rule tightened since reads the old value as it was).
func FromStore(c Contract) Contract {
	if c.Services == nil {
		c.Services = []ServiceEntry{}
	}
	c.Start, c.End = civil(c.Start), civil(c.End)
	c.CreatedAt, c.UpdatedAt = c.CreatedAt.UTC(), c.UpdatedAt.UTC()
	return c
}

// civil is the UTC calendar day of t at midnight.
func civil(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
