package alerts

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/outbox"
)

// verifiedMembers returns the e-mails of the account's verified members.
func verifiedMembers(ctx context.Context, tx Tx, accountID uuid.UUID) (map[string]bool, error) {
	ms, err := tx.Members().List(ctx, accountID)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(ms))
	for _, m := range ms {
		out[m.Email] = m.Verified
	}
	return out, nil
}

// Subscribers lists the subscribers of a list with their state (viewer or above).
func (s *Service) Subscribers(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, lr lists.ListRef) (lists.List, []Subscriber, error) {
	var (
		l   lists.List
		out []Subscriber
	)
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		var (
			acc accounts.Access
			err error
		)
		if acc, l, err = lists.AccountList(ctx, tx, a, ref, accounts.ReadRole, lr, false); err != nil {
			return err
		}
		if out, err = tx.Subscribers().List(ctx, l.ID); err != nil {
			return err
		}
		members, err := verifiedMembers(ctx, tx, acc.Account.ID)
		for i := range out {
			_, out[i].IsMember = members[out[i].Email]
		}
		return err
	})
	return l, out, err
}

// AddSubscribers subscribes e-mails to a list (member or above). A verified
// member of the account is confirmed at once; anyone else is pending and
// gets a confirmation mail. Adding a pending subscriber again re-sends the
// confirmation; a confirmed one is left as it is.
func (s *Service) AddSubscribers(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, lr lists.ListRef, emails []string) ([]Subscriber, error) {
	norm, err := accounts.NormalizeEmails("Emails", emails)
	if err != nil {
		return nil, err
	}
	if len(norm) == 0 {
		return nil, core.Invalid("Emails", "is required")
	}
	if len(norm) > 500 {
		return nil, core.Invalid("Emails", "at most 500 addresses per request")
	}
	var out []Subscriber
	err = s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		acc, l, err := lists.AccountList(ctx, tx, a, ref, accounts.WriteRole, lr, false)
		if err != nil {
			return err
		}
		members, err := verifiedMembers(ctx, tx, acc.Account.ID)
		if err != nil {
			return err
		}
		now := s.d.Now()
		for _, e := range norm {
			sub, err := tx.Subscribers().GetByEmail(ctx, l.ID, e)
			switch {
			case errors.Is(err, core.ErrNotFound):
				sub = Subscriber{ID: s.d.IDs.New(), AccountID: acc.Account.ID, ListID: l.ID, Email: e, Status: SubscriberPending, CreatedAt: now}
			case err != nil:
				return err
			}
			verified, isMember := members[e]
			sub.IsMember = isMember
			if sub.Status != SubscriberConfirmed {
				if verified {
					sub.Status, sub.ConfirmedAt = SubscriberConfirmed, &now
				} else if err := s.d.Emit(ctx, tx, outbox.KindSubscriberConfirm, outbox.SubscriberConfirm{EventID: s.d.IDs.New(), SubscriberID: sub.ID}); err != nil {
					return err
				}
			}
			if err := tx.Subscribers().Save(ctx, sub); err != nil {
				return err
			}
			out = append(out, sub)
		}
		return nil
	})
	return out, err
}

// RemoveSubscribers removes subscribers from a list (member or above). It is
// all-or-nothing: an e-mail that is not subscribed is not found.
func (s *Service) RemoveSubscribers(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, lr lists.ListRef, emails []string) ([]string, error) {
	norm, err := accounts.NormalizeEmails("Emails", emails)
	if err != nil {
		return nil, err
	}
	if len(norm) == 0 {
		return nil, core.Invalid("Emails", "is required")
	}
	err = s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		_, l, err := lists.AccountList(ctx, tx, a, ref, accounts.WriteRole, lr, false)
		if err != nil {
			return err
		}
		for _, e := range norm {
			if _, err := tx.Subscribers().GetByEmail(ctx, l.ID, e); err != nil {
				if errors.Is(err, core.ErrNotFound) {
					return core.NotFound("%s is not subscribed to the list", e)
				}
				return err
			}
		}
		_, err = tx.Subscribers().Delete(ctx, l.ID, norm)
		return err
	})
	if err != nil {
		return nil, err
	}
	return norm, nil
}

// LinkTarget describes what a signed mail link points at, for the page that
// GET shows before the recipient presses the button.
type LinkTarget struct {
	Subscriber Subscriber
	ListName   string
}

func (s *Service) linkTarget(ctx context.Context, purpose, token string) (LinkTarget, error) {
	subj, err := s.d.Signer.Verify(purpose, token, s.d.Now())
	if err != nil {
		return LinkTarget{}, err
	}
	id, err := uuid.Parse(subj)
	if err != nil {
		return LinkTarget{}, core.Forbidden("the link is malformed")
	}
	var t LinkTarget
	err = s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		if t.Subscriber, err = tx.Subscribers().Get(ctx, id); err != nil {
			return err
		}
		l, err := tx.Lists().Get(ctx, t.Subscriber.AccountID, t.Subscriber.ListID)
		t.ListName = l.Name
		return err
	})
	return t, err
}

// PeekLink checks a confirm or unsubscribe token without acting on it.
func (s *Service) PeekLink(ctx context.Context, purpose, token string) (LinkTarget, error) {
	return s.linkTarget(ctx, purpose, token)
}

// ConfirmSubscriber confirms the subscriber a signed link names.
func (s *Service) ConfirmSubscriber(ctx context.Context, token string) (LinkTarget, error) {
	t, err := s.linkTarget(ctx, PurposeConfirm, token)
	if err != nil {
		if errors.Is(err, core.ErrNotFound) {
			return t, core.NotFound("this subscription no longer exists")
		}
		return t, err
	}
	if t.Subscriber.Status == SubscriberConfirmed {
		return t, nil
	}
	now := s.d.Now()
	t.Subscriber.Status, t.Subscriber.ConfirmedAt = SubscriberConfirmed, &now
	err = s.d.Write(ctx, func(ctx context.Context, tx Tx) error { return tx.Subscribers().Save(ctx, t.Subscriber) })
	return t, err
}

// Unsubscribe removes the subscriber a signed link names (RFC 8058 one-click).
// It is idempotent: a subscription already gone is success.
func (s *Service) Unsubscribe(ctx context.Context, token string) (LinkTarget, error) {
	t, err := s.linkTarget(ctx, PurposeUnsubscribe, token)
	if errors.Is(err, core.ErrNotFound) {
		return t, nil
	}
	if err != nil {
		return t, err
	}
	err = s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		_, err := tx.Subscribers().Delete(ctx, t.Subscriber.ListID, []string{t.Subscriber.Email})
		return err
	})
	return t, err
}
