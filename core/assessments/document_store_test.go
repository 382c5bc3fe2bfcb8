package assessments_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/assessments"
)

func TestDocumentFromStoreRebuildsWhatNewDocumentMade(t *testing.T) {
	at := time.Date(2026, 5, 3, 8, 0, 0, 0, time.FixedZone("CET", 3600))
	pending, err := assessments.NewDocument(uuid.New(), uuid.New(), uuid.New(), "SOC 2 report.pdf", " Application/PDF ", "ana@example.com", at)
	if err != nil {
		t.Fatal(err)
	}
	uploaded, err := pending.Stored(1234, "ab12")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []assessments.Document{pending, uploaded} {
		stored := d
		stored.CreatedAt = d.CreatedAt.In(time.FixedZone("UTC+9", 9*3600)) // as a store may read it back
		if got := assessments.DocumentFromStore(stored); !reflect.DeepEqual(got, d) {
			t.Errorf("rebuilt %#v, want %#v", got, d)
		}
	}
}

func TestDocumentFromStoreReadsRecordsNewDocumentRefuses(t *testing.T) {
	at := time.Date(2026, 5, 3, 8, 0, 0, 0, time.UTC)
	for _, c := range []struct{ fileName, contentType string }{
		{"report.exe", "application/x-msdownload"},
		{"a/b.pdf", "application/pdf"},
		{"", "text/plain"},
	} {
		id, account, assessment := uuid.New(), uuid.New(), uuid.New()
		if _, err := assessments.NewDocument(id, account, assessment, c.fileName, c.contentType, "ana@example.com", at); err == nil {
			t.Fatalf("NewDocument(%q, %q) accepted it; pick a record it refuses", c.fileName, c.contentType)
		}
		want := assessments.Document{ID: id, AccountID: account, AssessmentID: assessment, FileName: c.fileName,
			ContentType: c.contentType, Status: assessments.DocumentPending, ObjectKey: "old/key", CreatedAt: at}
		if got := assessments.DocumentFromStore(want); !reflect.DeepEqual(got, want) {
			t.Errorf("DocumentFromStore(%q, %q) = %#v, want it as stored", c.fileName, c.contentType, got)
		}
	}
}
