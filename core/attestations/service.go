package attestations

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/ports"
)

// Files is what the area needs of the evidence blob store (ports.BlobStore,
// the one review evidence uses): a write-once upload URL, whether a file
// is there, and its deletion.
type Files interface {
	PresignPut(ctx context.Context, key, contentType string, maxSize int64, ttl time.Duration) (ports.PresignedRequest, error)
	PresignGet(ctx context.Context, key, fileName string, ttl time.Duration) (ports.PresignedRequest, error)
	Stat(ctx context.Context, key string) (int64, error)
	Delete(ctx context.Context, keys ...string) error
}

// The upload of a record's file takes review evidence's size cap and URL
// lifetime.
const (
	MaxFileSize = assessments.MaxDocumentSize
	UploadTTL   = assessments.DocumentURLTTL
	DownloadTTL = assessments.DocumentDownloadTTL
)

// Deps are the ports the attestation use cases need.
type Deps struct {
	uow.Unit[Tx]
	Files Files
	Log   *slog.Logger
}

// Service implements the attestation use cases.
type Service struct{ d Deps }

// NewService checks the dependencies and returns the service.
func NewService(d Deps) (*Service, error) {
	missing := d.Missing()
	if d.Files == nil {
		missing = append(missing, "Files")
	}
	if len(missing) > 0 {
		return nil, errors.New("attestations: missing dependencies: " + strings.Join(missing, ", "))
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	return &Service{d: d}, nil
}

// View is a record as a read shows it: with what is derived from it on
// the day of the read.
type View struct {
	Attestation
	ValidUntil time.Time
	State      string
	HasFile    bool
}

// Created is a new record with the write-once request that uploads its file.
type Created struct {
	View
	Upload ports.PresignedRequest
}

// ParseID reads an attestation-id.
func ParseID(raw string) (uuid.UUID, error) {
	if strings.TrimSpace(raw) == "" {
		return uuid.Nil, core.Invalid("AttestationID", "is required")
	}
	return accounts.ParseID("AttestationID", raw)
}

// Create records an attestation of the account on a vendor that is on one
// of its lists (member or above) and returns it with the upload of its
// file; the record exists before its file does.
func (s *Service) Create(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, vendorID uuid.UUID, in Input) (Created, error) {
	var c Created
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.WriteRole)
		if err != nil {
			return err
		}
		if _, err := s.vendor(ctx, tx, vendorID); err != nil {
			return err
		}
		on, err := tx.Attestations().OnAccountLists(ctx, acc.Account.ID, vendorID)
		if err != nil {
			return err
		}
		if !on {
			return core.Invalid("VendorID", "vendor %s is on none of the account's lists", vendorID)
		}
		c, err = s.create(ctx, tx, acc.Account.ID, vendorID, in, a.Email)
		return err
	})
	return c, err
}

// CreateDirectory records an attestation of the directory on a vendor,
// seen by every account (platform admins only).
func (s *Service) CreateDirectory(ctx context.Context, a accounts.Actor, vendorID uuid.UUID, in Input) (Created, error) {
	if err := accounts.RequirePlatformAdmin(a); err != nil {
		return Created{}, err
	}
	var c Created
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		if _, err := s.vendor(ctx, tx, vendorID); err != nil {
			return err
		}
		var err error
		c, err = s.create(ctx, tx, uuid.Nil, vendorID, in, a.Email)
		return err
	})
	return c, err
}

func (s *Service) create(ctx context.Context, tx Tx, accountID, vendorID uuid.UUID, in Input, by string) (Created, error) {
	now := s.d.Now()
	at, err := New(s.d.IDs.New(), accountID, vendorID, in, by, now)
	if err != nil {
		return Created{}, err
	}
	req, err := s.d.Files.PresignPut(ctx, at.ObjectKey, at.ContentType, MaxFileSize, UploadTTL)
	if err != nil {
		return Created{}, err
	}
	if err := tx.Attestations().Create(ctx, at); err != nil {
		return Created{}, err
	}
	return Created{View: view(at, now, false), Upload: req}, nil
}

func (s *Service) vendor(ctx context.Context, tx Tx, vendorID uuid.UUID) (uuid.UUID, error) {
	v, err := tx.Vendors().Get(ctx, vendorID)
	if errors.Is(err, core.ErrNotFound) {
		return uuid.Nil, core.NotFound("vendor %s", vendorID)
	}
	return v.ID, err
}

func view(a Attestation, now time.Time, hasFile bool) View {
	until := a.ValidUntilDate()
	return View{Attestation: a, ValidUntil: until, State: StateOn(until, now), HasFile: hasFile}
}

