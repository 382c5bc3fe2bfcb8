package assessments

import (
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
)

// Status of a document record.
const (
	DocumentPending  = "pending"
	DocumentUploaded = "uploaded"
)

// DocumentStatusValues lists the states of a document record.
func DocumentStatusValues() []string { return []string{DocumentPending, DocumentUploaded} }

// MaxDocumentSize is the upload cap.
const MaxDocumentSize int64 = 25 << 20

// DocumentURLTTL is how long a presigned upload URL stays valid.
const DocumentURLTTL = 15 * time.Minute

// DocumentDownloadTTL is how long a presigned download URL stays valid. It is short
// because a URL handed out before a delete is not revoked: when the store
// could not delete the file at once (the outbox retries it), such a URL may
// serve it until it expires.
const DocumentDownloadTTL = 5 * time.Minute

// DocumentTypes are the content types accepted as evidence.
var DocumentTypes = []string{
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
	// SHA256 is the hex SHA-256 of the stored file, set when it turns
	// uploaded.
	SHA256     string
	Status     string
	ObjectKey  string
	UploadedBy string
	CreatedAt  time.Time
}

// NewDocument validates a file name and content type and builds a pending record.
func NewDocument(id, accountID, assessmentID uuid.UUID, fileName, contentType, by string, now time.Time) (Document, error) {
	var errs core.Fields
	// A file name goes into a Content-Disposition header on download:
	// unlike other names, even white-space controls are refused.
	name, err := core.PlainText("FileName", fileName, 255)
	switch {
	case err != nil:
		errs.AddErr(err)
	case strings.IndexFunc(fileName, unicode.IsControl) >= 0:
		errs.Add("FileName", "must not contain control characters or line breaks")
	case name == "":
		errs.Add("FileName", "must not be empty")
	case name == "." || name == "..":
		errs.Add("FileName", "must be a file name, not %q", name)
	case strings.ContainsAny(name, `/\"`):
		errs.Add("FileName", "must be a file name without /, \\ or quotes")
	}
	ct := strings.ToLower(strings.TrimSpace(contentType))
	ok := false
	for _, a := range DocumentTypes {
		if a == ct {
			ok = true
		}
	}
	if !ok {
		errs.Add("ContentType", "%q is not allowed (allowed: %s)", contentType, strings.Join(DocumentTypes, ", "))
	}
	if err := errs.Err(); err != nil {
		return Document{}, err
	}
	key := "accounts/" + accountID.String() + "/assessments/" + assessmentID.String() + "/" + id.String()
	return Document{ID: id, AccountID: accountID, AssessmentID: assessmentID, FileName: name, ContentType: ct,
		Status: DocumentPending, ObjectKey: key, UploadedBy: by, CreatedAt: now.UTC()}, nil
}

// DocumentFromStore rebuilds a document record a store read from its stored
// fields, d. Its file name, content type and object key are not checked or
// derived again (they were when the record was made, and a row written
// under older rules must still read); its time is normalised to UTC as
// NewDocument's is.
func DocumentFromStore(d Document) Document {
	d.CreatedAt = d.CreatedAt.UTC()
	return d
}

// Stored is d once its file is in the store: uploaded, with the size and
// SHA-256 of what was stored. A file over MaxDocumentSize is refused (and must be
// deleted by the caller); the record stays pending.
func (d Document) Stored(size int64, sha256 string) (Document, error) {
	if size > MaxDocumentSize {
		return d, core.Invalid("Size", "%d bytes exceeds the cap of %d", size, MaxDocumentSize)
	}
	d.Status, d.SizeBytes, d.SHA256 = DocumentUploaded, size, sha256
	return d, nil
}

// DocumentAuditField names documents in the changes of an assessment's audit log.
const DocumentAuditField = "document"

// DocumentUploadEvent is the audit event recording that d's file was stored, in the
// name of whoever asked for the upload URL.
func DocumentUploadEvent(id uuid.UUID, d Document, at time.Time) AuditEvent {
	return AuditEvent{ID: id, AssessmentID: d.AssessmentID, AccountID: d.AccountID, CreatedAt: at.UTC(), SubmittedBy: d.UploadedBy,
		Changes: []Change{{Field: DocumentAuditField, NewValue: d.describe()}}}
}

// DocumentDeleteEvent is the audit event recording that by removed d.
func DocumentDeleteEvent(id uuid.UUID, d Document, by string, at time.Time) AuditEvent {
	return AuditEvent{ID: id, AssessmentID: d.AssessmentID, AccountID: d.AccountID, CreatedAt: at.UTC(), SubmittedBy: by,
		Changes: []Change{{Field: DocumentAuditField, OldValue: d.describe()}}}
}

// describe names a document in the audit log: its file name and id and,
// once uploaded, its size and SHA-256.
func (d Document) describe() string {
	s := d.FileName + " (id " + d.ID.String()
	if d.Status == DocumentUploaded {
		s += ", " + strconv.FormatInt(d.SizeBytes, 10) + " bytes, sha256 " + d.SHA256
	} else {
		s += ", " + d.Status
	}
	return s + ")"
}
