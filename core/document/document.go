// Package document holds evidence documents attached to assessments. Files
// move through presigned URLs; a record is pending until its object exists.
package document

import (
	"strings"
	"time"
	"unicode"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
)

// Status of a document record.
const (
	StatusPending  = "pending"
	StatusUploaded = "uploaded"
)

// StatusValues lists the states of a document record.
func StatusValues() []string { return []string{StatusPending, StatusUploaded} }

// MaxSize is the upload cap.
const MaxSize int64 = 25 << 20

// URLTTL is how long a presigned URL stays valid.
const URLTTL = 15 * time.Minute

// AllowedTypes are the content types accepted as evidence.
var AllowedTypes = []string{
	"application/pdf",
	"image/png",
	"image/jpeg",
	"text/plain",
	"text/csv",
	"application/json",
	"application/zip",
	"application/msword",
	"application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	"application/vnd.ms-excel",
	"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	"application/vnd.openxmlformats-officedocument.presentationml.presentation",
}

// Document is an evidence file record.
type Document struct {
	ID           uuid.UUID
	AccountID    uuid.UUID
	AssessmentID uuid.UUID
	FileName     string
	ContentType  string
	SizeBytes    int64
	Status       string
	ObjectKey    string
	UploadedBy   string
	CreatedAt    time.Time
}

// New validates a file name and content type and builds a pending record.
func New(id, accountID, assessmentID uuid.UUID, fileName, contentType, by string, now time.Time) (Document, error) {
	var errs core.Fields
	// A file name goes into a Content-Disposition header on download:
	// unlike other names, even white-space controls are refused.
	name, err := core.PlainText("file-name", fileName, 255)
	switch {
	case err != nil:
		errs.AddErr(err)
	case strings.IndexFunc(fileName, unicode.IsControl) >= 0:
		errs.Add("file-name", "must not contain control characters or line breaks")
	case name == "":
		errs.Add("file-name", "must not be empty")
	case name == "." || name == "..":
		errs.Add("file-name", "must be a file name, not %q", name)
	case strings.ContainsAny(name, `/\"`):
		errs.Add("file-name", "must be a file name without /, \\ or quotes")
	}
	ct := strings.ToLower(strings.TrimSpace(contentType))
	ok := false
	for _, a := range AllowedTypes {
		if a == ct {
			ok = true
		}
	}
	if !ok {
		errs.Add("content-type", "%q is not allowed (allowed: %s)", contentType, strings.Join(AllowedTypes, ", "))
	}
	if err := errs.Err(); err != nil {
		return Document{}, err
	}
	key := "accounts/" + accountID.String() + "/assessments/" + assessmentID.String() + "/" + id.String()
	return Document{ID: id, AccountID: accountID, AssessmentID: assessmentID, FileName: name, ContentType: ct,
		Status: StatusPending, ObjectKey: key, UploadedBy: by, CreatedAt: now.UTC()}, nil
}
