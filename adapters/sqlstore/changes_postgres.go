package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"
	"github.com/vetted-dev/vetted/adapters/internal/notice"
	"github.com/vetted-dev/vetted/ports/stores"
)

// ChangesChannel is the NOTIFY channel of the change feed. Notifications
// are per database, so the processes on one database share it.
const ChangesChannel = "vetted_changes"

// changesPingEvery is how long a listener waits in silence before it checks
// its connection (a NOTIFY of an empty payload, which it must hear back
// within as long again).
const changesPingEvery = 15 * time.Second

// ChangeFeed is the stores.ChangeFeed of PostgreSQL: LISTEN/NOTIFY on
// ChangesChannel. Stage sends NOTIFY inside the unit of work, so PostgreSQL
// delivers it when the transaction commits and drops it when it rolls back;
// Publish does nothing. Each Subscribe holds one connection of its own
// (outside the pools), which does not work through PgBouncer in transaction
// mode.
type ChangeFeed struct {
	s         *Store
	pingEvery time.Duration
}

var _ stores.ChangeFeed = (*ChangeFeed)(nil)

// ChangeFeed returns the store's change feed; only a PostgreSQL store has
// one (nil on SQLite).
func (s *Store) ChangeFeed() *ChangeFeed {
	if s.d.name() != Postgres {
		return nil
	}
	return &ChangeFeed{s: s, pingEvery: changesPingEvery}
}

// Stage sends NOTIFY in tx, which must be a unit of work of this store.
func (f *ChangeFeed) Stage(ctx context.Context, ptx stores.Tx, c stores.Changed) error {
	t, ok := ptx.(*tx)
	if !ok || t.readOnly || t.d.name() != Postgres {
		return fmt.Errorf("postgres: change feed: %T is not a unit of work of this store", ptx)
	}
	if _, err := t.b.DB.ExecContext(ctx, "SELECT pg_notify(?, ?)", ChangesChannel, notice.Encode(c)); err != nil {
		return t.b.Translate(err, "notify changed vendors")
	}
	return nil
}

// Publish does nothing: Stage's NOTIFY is delivered at commit.
func (f *ChangeFeed) Publish(context.Context, stores.Changed) error { return nil }

// Subscribe LISTENs on a connection of its own until ctx ends or that
// connection fails (or stays silent through a ping).
func (f *ChangeFeed) Subscribe(ctx context.Context, ready func(), h func(stores.Changed)) error {
	ln := pgdriver.NewListener(f.s.db)
	// The listener's reads wait for a deadline, not for ctx: closing it
	// ends a wait at once.
	stop := context.AfterFunc(ctx, func() { _ = ln.Close() })
	defer func() {
		if stop() {
			_ = ln.Close()
		}
	}()
	if err := ln.Listen(ctx, ChangesChannel); err != nil {
		return f.ended(ctx, fmt.Errorf("postgres: listen: %w", err))
	}
	// Listen only sends LISTEN; it is in effect once a notification comes
	// back on the session, and a ping sent before that may be lost.
	first, err := f.confirm(ctx, ln)
	if err != nil {
		return f.ended(ctx, err)
	}
	ready()
	deliver(first, h)
	pinged := false
	for {
		_, payload, err := ln.ReceiveTimeout(ctx, f.pingEvery)
		if err != nil {
			var ne net.Error
			if !pinged && errors.As(err, &ne) && ne.Timeout() && ctx.Err() == nil {
				pinged = true
				if err := pgdriver.Notify(ctx, f.s.db, ChangesChannel, ""); err != nil {
					return f.ended(ctx, fmt.Errorf("postgres: change feed ping: %w", err))
				}
				continue
			}
			return f.ended(ctx, fmt.Errorf("postgres: change feed: %w", err))
		}
		pinged = false
		deliver(payload, h)
	}
}

// deliver hands a notice to h; a ping is none, and a payload this feed did
// not write reads as every vendor changed.
func deliver(payload string, h func(stores.Changed)) {
	if c, ok, _ := notice.Decode(payload); ok {
		h(c)
	}
}

// confirmAttempts bounds the pings confirm sends; it waits confirmWait for
// the first to come back, and twice as long for each next one.
const (
	confirmAttempts = 10
	confirmWait     = 20 * time.Millisecond
)

// confirm pings until a notification arrives on the listening session, and
// returns its payload (a ping's is empty).
func (f *ChangeFeed) confirm(ctx context.Context, ln *pgdriver.Listener) (string, error) {
	wait := confirmWait
	for range confirmAttempts {
		if err := pgdriver.Notify(ctx, f.s.db, ChangesChannel, ""); err != nil {
			return "", fmt.Errorf("postgres: change feed ping: %w", err)
		}
		_, payload, err := ln.ReceiveTimeout(ctx, wait)
		if err == nil {
			return payload, nil
		}
		wait *= 2
		if ne := net.Error(nil); !errors.As(err, &ne) || !ne.Timeout() {
			return "", fmt.Errorf("postgres: change feed: %w", err)
		}
	}
	return "", errors.New("postgres: change feed: LISTEN not confirmed: no notification came back")
}

// ended is ctx's error once ctx has ended, else err.
func (f *ChangeFeed) ended(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}
