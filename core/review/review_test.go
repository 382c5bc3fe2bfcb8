package review_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/review"
)

func TestParseStatus(t *testing.T) {
	t.Parallel()
	want := []string{"not-started", "in-progress", "on-hold", "approved", "conditional approval", "rejected"}
	if !reflect.DeepEqual(review.StatusValues(), want) {
		t.Fatalf("StatusValues = %q, want %q", review.StatusValues(), want)
	}
	for _, v := range want {
		s, err := review.ParseStatus(v)
		if err != nil || s.String() != v {
			t.Errorf("ParseStatus(%q) = %q, %v", v, s, err)
		}
	}
	if s, err := review.ParseStatus(""); err != nil || s != review.NotStarted {
		t.Errorf(`ParseStatus("") = %q, %v; want not-started`, s, err)
	}
	for _, bad := range []string{"Approved", "APPROVED", " approved", "conditional-approval", "done"} {
		_, err := review.ParseStatus(bad)
		if !errors.Is(err, core.ErrInvalid) {
			t.Errorf("ParseStatus(%q): err = %v, want ErrInvalid", bad, err)
			continue
		}
		if !strings.Contains(err.Error(), strings.Join(want, ", ")) || !strings.Contains(err.Error(), "Input.Status") {
			t.Errorf("ParseStatus(%q): error %q does not name the field and list the values", bad, err)
		}
	}
}

func ptr(s string) *string { return &s }

// fieldErrors returns the field names of a validation error, or fails.
func fieldErrors(t *testing.T, err error) []string {
	t.Helper()
	fs := core.Failures(err)
	if !errors.Is(err, core.ErrInvalid) || len(fs) == 0 {
		t.Fatalf("err = %v, want a validation error", err)
	}
	var out []string
	for _, f := range fs {
		out = append(out, f.Field)
	}
	return out
}

