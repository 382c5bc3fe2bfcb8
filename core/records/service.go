package records

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/uow"
)

// Deps are the ports the record use cases need.
type Deps struct {
	uow.Unit[Tx]
	Mail mailonce.Mail[Tx]
	// PublicURL is the base URL for links in mail (no trailing slash).
	PublicURL string
	Log       *slog.Logger
}

// Service implements the vendor record use cases.
type Service struct{ d Deps }

// NewService checks the dependencies and returns the service.
func NewService(d Deps) (*Service, error) {
	missing := d.Missing()
	if d.Mail.Mailer == nil {
		missing = append(missing, "Mailer")
	}
	if len(missing) > 0 {
		return nil, errors.New("records: missing dependencies: " + strings.Join(missing, ", "))
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	return &Service{d: d}, nil
}

// open authorizes the actor in the account with a minimum role and checks
// that the vendor is on one of its lists: a vendor the account does not
// carry has no record there (404, as another account's data is).
func open(ctx context.Context, tx Tx, a accounts.Actor, ref accounts.AccountRef, min accounts.Role, vendorID uuid.UUID) (accounts.Access, error) {
	acc, err := accounts.Authorize(ctx, tx, a, ref, min)
	if err != nil {
		return acc, err
	}
	on, err := tx.Records().OnAccount(ctx, acc.Account.ID, vendorID)
	if err != nil {
		return acc, err
	}
	if !on {
		return acc, core.NotFound("vendor %s is not on any list of this account", vendorID)
	}
	return acc, nil
}

// lockAccount serialises the record writes of an account: a write reads
// the record, changes it and saves it whole, so two at once (a PATCH and a
// note, two PATCHes) must take turns or the later save would drop the
// earlier's change under read committed. Record writes are rare; the
// account's row lock is the one every store already takes.
func lockAccount(ctx context.Context, tx Tx, accountID uuid.UUID) error {
	return tx.Accounts().Lock(ctx, accountID)
}

// read returns the record with its notes, or the empty record.
func read(ctx context.Context, tx Tx, accountID, vendorID uuid.UUID) (Record, error) {
	r, err := tx.Records().Get(ctx, accountID, vendorID)
	switch {
	case errors.Is(err, core.ErrNotFound):
		r = Empty(accountID, vendorID)
	case err != nil:
		return r, err
	}
	r = FromStore(r)
	if r.Notes, err = tx.Records().Notes(ctx, accountID, vendorID); err != nil {
		return r, err
	}
	r = FromStore(r)
	return r, nil
}

// Get returns the vendor record of an account (viewer or above); a vendor
// never edited has the empty record.
func (s *Service) Get(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, vendorID uuid.UUID) (Record, error) {
	var r Record
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := open(ctx, tx, a, ref, accounts.ReadRole, vendorID)
		if err != nil {
			return err
		}
		r, err = read(ctx, tx, acc.Account.ID, vendorID)
		return err
	})
	return r, err
}

// Patch applies a JSON merge patch to the record (member or above) and
// answers the record as saved.
func (s *Service) Patch(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, vendorID uuid.UUID, body map[string]json.RawMessage) (Record, error) {
	p, err := ParsePatch(body)
	if err != nil {
		return Record{}, err
	}
	var r Record
	err = s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := open(ctx, tx, a, ref, accounts.WriteRole, vendorID)
		if err != nil {
			return err
		}
		if err := lockAccount(ctx, tx, acc.Account.ID); err != nil {
			return err
		}
		if r, err = read(ctx, tx, acc.Account.ID, vendorID); err != nil {
			return err
		}
		var errs core.Fields
		r, err = p.Apply(r)
		errs.AddErr(err)
		if p.Owner != nil {
			members, err := tx.Members().List(ctx, acc.Account.ID)
			if err != nil {
				return err
			}
			owner, err := NormalizeOwner(*p.Owner, members)
			if !errs.AddErr(err) {
				r.BusinessOwner = owner
			}
		}
		if err := errs.Err(); err != nil {
			return err
		}
		r.touch(a.Email, s.d.Now())
		return tx.Records().Save(ctx, r)
	})
	return r, err
}

// AddNote appends a note to the record (member or above) and mails each
// member of the account it mentions, other than its author, once.
func (s *Service) AddNote(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, vendorID uuid.UUID, text string) (Note, error) {
	text, err := NormalizeNoteText(text)
	if err != nil {
		return Note{}, err
	}
	var n Note
	err = s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := open(ctx, tx, a, ref, accounts.WriteRole, vendorID)
		if err != nil {
			return err
		}
		if err := lockAccount(ctx, tx, acc.Account.ID); err != nil {
			return err
		}
		r, err := read(ctx, tx, acc.Account.ID, vendorID)
		if err != nil {
			return err
		}
		now := s.d.Now()
		author := strings.ToLower(a.Email)
		n = Note{ID: s.d.IDs.New(), AccountID: acc.Account.ID, VendorID: vendorID, Author: author, CreatedAt: now, Text: text}
		r.touch(author, now)
		if err := tx.Records().Save(ctx, r); err != nil {
			return err
		}
		if err := tx.Records().AddNote(ctx, n); err != nil {
			return err
		}
		members, err := tx.Members().List(ctx, acc.Account.ID)
		if err != nil {
			return err
		}
		return s.emitMentions(ctx, tx, acc.Account, n, members)
	})
	return n, err
}
