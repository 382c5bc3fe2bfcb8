package vendors

import (
	"slices"
	"testing"
	"time"
)

func TestRatingChanges(t *testing.T) {
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	far, soon, gone := t0.Add(90*24*time.Hour), t0.Add(10*24*time.Hour), t0.Add(-24*time.Hour)
	rec := func(grade string, certExp *time.Time, findings ...RatingFinding) RatingRecord {
		return RatingRecord{ScannedAt: t0, Grade: grade, CertExpiresAt: certExp, Findings: findings}
	}
	high := RatingFinding{Code: "tls_protocol_weak", Severity: "high", Title: "Weak TLS"}
	crit := RatingFinding{Code: "tls_cert_expired", Severity: "critical", Title: "Expired"}
	medium := RatingFinding{Code: "hsts_missing", Severity: "medium", Title: "No HSTS"}
	for _, c := range []struct {
		name string
		prev *RatingRecord
		cur  RatingRecord
		want []RatingChangeKind
	}{
		{"first scan is the baseline", nil, rec("F", &soon, crit), nil},
		{"same grade, nothing new", &RatingRecord{Grade: "B", CertExpiresAt: &far}, rec("B", &far), nil},
		{"better grade", ptr(rec("C", &far)), rec("A", &far), nil},
		{"one letter down", ptr(rec("A", &far)), rec("B", &far), []RatingChangeKind{ChangeGradeDrop}},
		{"two letters down", ptr(rec("B", &far)), rec("D", &far), []RatingChangeKind{ChangeGradeDrop}},
		{"no rating before", ptr(rec("", nil)), rec("F", &far), nil},
		{"no rating now", ptr(rec("A", &far)), rec("", nil), nil},
		{"new high finding", ptr(rec("A", &far)), rec("A", &far, high), []RatingChangeKind{ChangeNewFinding}},
		{"new medium finding is not", ptr(rec("A", &far)), rec("A", &far, medium), nil},
		{"high finding already there", ptr(rec("B", &far, high)), rec("B", &far, high), nil},
		{"certificate swapped for an expiring one", ptr(rec("A", &far)), rec("A", &soon), []RatingChangeKind{ChangeCertExpiring}},
		{"still expiring", ptr(rec("A", &soon)), rec("A", &soon), nil},
		{"expired certificate, new critical finding, grade drop: one event",
			ptr(rec("A", &far)), rec("C", &gone, crit), []RatingChangeKind{ChangeGradeDrop, ChangeNewFinding, ChangeCertExpiring}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []RatingChangeKind
			for _, ch := range RatingChanges(c.prev, c.cur) {
				got = append(got, ch.Kind)
				if ch.Detail == "" {
					t.Errorf("%s without detail", ch.Kind)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("changes %v, want %v", got, c.want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestNewRatingRecord(t *testing.T) {
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	rating := 85
	p := Profile{Scores: Scores{SecurityRating: &rating, Grade: "B"}}
	p.Security.ExternalSignals.TLSExpiresAt = "2026-11-11T00:00:00Z"
	r := NewRatingRecord([16]byte{1}, p, []SecurityInstance{
		{Code: "hsts_missing", Severity: "medium", Title: "No HSTS"},
		{Code: "caa_present", Severity: "positive"},
		{Code: "spf_not_checked", Severity: "info"},
	}, at)
	if *r.Rating != 85 || r.Grade != "B" || len(r.Findings) != 1 || r.Findings[0].Code != "hsts_missing" ||
		r.CertExpiresAt == nil || !r.certExpiring() {
		t.Errorf("record %+v", r)
	}
}

// TestNewRatingRecordCoverage: a record keeps how many of the scan's checks
// ran (the not-checked signals its findings skip), and a scan without any
// check result keeps 0 ran, known, not unknown.
func TestNewRatingRecordCoverage(t *testing.T) {
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	total := len(Checks())
	for _, c := range []struct {
		name string
		is   []SecurityInstance
		ran  int
	}{
		{"two checks could not run", []SecurityInstance{
			{Code: "hsts_missing", Severity: "medium"}, {Code: "spf_not_checked", Severity: "info"},
			{Code: "https_not_checked", Severity: "info"}, {Code: "spf_not_checked", Severity: "info"}}, total - 2},
		{"every check ran", []SecurityInstance{{Code: "caa_present", Severity: "positive"}}, total},
		{"no scan result", nil, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := NewRatingRecord([16]byte{1}, Profile{}, c.is, at)
			if r.ChecksRun == nil || r.ChecksTotal == nil {
				t.Fatalf("coverage not recorded: %v of %v", r.ChecksRun, r.ChecksTotal)
			}
			if *r.ChecksRun != c.ran || *r.ChecksTotal != total {
				t.Errorf("coverage %d of %d, want %d of %d", *r.ChecksRun, *r.ChecksTotal, c.ran, total)
			}
		})
	}
}
