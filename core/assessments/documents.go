package assessments

import (
	"context"
	"errors"
	"strings"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/ports"
)

// ParseDocumentID reads a document-id.
func ParseDocumentID(raw string) (uuid.UUID, error) {
	if strings.TrimSpace(raw) == "" {
		return uuid.Nil, core.Invalid("DocumentID", "is required")
	}
	return accounts.ParseID("DocumentID", raw)
}

// Upload is a pending document with the request that uploads its file.
type Upload struct {
	Document Document
	Request  ports.PresignedRequest
}

// UploadURL creates a pending document on an assessment of a list and
// returns a presigned upload bound to the content type and the size cap
// (member or above).
func (s *Service) UploadURL(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, lr lists.ListRef, assessmentID uuid.UUID, fileName, contentType string) (Upload, error) {
	var up Upload
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		acc, l, err := lists.AccountList(ctx, tx, a, ref, accounts.WriteRole, lr, false)
		if err != nil {
			return err
		}
		asm, err := s.findAssessment(ctx, tx, acc.Account.ID, lists.ListRef{}, assessmentID, VendorSel{})
		if err != nil {
			return err
		}
		if asm.ListID != l.ID {
			return core.NotFound("assessment %s is not on this list", asm.ID)
		}
		d, err := NewDocument(s.d.IDs.New(), acc.Account.ID, asm.ID, fileName, contentType, a.Email, s.d.Now())
		if err != nil {
			return err
		}
		req, err := s.d.Blobs.PresignPut(ctx, d.ObjectKey, d.ContentType, MaxDocumentSize, DocumentURLTTL)
		if err != nil {
			return err
		}
		up = Upload{Document: d, Request: req}
		return tx.Documents().Create(ctx, d)
	})
	return up, err
}

// Documents lists the documents of an assessment (viewer or above). Pending
// records whose object now exists turn uploaded with their size; an object
// over the size cap is deleted and its record stays pending.
func (s *Service) Documents(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, assessmentID uuid.UUID) ([]Document, error) {
	var docs []Document
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		asm, err := s.readableAssessment(ctx, tx, a, ref, assessmentID)
		if err != nil {
			return err
		}
		docs, err = tx.Documents().ListByAssessment(ctx, asm.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	for i := range docs {
		if docs[i].Status == DocumentPending {
			if docs[i], err = s.refreshDocument(ctx, docs[i]); err != nil {
				return nil, err
			}
		}
	}
	return docs, nil
}

// refreshDocument checks whether a pending document's object exists now.
// When it does, the record turns uploaded with the size and SHA-256 of what
// was stored (the store writes an object once, so that is the first upload)
// and the assessment's audit log records the upload, once. An object over the
// cap is deleted and the record stays pending.
func (s *Service) refreshDocument(ctx context.Context, d Document) (Document, error) {
	size, err := s.d.Blobs.Stat(ctx, d.ObjectKey)
	if errors.Is(err, core.ErrNotFound) {
		return d, nil
	}
	if err != nil {
		return d, err
	}
	if _, err := d.Stored(size, ""); err != nil {
		s.d.Log.Warn("deleting oversize evidence upload", "document", d.ID, "size", size)
		return d, s.d.Blobs.Delete(ctx, d.ObjectKey)
	}
	sum, err := s.d.Blobs.Digest(ctx, d.ObjectKey)
	if errors.Is(err, core.ErrNotFound) {
		return d, nil // deleted in between
	}
	if err != nil {
		return d, err
	}
	next, err := d.Stored(sum.Size, sum.SHA256)
	if err != nil {
		s.d.Log.Warn("deleting oversize evidence upload", "document", d.ID, "size", sum.Size)
		return d, s.d.Blobs.Delete(ctx, d.ObjectKey)
	}
	err = s.d.Store.InTx(ctx, func(ctx context.Context, tx Tx) error {
		cur, err := tx.Documents().Get(ctx, d.AccountID, d.ID)
		switch {
		case errors.Is(err, core.ErrNotFound):
			next = d // deleted in between: nothing to record
			return nil
		case err != nil:
			return err
		case cur.Status != DocumentPending:
			next = cur // another request recorded it first
			return nil
		}
		if err := tx.Documents().Update(ctx, next); err != nil {
			return err
		}
		return tx.Assessments().AppendEvents(ctx, []AuditEvent{DocumentUploadEvent(s.d.IDs.New(), next, s.d.Now())})
	})
	return next, err
}

func (s *Service) document(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, id uuid.UUID, min accounts.Role) (Document, error) {
	var d Document
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := accounts.Authorize(ctx, tx, a, ref, min)
		if err != nil {
			return err
		}
		d, err = tx.Documents().Get(ctx, acc.Account.ID, id)
		if errors.Is(err, core.ErrNotFound) {
			return core.NotFound("document %s", id)
		}
		return err
	})
	return d, err
}

