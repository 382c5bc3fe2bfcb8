package records

import (
	"context"
	"errors"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/core/platform/outbox"
)

// emitMentions records one mention mail per member a note mentions, in the
// note's unit of work: nothing is sent for a note that was not saved.
func (s *Service) emitMentions(ctx context.Context, tx Tx, acc accounts.Account, n Note, members []accounts.Member) error {
	to := Recipients(n.Text, n.Author, members)
	if len(to) == 0 {
		return nil
	}
	v, err := tx.Vendors().Get(ctx, n.VendorID)
	if err != nil {
		return err
	}
	for _, e := range to {
		p := outbox.MentionMail{NoteID: n.ID, AccountID: acc.ID, AccountName: acc.Name, VendorID: n.VendorID,
			VendorName: v.Name.String(), Email: e, Author: n.Author, Text: n.Text}
		if err := s.d.Emit(ctx, tx, outbox.KindMentionMail, p); err != nil {
			return err
		}
	}
	return nil
}

// MentionKey is the delivery key of the mail of one note to one member:
// the same note never mails the same member twice, however often the job
// runs.
func MentionKey(p outbox.MentionMail) string { return "mention:" + p.NoteID.String() + ":" + p.Email }

// SendMention delivers one mention mail (the KindMentionMail job). A
// member removed from the account since the note was written is not
// mailed.
func (s *Service) SendMention(ctx context.Context, p outbox.MentionMail) error {
	return s.d.Mail.Build(ctx, MentionKey(p), func(ctx context.Context, tx Tx) (mailtmpl.Mail, bool, error) {
		members, err := tx.Members().List(ctx, p.AccountID)
		if err != nil && !errors.Is(err, core.ErrNotFound) {
			return mailtmpl.Mail{}, false, err
		}
		if len(Recipients("@"+p.Email, p.Author, members)) == 0 {
			return mailtmpl.Mail{}, false, nil
		}
		return mailtmpl.MentionMail(p.Email, MentionKey(p), mailtmpl.MentionData{AccountName: p.AccountName, VendorName: p.VendorName,
			Author: p.Author, Text: p.Text, AppURL: s.d.PublicURL + "/app/a/" + p.AccountID.String() + "/vendors/" + p.VendorID.String() + "?tab=record"}), true, nil
	})
}
