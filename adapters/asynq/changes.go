package asynqadapter

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/vetted-dev/vetted/adapters/internal/notice"
	"github.com/vetted-dev/vetted/ports/stores"
)

// Defaults of ChangeFeedConfig.
const (
	DefaultChangesPingEvery      = 15 * time.Second
	DefaultChangesPublishTimeout = 2 * time.Second
)

// ChangeFeedConfig tunes a ChangeFeed; zero fields take the defaults.
type ChangeFeedConfig struct {
	// Channel is the pub/sub channel; "" is "vetted:changes:<db>", db being
	// the client's database number. Pub/sub channels are not per database,
	// so the number keeps deployments that share a Redis server on
	// different databases apart.
	Channel string
	// PingEvery is how long a subscriber waits in silence before it checks
	// its connection with a PING, whose answer must come within as long again.
	PingEvery time.Duration
	// PublishTimeout bounds one Publish.
	PublishTimeout time.Duration
}

// ChangeFeed is the stores.ChangeFeed of Redis pub/sub. Redis cannot take
// part in the store's transaction, so Stage does nothing and Publish sends
// the notice right after the commit: a process that dies between the two
// loses that notice, and the other processes see the change within the
// directory's max age, as without a feed.
type ChangeFeed struct {
	rdb *redis.Client
	cfg ChangeFeedConfig
}

var _ stores.ChangeFeed = (*ChangeFeed)(nil)

// NewChangeFeed returns a feed on rdb, which it does not close.
func NewChangeFeed(rdb *redis.Client, cfg ChangeFeedConfig) (*ChangeFeed, error) {
	if rdb == nil {
		return nil, errors.New("asynq: change feed: nil redis client")
	}
	if cfg.Channel == "" {
		cfg.Channel = "vetted:changes:" + strconv.Itoa(rdb.Options().DB)
	}
	if cfg.PingEvery <= 0 {
		cfg.PingEvery = DefaultChangesPingEvery
	}
	if cfg.PublishTimeout <= 0 {
		cfg.PublishTimeout = DefaultChangesPublishTimeout
	}
	return &ChangeFeed{rdb: rdb, cfg: cfg}, nil
}

// Channel is the pub/sub channel the feed uses.
func (f *ChangeFeed) Channel() string { return f.cfg.Channel }

// Stage does nothing: see ChangeFeed.
func (f *ChangeFeed) Stage(context.Context, stores.Tx, stores.Changed) error { return nil }

// Publish sends c on the channel.
func (f *ChangeFeed) Publish(ctx context.Context, c stores.Changed) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), f.cfg.PublishTimeout)
	defer cancel()
	if err := f.rdb.Publish(ctx, f.cfg.Channel, notice.Encode(c)).Err(); err != nil {
		return fmt.Errorf("asynq: publish changed vendors: %w", err)
	}
	return nil
}

// Subscribe subscribes on a connection of its own until ctx ends or that
// connection fails (or stays silent through a PING).
func (f *ChangeFeed) Subscribe(ctx context.Context, ready func(), h func(stores.Changed)) error {
	ps := f.rdb.Subscribe(ctx)
	// Reads wait for a deadline, not for ctx: closing ends a wait at once.
	stop := context.AfterFunc(ctx, func() { _ = ps.Close() })
	defer func() {
		if stop() {
			_ = ps.Close()
		}
	}()
	ended := func(err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("asynq: change feed: %w", err)
	}
	if err := ps.Subscribe(ctx, f.cfg.Channel); err != nil {
		return ended(err)
	}
	// The confirmation: once it is read, nothing published is missed.
	if _, err := ps.ReceiveTimeout(ctx, f.cfg.PingEvery); err != nil {
		return ended(err)
	}
	ready()
	pinged := false
	for {
		msg, err := ps.ReceiveTimeout(ctx, f.cfg.PingEvery)
		if err != nil {
			var ne net.Error
			if !pinged && errors.As(err, &ne) && ne.Timeout() && ctx.Err() == nil {
				pinged = true
				if err := ps.Ping(ctx); err != nil {
					return ended(err)
				}
				continue
			}
			return ended(err)
		}
		pinged = false
		if m, ok := msg.(*redis.Message); ok {
			// A payload this feed did not write reads as every vendor changed.
			if c, ok, _ := notice.Decode(m.Payload); ok {
				h(c)
			}
		}
	}
}