// DownloadURL returns a presigned download URL of an uploaded document.
func (s *Service) DownloadURL(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, id uuid.UUID) (Document, ports.PresignedRequest, error) {
	d, err := s.document(ctx, a, ref, id, accounts.ReadRole)
	if err != nil {
		return d, ports.PresignedRequest{}, err
	}
	if d.Status == DocumentPending {
		if d, err = s.refreshDocument(ctx, d); err != nil {
			return d, ports.PresignedRequest{}, err
		}
	}
	if d.Status != DocumentUploaded {
		return d, ports.PresignedRequest{}, core.Conflict("document %s has not been uploaded yet", d.ID)
	}
	req, err := s.d.Blobs.PresignGet(ctx, d.ObjectKey, d.FileName, DocumentDownloadTTL)
	return d, req, err
}

// DeleteDocument removes a document record and its file (member or above).
// The file is deleted in the request once the record is gone, so its
// download URLs answer 404 from the moment this returns; when the store
// cannot be reached the outbox deletes it later, and no URL is issued for it
// again because the record is gone. The audit log records the removal.
func (s *Service) DeleteDocument(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, id uuid.UUID) (Document, error) {
	d, err := s.document(ctx, a, ref, id, accounts.WriteRole)
	if err != nil {
		return d, err
	}
	err = s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		if err := tx.Documents().Delete(ctx, d.AccountID, d.ID); err != nil {
			return err
		}
		if err := tx.Assessments().AppendEvents(ctx, []AuditEvent{DocumentDeleteEvent(s.d.IDs.New(), d, a.Email, s.d.Now())}); err != nil {
			return err
		}
		return s.d.Emit(ctx, tx, outbox.KindBlobDelete, outbox.BlobDelete{Keys: []string{d.ObjectKey}})
	})
	if err != nil {
		return d, err
	}
	if err := s.d.Blobs.Delete(ctx, d.ObjectKey); err != nil {
		s.d.Log.Warn("evidence file not deleted at once; the outbox retries", "document", d.ID, "error", err)
	}
	return d, nil
}

// AccountFiles returns the blob keys of the evidence files an account
// holds, deleted with the account (core/accounts' Deps.Files).
func AccountFiles(ctx context.Context, tx Tx, accountID uuid.UUID) ([]string, error) {
	docs, err := tx.Documents().ListByAccount(ctx, accountID)
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(docs))
	for _, d := range docs {
		keys = append(keys, d.ObjectKey)
	}
	return keys, nil
}

// ListFiles returns the blob keys of the evidence files the reviews on a
// list hold, deleted with the list (core/lists' Deps.Files).
func ListFiles(ctx context.Context, tx Tx, accountID, listID uuid.UUID) ([]string, error) {
	as, err := tx.Assessments().Find(ctx, AssessmentFilter{AccountID: accountID, ListID: &listID})
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, asm := range as {
		docs, err := tx.Documents().ListByAssessment(ctx, asm.ID)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			keys = append(keys, d.ObjectKey)
		}
	}
	return keys, nil
}
