package assessments_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/assessments"
)

func TestParseStatus(t *testing.T) {
	t.Parallel()
	want := []string{"not-started", "in-progress", "on-hold", "approved", "conditional approval", "rejected"}
	if !reflect.DeepEqual(assessments.StatusValues(), want) {
		t.Fatalf("StatusValues = %q, want %q", assessments.StatusValues(), want)
	}
	for _, v := range want {
		s, err := assessments.ParseStatus(v)
		if err != nil || s.String() != v {
			t.Errorf("ParseStatus(%q) = %q, %v", v, s, err)
		}
	}
	if s, err := assessments.ParseStatus(""); err != nil || s != assessments.NotStarted {
		t.Errorf(`ParseStatus("") = %q, %v; want not-started`, s, err)
	}
	for _, bad := range []string{"Approved", "APPROVED", " approved", "conditional-approval", "done"} {
		_, err := assessments.ParseStatus(bad)
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

// statusOf is a typed status as the edge hands it over.
func statusOf(s string) *assessments.Status { v := assessments.Status(s); return &v }

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
	cur := assessments.Fields{
		Status:                    assessments.InProgress,
		SponsorBusinessDepartment: "Finance",
		SponsorContact:            "cfo@example.com",
		UseCase:                   "Payroll",
		DataCollected:             []string{"salary"},
		ComplianceComment:         "Waiting for SOC 2",
	}
	tests := []struct {
		name string
		cur  assessments.Fields
		in   assessments.Input
		want func(assessments.Fields) assessments.Fields // from cur
	}{
		{
			name: "empty input keeps everything",
			cur:  cur,
			want: func(f assessments.Fields) assessments.Fields { return f },
		},
		{
			name: "zero fields default to not-started and empty data",
			cur:  assessments.Fields{},
			want: func(assessments.Fields) assessments.Fields {
				return assessments.Fields{Status: assessments.NotStarted, DataCollected: []string{}}
			},
		},
		{
			name: "partial update keeps the rest",
			cur:  cur,
			in:   assessments.Input{UseCase: ptr("  Payroll and HR  "), Status: statusOf("approved")},
			want: func(f assessments.Fields) assessments.Fields {
				f.UseCase, f.Status = "Payroll and HR", assessments.Approved
				return f
			},
		},
		{
			name: "empty string clears a text field",
			cur:  cur,
			in:   assessments.Input{ComplianceComment: ptr(""), SponsorContact: ptr("  ")},
			want: func(f assessments.Fields) assessments.Fields {
				f.ComplianceComment, f.SponsorContact = "", ""
				return f
			},
		},
		{
			name: "sponsor contact lower-cased",
			cur:  cur,
			in:   assessments.Input{SponsorContact: ptr(" Jane.Doe@Example.COM ")},
			want: func(f assessments.Fields) assessments.Fields {
				f.SponsorContact = "jane.doe@example.com"
				return f
			},
		},
		{
			name: "data_collected trimmed, blanks dropped",
			cur:  cur,
			in:   assessments.Input{DataCollected: []string{" email ", "", "  ", "name"}},
			want: func(f assessments.Fields) assessments.Fields {
				f.DataCollected = []string{"email", "name"}
				return f
			},
		},
		{
			name: "empty data_collected clears it",
			cur:  cur,
			in:   assessments.Input{DataCollected: []string{}},
			want: func(f assessments.Fields) assessments.Fields {
				f.DataCollected = []string{}
				return f
			},
		},
		{
			name: "conditional approval with a condition",
			cur:  cur,
			in:   assessments.Input{Status: statusOf("conditional approval"), ConditionalApprovalCondition: ptr("DPA signed")},
			want: func(f assessments.Fields) assessments.Fields {
				f.Status, f.ConditionalApprovalCondition = assessments.ConditionalApproval, "DPA signed"
				return f
			},
		},
		{
			name: "conditional approval with the stored condition",
			cur:  assessments.Fields{Status: assessments.OnHold, ConditionalApprovalCondition: "DPA signed"},
			in:   assessments.Input{Status: statusOf("conditional approval")},
			want: func(f assessments.Fields) assessments.Fields {
				f.Status, f.DataCollected = assessments.ConditionalApproval, []string{}
				return f
			},
		},
		{
			name: "200 data entries",
			cur:  cur,
			in:   assessments.Input{DataCollected: strings.Split(strings.Repeat("x,", 199)+"x", ",")},
			want: func(f assessments.Fields) assessments.Fields {
				f.DataCollected = strings.Split(strings.Repeat("x,", 199)+"x", ",")
				return f
			},
		},
		{
			name: "10000-character text",
			cur:  cur,
			in:   assessments.Input{ComplianceComment: ptr(strings.Repeat("ä", assessments.MaxText))},
			want: func(f assessments.Fields) assessments.Fields {
				f.ComplianceComment = strings.Repeat("ä", assessments.MaxText)
				return f
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := assessments.Apply(tt.cur, tt.in)
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
	long := strings.Repeat("x", assessments.MaxText+1)
	tests := []struct {
		name   string
		cur    assessments.Fields
		in     assessments.Input
		fields []string
	}{
		{"conditional approval without condition", assessments.Fields{}, assessments.Input{Status: statusOf("conditional approval")}, []string{"Input.ConditionalApprovalCondition"}},
		{"condition cleared under conditional approval", assessments.Fields{Status: assessments.ConditionalApproval, ConditionalApprovalCondition: "DPA"}, assessments.Input{ConditionalApprovalCondition: ptr("  ")}, []string{"Input.ConditionalApprovalCondition"}},
		{"sponsor contact not an address", assessments.Fields{}, assessments.Input{SponsorContact: ptr("Jane <jane@example.com>")}, []string{"Input.SponsorContact"}},
		{"too many data entries", assessments.Fields{}, assessments.Input{DataCollected: strings.Split(strings.Repeat("x,", 200)+"x", ",")}, []string{"Input.DataCollected"}},
		{"long use case", assessments.Fields{}, assessments.Input{UseCase: ptr(long)}, []string{"Input.UseCase"}},
		{"long comment", assessments.Fields{}, assessments.Input{ComplianceComment: ptr(long)}, []string{"Input.ComplianceComment"}},
		{"long department", assessments.Fields{}, assessments.Input{SponsorBusinessDepartment: ptr(long)}, []string{"Input.SponsorBusinessDepartment"}},
		{"long condition", assessments.Fields{}, assessments.Input{ConditionalApprovalCondition: ptr(long)}, []string{"Input.ConditionalApprovalCondition"}},
		{"several at once", assessments.Fields{}, assessments.Input{UseCase: ptr(long), SponsorContact: ptr("x")}, []string{"Input.UseCase", "Input.SponsorContact"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := assessments.Apply(tt.cur, tt.in)
			if got := fieldErrors(t, err); !reflect.DeepEqual(got, tt.fields) {
				t.Fatalf("field errors %q, want %q (%v)", got, tt.fields, err)
			}
		})
	}
}

func TestDiff(t *testing.T) {
	t.Parallel()
	old := assessments.Fields{Status: assessments.InProgress, UseCase: "Payroll", DataCollected: []string{"email", "name"}}
	tests := []struct {
		name string
		old  assessments.Fields
		next assessments.Fields
		want []assessments.Change
	}{
		{"no change", old, old, nil},
		{"same data, new slice", old, assessments.Fields{Status: assessments.InProgress, UseCase: "Payroll", DataCollected: []string{"email", "name"}}, nil},
		{
			"status and data",
			old,
			assessments.Fields{Status: assessments.Approved, UseCase: "Payroll", DataCollected: []string{"email"}},
			[]assessments.Change{
				{Field: "compliance_approval_status", OldValue: "in-progress", NewValue: "approved"},
				{Field: "data_collected", OldValue: "email; name", NewValue: "email"},
			},
		},
		{
			"new assessment against zero fields",
			assessments.Fields{},
			assessments.Fields{Status: assessments.NotStarted, SponsorContact: "a@b.c", DataCollected: []string{}},
			[]assessments.Change{
				{Field: "compliance_approval_status", OldValue: "", NewValue: "not-started"},
				{Field: "sponsor_contact", OldValue: "", NewValue: "a@b.c"},
			},
		},
		{
			"every text field",
			assessments.Fields{},
			assessments.Fields{ConditionalApprovalCondition: "c", SponsorBusinessDepartment: "d", UseCase: "u", ComplianceComment: "x"},
			[]assessments.Change{
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
			if got := assessments.Diff(tt.old, tt.next); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Diff = %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestApplyExtraFieldsOfTheOriginalClient(t *testing.T) {
	t.Parallel()
	next, err := assessments.Apply(assessments.Fields{}, assessments.Input{ComplianceContact: ptr(" Grace (GRC) "),
		SubmissionDate: ptr("2026-03-04"), ApprovalDate: ptr("2026-03-05T23:30:00-02:00")})
	if err != nil {
		t.Fatal(err)
	}
	if next.ComplianceContact != "Grace (GRC)" || next.SubmissionDate != "2026-03-04" || next.ApprovalDate != "2026-03-06" {
		t.Fatalf("fields = %+v", next)
	}
	changes := assessments.Diff(assessments.Fields{}, next)
	got := map[string]string{}
	for _, c := range changes {
		got[c.Field] = c.NewValue
	}
	if got["compliance_contact"] != "Grace (GRC)" || got["submission_date"] != "2026-03-04" || got["approval_date"] != "2026-03-06" {
		t.Fatalf("audit changes = %v", got)
	}
	cleared, err := assessments.Apply(next, assessments.Input{ApprovalDate: ptr("")})
	if err != nil || cleared.ApprovalDate != "" || cleared.SubmissionDate != "2026-03-04" {
		t.Fatalf("clearing one date: %+v, %v", cleared, err)
	}
	_, err = assessments.Apply(assessments.Fields{}, assessments.Input{SubmissionDate: ptr("yesterday"), ApprovalDate: ptr("2026-02-30")})
	if got := fieldErrors(t, err); len(got) != 2 || got[0] != "Input.SubmissionDate" || got[1] != "Input.ApprovalDate" {
		t.Fatalf("field errors = %v", got)
	}
}
