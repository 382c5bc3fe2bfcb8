package attestations_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/attestations"
)

func str(s string) *string { return &s }
func num(n int) *int       { return &n }

func fields(err error) []string {
	var out []string
	for _, e := range core.Failures(err) {
		out = append(out, e.Field)
	}
	return out
}

func soc2() attestations.Input {
	return attestations.Input{Kind: "soc2", ReportType: num(2), PeriodStart: str("2025-01-01"), PeriodEnd: str("2025-12-31"),
		Auditor: str("Audit & Co"), Opinion: str("qualified"), Exceptions: str("one"), SubserviceOrganizations: []string{"AWS"}}
}

func TestNewAcceptsEachKind(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	acc, ven, id := uuid.New(), uuid.New(), uuid.New()
	for _, in := range []attestations.Input{
		soc2(),
		{Kind: "iso27001", CertificateNumber: str("C-1"), Issuer: str("BSI"), Scope: str("All of it"), ValidUntil: str("2027-01-01")},
		{Kind: "pentest", PerformedOn: str("2025-05-05"), Firm: str("Pen Ltd"), OpenCritical: num(0), OpenHigh: num(2)},
		{Kind: "insurance", ValidUntil: str("2026-06-30")},
		{Kind: "other", ValidUntil: str("2026-06-30"), ContentType: "image/png"},
	} {
		a, err := attestations.New(id, acc, ven, in, "m@example.com", now)
		if err != nil {
			t.Fatalf("%s: %v", in.Kind, err)
		}
		if a.Kind != in.Kind || a.AccountID != acc || a.VendorID != ven || a.CreatedBy != "m@example.com" || !a.CreatedAt.Equal(now) {
			t.Errorf("%s: %+v", in.Kind, a)
		}
		if a.ObjectKey != "accounts/"+acc.String()+"/attestations/"+id.String() {
			t.Errorf("%s: key %s", in.Kind, a.ObjectKey)
		}
	}
	a, _ := attestations.New(id, acc, ven, soc2(), "", now)
	if a.ReportType != 2 || a.Opinion != "qualified" || a.PeriodEnd.Format(time.DateOnly) != "2025-12-31" || a.CUECs == nil || a.ContentType != "application/pdf" {
		t.Errorf("soc2: %+v", a)
	}
	d, _ := attestations.New(id, uuid.Nil, ven, soc2(), "", now)
	if d.Visibility() != attestations.VisibilityDirectory || !strings.HasPrefix(d.ObjectKey, "directory/vendors/"+ven.String()) {
		t.Errorf("directory: %s %s", d.Visibility(), d.ObjectKey)
	}
}

func TestNewRefusesNamingTheField(t *testing.T) {
	for name, c := range map[string]struct {
		in   func(in *attestations.Input)
		want []string
	}{
		"unknown kind":        {func(in *attestations.Input) { in.Kind = "gdpr" }, []string{"Attestation.Kind"}},
		"no kind":             {func(in *attestations.Input) { in.Kind = "" }, []string{"Attestation.Kind"}},
		"another kind's":      {func(in *attestations.Input) { in.ValidUntil = str("2026-01-01"); in.Firm = str("x") }, []string{"Attestation.ValidUntil", "Attestation.Firm"}},
		"report type 3":       {func(in *attestations.Input) { in.ReportType = num(3) }, []string{"Attestation.ReportType"}},
		"no report type":      {func(in *attestations.Input) { in.ReportType = nil }, []string{"Attestation.ReportType"}},
		"no period end":       {func(in *attestations.Input) { in.PeriodEnd = nil }, []string{"Attestation.PeriodEnd"}},
		"bad period start":    {func(in *attestations.Input) { in.PeriodStart = str("2025-02-30") }, []string{"Attestation.PeriodStart"}},
		"end before start":    {func(in *attestations.Input) { in.PeriodEnd = str("2024-12-31") }, []string{"Attestation.PeriodEnd"}},
		"bad opinion":         {func(in *attestations.Input) { in.Opinion = str("clean") }, []string{"Attestation.Opinion"}},
		"no auditor":          {func(in *attestations.Input) { in.Auditor = str("  ") }, []string{"Attestation.Auditor"}},
		"empty carve-out":     {func(in *attestations.Input) { in.SubserviceOrganizations = []string{""} }, []string{"Attestation.SubserviceOrganizations"}},
		"bad file type":       {func(in *attestations.Input) { in.ContentType = "text/html" }, []string{"Attestation.ContentType"}},
		"control in exceptns": {func(in *attestations.Input) { in.Exceptions = str("a\x00b") }, []string{"Attestation.Exceptions"}},
	} {
		in := soc2()
		c.in(&in)
		_, err := attestations.New(uuid.New(), uuid.New(), uuid.New(), in, "", time.Now())
		if !errors.Is(err, core.ErrInvalid) {
			t.Fatalf("%s: %v", name, err)
		}
		if got := fields(err); strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: fields %v, want %v", name, got, c.want)
		}
	}
	for name, c := range map[string]struct {
		in   attestations.Input
		want []string
	}{
		"iso without date":       {attestations.Input{Kind: "iso27001", CertificateNumber: str("1"), Issuer: str("x")}, []string{"Attestation.ValidUntil"}},
		"iso without issuer":     {attestations.Input{Kind: "iso27001", CertificateNumber: str("1"), ValidUntil: str("2026-01-01")}, []string{"Attestation.Issuer"}},
		"pentest negative":       {attestations.Input{Kind: "pentest", PerformedOn: str("2025-01-01"), Firm: str("x"), OpenHigh: num(-1)}, []string{"Attestation.OpenHigh"}},
		"pentest without date":   {attestations.Input{Kind: "pentest", Firm: str("x")}, []string{"Attestation.PerformedOn"}},
		"insurance with opinion": {attestations.Input{Kind: "insurance", ValidUntil: str("2026-01-01"), Opinion: str("adverse")}, []string{"Attestation.Opinion"}},
		"other without date":     {attestations.Input{Kind: "other"}, []string{"Attestation.ValidUntil"}},
		"pentest valid until":    {attestations.Input{Kind: "pentest", PerformedOn: str("2025-01-01"), Firm: str("x"), ValidUntil: str("2026-01-01")}, []string{"Attestation.ValidUntil"}},
	} {
		_, err := attestations.New(uuid.New(), uuid.New(), uuid.New(), c.in, "", time.Now())
		if got := fields(err); strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: fields %v, want %v (%v)", name, got, c.want, err)
		}
	}
}

func TestAttestationFromStoreNeverRefuses(t *testing.T) {
	a := attestations.AttestationFromStore(attestations.Attestation{Kind: "soc2", Opinion: "whatever-it-was", ReportType: 7,
		CreatedAt: time.Date(2025, 1, 1, 1, 0, 0, 0, time.FixedZone("x", 3600))})
	if a.Opinion != "whatever-it-was" || a.ReportType != 7 || a.CreatedAt.Location() != time.UTC || a.CUECs == nil || a.SubserviceOrganizations == nil {
		t.Errorf("%+v", a)
	}
}
