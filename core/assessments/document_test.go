package assessments_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/assessments"
)

func TestNew(t *testing.T) {
	t.Parallel()
	id, acct, asmt := uuid.New(), uuid.New(), uuid.New()
	now := time.Date(2026, 4, 1, 8, 0, 0, 0, time.FixedZone("X", 3600))
	tests := []struct {
		name, file, ct         string
		wantFile, wantCT       string
		invalidField, errNames string
	}{
		{name: "plain", file: "soc2.pdf", ct: "application/pdf", wantFile: "soc2.pdf", wantCT: "application/pdf"},
		{name: "trimmed", file: "  soc2.pdf ", ct: " application/pdf ", wantFile: "soc2.pdf", wantCT: "application/pdf"},
		{name: "parent dirs refused", file: "../../x.pdf", ct: "application/pdf", invalidField: "FileName"},
		{name: "absolute path refused", file: "/etc/passwd.txt", ct: "text/plain", invalidField: "FileName"},
		{name: "backslashes refused", file: `C:\Users\me\..\report.xlsx`, ct: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", invalidField: "FileName"},
		{name: "dot dot", file: "..", ct: "application/pdf", invalidField: "FileName"},
		{name: "dot", file: " . ", ct: "application/pdf", invalidField: "FileName"},
		{name: "dots inside a name are fine", file: "report..v2.pdf", ct: "application/pdf", wantFile: "report..v2.pdf", wantCT: "application/pdf"},
		{name: "tab", file: "a\tb.pdf", ct: "application/pdf", invalidField: "FileName"},
		{name: "C1 control", file: "a\u0085b.pdf", ct: "application/pdf", invalidField: "FileName"},
		{name: "invalid UTF-8", file: "a\xffb.pdf", ct: "application/pdf", invalidField: "FileName"},
		{name: "content type case-insensitive", file: "a.png", ct: "Image/PNG", wantFile: "a.png", wantCT: "image/png"},
		{name: "unicode name", file: "Prüfbericht 2026.pdf", ct: "application/pdf", wantFile: "Prüfbericht 2026.pdf", wantCT: "application/pdf"},
		{name: "255 runes", file: strings.Repeat("ü", 251) + ".pdf", ct: "application/pdf", wantFile: strings.Repeat("ü", 251) + ".pdf", wantCT: "application/pdf"},
		{name: "empty", file: "", ct: "application/pdf", invalidField: "FileName"},
		{name: "blank", file: "   ", ct: "application/pdf", invalidField: "FileName"},
		{name: "only a slash", file: "/", ct: "application/pdf", invalidField: "FileName"},
		{name: "256 runes", file: strings.Repeat("ü", 252) + ".pdf", ct: "application/pdf", invalidField: "FileName"},
		{name: "quote", file: `a".pdf`, ct: "application/pdf", invalidField: "FileName"},
		{name: "newline", file: "a\r\nX-Evil: 1.pdf", ct: "application/pdf", invalidField: "FileName"},
		{name: "NUL", file: "a\x00.pdf", ct: "application/pdf", invalidField: "FileName"},
		{name: "DEL", file: "a\x7f.pdf", ct: "application/pdf", invalidField: "FileName"},
		{name: "html not allowed", file: "a.html", ct: "text/html", invalidField: "ContentType", errNames: "application/pdf"},
		{name: "parameters not allowed", file: "a.txt", ct: "text/plain; charset=utf-8", invalidField: "ContentType"},
		{name: "empty content type", file: "a.txt", ct: "", invalidField: "ContentType"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d, err := assessments.NewDocument(id, acct, asmt, tt.file, tt.ct, "alice@example.com", now)
			if tt.invalidField != "" {
				fs := core.Failures(err)
				if !errors.Is(err, core.ErrInvalid) || len(fs) == 0 || fs[0].Field != tt.invalidField {
					t.Fatalf("err = %v, want a validation error on %s", err, tt.invalidField)
				}
				if tt.errNames != "" && !strings.Contains(err.Error(), strings.Join(assessments.DocumentTypes, ", ")) {
					t.Fatalf("error %q does not list the allowed types", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.FileName != tt.wantFile || d.ContentType != tt.wantCT {
				t.Fatalf("New = %q, %q; want %q, %q", d.FileName, d.ContentType, tt.wantFile, tt.wantCT)
			}
			key := "accounts/" + acct.String() + "/assessments/" + asmt.String() + "/" + id.String()
			if d.ObjectKey != key {
				t.Fatalf("ObjectKey = %q, want %q", d.ObjectKey, key)
			}
			if d.Status != assessments.DocumentPending || d.SizeBytes != 0 || d.UploadedBy != "alice@example.com" ||
				d.ID != id || d.AccountID != acct || d.AssessmentID != asmt || d.CreatedAt.Location() != time.UTC || !d.CreatedAt.Equal(now) {
				t.Fatalf("New = %+v", d)
			}
		})
	}
}

func TestEveryAllowedTypeIsAccepted(t *testing.T) {
	t.Parallel()
	for _, ct := range assessments.DocumentTypes {
		if _, err := assessments.NewDocument(uuid.New(), uuid.New(), uuid.New(), "f", strings.ToUpper(ct), "", time.Now()); err != nil {
			t.Errorf("%s: %v", ct, err)
		}
	}
	if assessments.MaxDocumentSize != 25<<20 || assessments.DocumentURLTTL != 15*time.Minute {
		t.Fatalf("MaxSize %d, URLTTL %v; want 25 MB and 15 minutes", assessments.MaxDocumentSize, assessments.DocumentURLTTL)
	}
}

func TestStoredAndAuditEvents(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 4, 1, 8, 0, 0, 0, time.UTC)
	d, err := assessments.NewDocument(uuid.New(), uuid.New(), uuid.New(), "soc2.pdf", "application/pdf", "ann@example.com", now)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Stored(assessments.MaxDocumentSize+1, "ab"); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("Stored over the cap = %v, want invalid", err)
	}
	const sum = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
	up, err := d.Stored(assessments.MaxDocumentSize, sum)
	if err != nil || up.Status != assessments.DocumentUploaded || up.SizeBytes != assessments.MaxDocumentSize || up.SHA256 != sum {
		t.Fatalf("Stored = %+v, %v", up, err)
	}
	if d.Status != assessments.DocumentPending {
		t.Fatal("Stored changed its receiver")
	}
	evID := uuid.New()
	ev := assessments.DocumentUploadEvent(evID, up, now)
	want := "soc2.pdf (id " + d.ID.String() + ", 26214400 bytes, sha256 " + sum + ")"
	if ev.ID != evID || ev.AssessmentID != d.AssessmentID || ev.AccountID != d.AccountID || ev.SubmittedBy != "ann@example.com" ||
		len(ev.Changes) != 1 || ev.Changes[0].Field != "document" || ev.Changes[0].OldValue != "" || ev.Changes[0].NewValue != want {
		t.Fatalf("upload event = %+v", ev)
	}
	del := assessments.DocumentDeleteEvent(uuid.New(), d, "bob@example.com", now)
	if del.SubmittedBy != "bob@example.com" || len(del.Changes) != 1 || del.Changes[0].NewValue != "" ||
		del.Changes[0].OldValue != "soc2.pdf (id "+d.ID.String()+", pending)" {
		t.Fatalf("delete event = %+v", del)
	}
}
