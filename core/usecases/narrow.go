package usecases

import (
	"context"

	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/stores"
)

// narrowUnit gives an area the unit of work seen through its own Tx (the
// narrow store of its store.go).
func narrowUnit[T outbox.Tx](u uow.Unit[stores.Tx]) uow.Unit[T] {
	n := uow.Unit[T]{Store: ports.Narrow[T](u.Store), Clock: u.Clock, IDs: u.IDs, Notify: u.Notify}
	if u.Events != nil {
		n.Events = func(ctx context.Context, tx T, ev domainevent.Event) error { return u.Events(ctx, whole(tx), ev) }
	}
	return n
}

// narrowMail gives an area mail-once over its own Tx.
func narrowMail[T mailonce.Tx](m mailonce.Mail[stores.Tx]) mailonce.Mail[T] {
	return mailonce.Mail[T]{Store: ports.Narrow[T](m.Store), Clock: m.Clock, Mailer: m.Mailer, Log: m.Log}
}

// whole is the store's transaction behind an area's view of it: the hooks
// by which a lower area reaches a higher one (a new account's master list)
// run in the same unit of work, on the whole of it.
func whole(tx any) stores.Tx { return tx.(stores.Tx) }