// List returns the account's attestations on a vendor and the
// directory's, oldest first (viewer or above), each with what is derived
// on the day of the read and whether its file is in the store.
func (s *Service) List(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, vendorID uuid.UUID) ([]View, error) {
	var as []Attestation
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.ReadRole)
		if err != nil {
			return err
		}
		if _, err := s.vendor(ctx, tx, vendorID); err != nil {
			return err
		}
		as, err = tx.Attestations().ForVendor(ctx, acc.Account.ID, vendorID)
		return err
	})
	if err != nil {
		return nil, err
	}
	now := s.d.Now()
	out := make([]View, 0, len(as))
	for _, at := range as {
		has, err := s.hasFile(ctx, at)
		if err != nil {
			return nil, err
		}
		out = append(out, view(at, now, has))
	}
	return out, nil
}

func (s *Service) hasFile(ctx context.Context, a Attestation) (bool, error) {
	_, err := s.d.Files.Stat(ctx, a.ObjectKey)
	switch {
	case errors.Is(err, core.ErrNotFound):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}

// DownloadURL returns a download of a record's file, the account's own or
// the directory's (viewer or above); core.ErrConflict while the file has
// not been uploaded.
func (s *Service) DownloadURL(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, id uuid.UUID) (ports.PresignedRequest, error) {
	var at Attestation
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.ReadRole)
		if err != nil {
			return err
		}
		at, err = tx.Attestations().Get(ctx, acc.Account.ID, id)
		if errors.Is(err, core.ErrNotFound) {
			at, err = tx.Attestations().Get(ctx, uuid.Nil, id)
		}
		if errors.Is(err, core.ErrNotFound) {
			return core.NotFound("attestation %s", id)
		}
		return err
	})
	if err != nil {
		return ports.PresignedRequest{}, err
	}
	has, err := s.hasFile(ctx, at)
	if err != nil {
		return ports.PresignedRequest{}, err
	}
	if !has {
		return ports.PresignedRequest{}, core.Conflict("attestation %s has no file yet", id)
	}
	return s.d.Files.PresignGet(ctx, at.ObjectKey, at.FileName(), DownloadTTL)
}

// Delete removes one of the account's own attestations and its file
// (member or above). A directory record is refused (platform admins delete
// those); another account's is not found.
func (s *Service) Delete(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, id uuid.UUID) error {
	return s.delete(ctx, func(ctx context.Context, tx Tx) (Attestation, error) {
		acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.WriteRole)
		if err != nil {
			return Attestation{}, err
		}
		at, err := tx.Attestations().Get(ctx, acc.Account.ID, id)
		if errors.Is(err, core.ErrNotFound) {
			if _, derr := tx.Attestations().Get(ctx, uuid.Nil, id); derr == nil {
				return at, core.Forbidden("attestation %s is the directory's; only platform admins delete it", id)
			}
			return at, core.NotFound("attestation %s", id)
		}
		return at, err
	})
}

// DeleteDirectory removes a directory attestation and its file (platform
// admins only).
func (s *Service) DeleteDirectory(ctx context.Context, a accounts.Actor, id uuid.UUID) error {
	if err := accounts.RequirePlatformAdmin(a); err != nil {
		return err
	}
	return s.delete(ctx, func(ctx context.Context, tx Tx) (Attestation, error) {
		at, err := tx.Attestations().Get(ctx, uuid.Nil, id)
		if errors.Is(err, core.ErrNotFound) {
			return at, core.NotFound("directory attestation %s", id)
		}
		return at, err
	})
}

// delete removes the record find names, in one unit of work with the
// outbox message that deletes its file later, then deletes the file at
// once (a failure there is left to the outbox).
func (s *Service) delete(ctx context.Context, find func(ctx context.Context, tx Tx) (Attestation, error)) error {
	var gone Attestation
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		if gone, err = find(ctx, tx); err != nil {
			return err
		}
		if err := tx.Attestations().Delete(ctx, gone.AccountID, gone.ID); err != nil {
			return err
		}
		return s.d.Emit(ctx, tx, outbox.KindBlobDelete, outbox.BlobDelete{Keys: []string{gone.ObjectKey}})
	})
	if err != nil {
		return err
	}
	if err := s.d.Files.Delete(ctx, gone.ObjectKey); err != nil && !errors.Is(err, core.ErrNotFound) {
		s.d.Log.Warn("attestation file not deleted at once; the outbox retries", "attestation", gone.ID, "error", err)
	}
	return nil
}

// AccountFiles returns the blob keys of the files of an account's
// attestations, deleted with the account (core/accounts' Deps.Files).
func AccountFiles(ctx context.Context, tx Tx, accountID uuid.UUID) ([]string, error) {
	as, err := tx.Attestations().ListByAccount(ctx, accountID)
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(as))
	for _, a := range as {
		keys = append(keys, a.ObjectKey)
	}
	return keys, nil
}