func TestApply(t *testing.T) {
	t.Parallel()
	cur := review.Fields{
		Status:                    review.InProgress,
		SponsorBusinessDepartment: "Finance",
		SponsorContact:            "cfo@example.com",
		UseCase:                   "Payroll",
		DataCollected:             []string{"salary"},
		ComplianceComment:         "Waiting for SOC 2",
	}
	tests := []struct {
		name string
		cur  review.Fields
		in   review.Input
		want func(review.Fields) review.Fields // from cur
	}{
		{
			name: "empty input keeps everything",
			cur:  cur,
			want: func(f review.Fields) review.Fields { return f },
		},
		{
			name: "zero fields default to not-started and empty data",
			cur:  review.Fields{},
			want: func(review.Fields) review.Fields {
				return review.Fields{Status: review.NotStarted, DataCollected: []string{}}
			},
		},
		{
			name: "partial update keeps the rest",
			cur:  cur,
			in:   review.Input{UseCase: ptr("  Payroll and HR  "), Status: ptr("approved")},
			want: func(f review.Fields) review.Fields {
				f.UseCase, f.Status = "Payroll and HR", review.Approved
				return f
			},
		},
		{
			name: "empty string clears a text field",
			cur:  cur,
			in:   review.Input{ComplianceComment: ptr(""), SponsorContact: ptr("  ")},
			want: func(f review.Fields) review.Fields {
				f.ComplianceComment, f.SponsorContact = "", ""
				return f
			},
		},
		{
			name: "sponsor contact lower-cased",
			cur:  cur,
			in:   review.Input{SponsorContact: ptr(" Jane.Doe@Example.COM ")},
			want: func(f review.Fields) review.Fields {
				f.SponsorContact = "jane.doe@example.com"
				return f
			},
		},
		{
			name: "data_collected trimmed, blanks dropped",
			cur:  cur,
			in:   review.Input{DataCollected: []string{" email ", "", "  ", "name"}},
			want: func(f review.Fields) review.Fields {
				f.DataCollected = []string{"email", "name"}
				return f
			},
		},
		{
			name: "empty data_collected clears it",
			cur:  cur,
			in:   review.Input{DataCollected: []string{}},
			want: func(f review.Fields) review.Fields {
				f.DataCollected = []string{}
				return f
			},
		},
		{
			name: "conditional approval with a condition",
			cur:  cur,
			in:   review.Input{Status: ptr("conditional approval"), ConditionalApprovalCondition: ptr("DPA signed")},
			want: func(f review.Fields) review.Fields {
				f.Status, f.ConditionalApprovalCondition = review.ConditionalApproval, "DPA signed"
				return f
			},
		},
		{
			name: "conditional approval with the stored condition",
			cur:  review.Fields{Status: review.OnHold, ConditionalApprovalCondition: "DPA signed"},
			in:   review.Input{Status: ptr("conditional approval")},
			want: func(f review.Fields) review.Fields {
				f.Status, f.DataCollected = review.ConditionalApproval, []string{}
				return f
			},
		},
		{
			name: "200 data entries",
			cur:  cur,
			in:   review.Input{DataCollected: strings.Split(strings.Repeat("x,", 199)+"x", ",")},
			want: func(f review.Fields) review.Fields {
				f.DataCollected = strings.Split(strings.Repeat("x,", 199)+"x", ",")
				return f
			},
		},
		{
			name: "10000-character text",
			cur:  cur,
			in:   review.Input{ComplianceComment: ptr(strings.Repeat("ä", review.MaxText))},
			want: func(f review.Fields) review.Fields {
				f.ComplianceComment = strings.Repeat("ä", review.MaxText)
				return f
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := review.Apply(tt.cur, tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if want := tt.want(tt.cur); !reflect.DeepEqual(got, want) {
				t.Fatalf("Apply = %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestApplyRefuses(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", review.MaxText+1)
	tests := []struct {
		name   string
		cur    review.Fields
		in     review.Input
		fields []string
	}{
		{"bad status", review.Fields{}, review.Input{Status: ptr("Approved")}, []string{"Input.Status"}},
		{"conditional approval without condition", review.Fields{}, review.Input{Status: ptr("conditional approval")}, []string{"Input.ConditionalApprovalCondition"}},
		{"condition cleared under conditional approval", review.Fields{Status: review.ConditionalApproval, ConditionalApprovalCondition: "DPA"}, review.Input{ConditionalApprovalCondition: ptr("  ")}, []string{"Input.ConditionalApprovalCondition"}},
		{"sponsor contact not an address", review.Fields{}, review.Input{SponsorContact: ptr("Jane <jane@example.com>")}, []string{"Input.SponsorContact"}},
		{"too many data entries", review.Fields{}, review.Input{DataCollected: strings.Split(strings.Repeat("x,", 200)+"x", ",")}, []string{"Input.DataCollected"}},
		{"long use case", review.Fields{}, review.Input{UseCase: ptr(long)}, []string{"Input.UseCase"}},
		{"long comment", review.Fields{}, review.Input{ComplianceComment: ptr(long)}, []string{"Input.ComplianceComment"}},
		{"long department", review.Fields{}, review.Input{SponsorBusinessDepartment: ptr(long)}, []string{"Input.SponsorBusinessDepartment"}},
		{"long condition", review.Fields{}, review.Input{ConditionalApprovalCondition: ptr(long)}, []string{"Input.ConditionalApprovalCondition"}},
		{"several at once", review.Fields{}, review.Input{Status: ptr("nope"), UseCase: ptr(long), SponsorContact: ptr("x")}, []string{"Input.Status", "Input.UseCase", "Input.SponsorContact"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := review.Apply(tt.cur, tt.in)
			if got := fieldErrors(t, err); !reflect.DeepEqual(got, tt.fields) {
				t.Fatalf("field errors %q, want %q (%v)", got, tt.fields, err)
			}
		})
	}
}

func TestDiff(t *testing.T) {
	t.Parallel()
	old := review.Fields{Status: review.InProgress, UseCase: "Payroll", DataCollected: []string{"email", "name"}}
	tests := []struct {
		name string
		old  review.Fields
		next review.Fields
		want []review.Change
	}{
		{"no change", old, old, nil},
		{"same data, new slice", old, review.Fields{Status: review.InProgress, UseCase: "Payroll", DataCollected: []string{"email", "name"}}, nil},
		{
			"status and data",
			old,
			review.Fields{Status: review.Approved, UseCase: "Payroll", DataCollected: []string{"email"}},
			[]review.Change{
				{Field: "compliance_approval_status", OldValue: "in-progress", NewValue: "approved"},
				{Field: "data_collected", OldValue: "email; name", NewValue: "email"},
			},
		},
		{
			"new assessment against zero fields",
			review.Fields{},
			review.Fields{Status: review.NotStarted, SponsorContact: "a@b.c", DataCollected: []string{}},
			[]review.Change{
				{Field: "compliance_approval_status", OldValue: "", NewValue: "not-started"},
				{Field: "sponsor_contact", OldValue: "", NewValue: "a@b.c"},
			},
		},
		{
			"every text field",
			review.Fields{},
			review.Fields{ConditionalApprovalCondition: "c", SponsorBusinessDepartment: "d", UseCase: "u", ComplianceComment: "x"},
			[]review.Change{
				{Field: "conditional_approval_condition", NewValue: "c"},
				{Field: "sponsor_business_department", NewValue: "d"},
				{Field: "use_case", NewValue: "u"},
				{Field: "compliance_comment", NewValue: "x"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := review.Diff(tt.old, tt.next); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Diff = %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestApplyExtraFieldsOfTheOriginalClient(t *testing.T) {
	t.Parallel()
	next, err := review.Apply(review.Fields{}, review.Input{ComplianceContact: ptr(" Grace (GRC) "),
		SubmissionDate: ptr("2026-03-04"), ApprovalDate: ptr("2026-03-05T23:30:00-02:00")})
	if err != nil {
		t.Fatal(err)
	}
	if next.ComplianceContact != "Grace (GRC)" || next.SubmissionDate != "2026-03-04" || next.ApprovalDate != "2026-03-06" {
		t.Fatalf("fields = %+v", next)
	}
	changes := review.Diff(review.Fields{}, next)
	got := map[string]string{}
	for _, c := range changes {
		got[c.Field] = c.NewValue
	}
	if got["compliance_contact"] != "Grace (GRC)" || got["submission_date"] != "2026-03-04" || got["approval_date"] != "2026-03-06" {
		t.Fatalf("audit changes = %v", got)
	}
	cleared, err := review.Apply(next, review.Input{ApprovalDate: ptr("")})
	if err != nil || cleared.ApprovalDate != "" || cleared.SubmissionDate != "2026-03-04" {
		t.Fatalf("clearing one date: %+v, %v", cleared, err)
	}
	_, err = review.Apply(review.Fields{}, review.Input{SubmissionDate: ptr("yesterday"), ApprovalDate: ptr("2026-02-30")})
	if got := fieldErrors(t, err); len(got) != 2 || got[0] != "Input.SubmissionDate" || got[1] != "Input.ApprovalDate" {
		t.Fatalf("field errors = %v", got)
	}
}
