package asynqadapter_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
	asynqadapter "github.com/vetted-dev/vetted/adapters/asynq"
	"github.com/vetted-dev/vetted/adapters/asynq/asynqtest"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/relay"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/memstore"
	"github.com/vetted-dev/vetted/ports/stores"
)

// call is one Handle call as the fake handler saw it.
type call struct {
	kind outbox.Kind
	key  string
}

// fakeHandler is a ports.JobHandler that records calls and successes by a
// delivery key taken from the payload (incident and subscriber for alert
// mail, as the real mail handler will), and lets each test decide the
// outcome of every call.
type fakeHandler struct {
	mu        sync.Mutex
	calls     []call
	successes map[string]int
	// outcome decides a call; n counts the calls of the same key, from 1.
	outcome func(ctx context.Context, key string, n int) error
}

func newFakeHandler(outcome func(ctx context.Context, key string, n int) error) *fakeHandler {
	return &fakeHandler{successes: map[string]int{}, outcome: outcome}
}

func (h *fakeHandler) Handle(ctx context.Context, kind outbox.Kind, payload any) error {
	key := string(kind)
	if p, ok := payload.(outbox.AlertMail); ok && p.SubscriberID != uuid.Nil {
		key = p.IncidentID.String() + ":" + p.SubscriberID.String()
	}
	h.mu.Lock()
	h.calls = append(h.calls, call{kind, key})
	n := 0
	for _, c := range h.calls {
		if c.key == key {
			n++
		}
	}
	h.mu.Unlock()
	var err error
	if h.outcome != nil {
		err = h.outcome(ctx, key, n)
	}
	if err == nil {
		h.mu.Lock()
		h.successes[key]++
		h.mu.Unlock()
	}
	return err
}

// counts returns how often key was handled and how often that succeeded.
func (h *fakeHandler) counts(key string) (calls, successes int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, c := range h.calls {
		if c.key == key {
			calls++
		}
	}
	return calls, h.successes[key]
}

func (h *fakeHandler) totalCalls() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.calls)
}

// alert builds an alert-mail message written at now (the test's clock)
// and returns it with its delivery key.
func alert(now time.Time) (outbox.Message, string) {
	p := outbox.AlertMail{IncidentID: uuid.Must(uuid.NewV7()), SubscriberID: uuid.Must(uuid.NewV7())}
	m := outbox.New(uuid.Must(uuid.NewV7()), outbox.KindAlertMail, p, now)
	return m, p.IncidentID.String() + ":" + p.SubscriberID.String()
}

// alertRunToEnd enqueues an alert and waits until its task completed or was
// archived; it returns the message and its delivery key.
func (e *env) alertRunToEnd(t *testing.T) (outbox.Message, string) {
	t.Helper()
	m, key := alert(time.Now())
	if err := e.queue.Enqueue(t.Context(), m); err != nil {
		t.Fatal(err)
	}
	asynqtest.Eventually(t, "the task finished", func() bool {
		c := e.total(t)
		return c.Completed+c.Archived == 1
	})
	return m, key
}

// env is one test's Redis database with a queue and an inspector on it.
type env struct {
	url   string
	rdb   *redis.Client
	queue *asynqadapter.Queue
	insp  *asynqadapter.Inspector
}

func newEnv(t *testing.T, db int, qcfg asynqadapter.QueueConfig) *env {
	t.Helper()
	url := asynqtest.URL(t, db)
	rdb := asynqtest.Client(t, url)
	t.Cleanup(func() { rdb.Close() })
	q, err := asynqadapter.NewQueue(rdb, qcfg)
	if err != nil {
		t.Fatal(err)
	}
	return &env{url: url, rdb: rdb, queue: q, insp: asynqadapter.NewInspector(rdb)}
}

// fastServer is a server config that keeps tests in seconds.
func fastServer() asynqadapter.ServerConfig {
	return asynqadapter.ServerConfig{
		Concurrency:              4,
		ShutdownTimeout:          300 * time.Millisecond,
		MinBackoff:               10 * time.Millisecond,
		MaxBackoff:               50 * time.Millisecond,
		TaskCheckInterval:        20 * time.Millisecond,
		DelayedTaskCheckInterval: 50 * time.Millisecond,
	}
}

// startServer runs a server on the env's database until the test ends.
func (e *env) startServer(t *testing.T, h ports.JobHandler, cfg asynqadapter.ServerConfig) *asynqadapter.Server {
	t.Helper()
	srv, err := asynqadapter.NewServer(e.rdb, h, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	return srv
}

// total sums the counts of every outbox queue.
func (e *env) total(t *testing.T) asynqadapter.Counts {
	t.Helper()
	var sum asynqadapter.Counts
	for _, q := range asynqadapter.Queues() {
		c, err := e.insp.Counts(q)
		if err != nil {
			t.Fatal(err)
		}
		sum.Pending += c.Pending
		sum.Active += c.Active
		sum.Scheduled += c.Scheduled
		sum.Retry += c.Retry
		sum.Archived += c.Archived
		sum.Completed += c.Completed
	}
	return sum
}

// settle gives a wrongly repeated job the time to show up.
func settle() { time.Sleep(300 * time.Millisecond) }

// clock is a settable ports.Clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// seedOutbox writes messages to the store's outbox in one unit of work.
func seedOutbox(t *testing.T, s stores.Store, ms ...outbox.Message) {
	t.Helper()
	err := s.InTx(t.Context(), func(ctx context.Context, tx stores.Tx) error { return tx.Outbox().Add(ctx, ms...) })
	if err != nil {
		t.Fatal(err)
	}
}

func pending(t *testing.T, s stores.Store) int {
	t.Helper()
	var n int
	err := s.View(t.Context(), func(ctx context.Context, tx stores.Tx) (err error) {
		n, err = tx.Outbox().Pending(ctx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

var errPeek = errors.New("peek only")

// undelivered returns every undelivered message, due or not, by claiming
// far in the future in a unit of work that is then rolled back.
func undelivered(t *testing.T, s stores.Store) []outbox.Message {
	t.Helper()
	var ms []outbox.Message
	err := s.InTx(t.Context(), func(ctx context.Context, tx stores.Tx) (err error) {
		ms, err = tx.Outbox().Claim(ctx, 1<<20, time.Now().Add(100*365*24*time.Hour))
		if err != nil {
			return err
		}
		return errPeek
	})
	if !errors.Is(err, errPeek) {
		t.Fatal(err)
	}
	return ms
}

func newRelay(t *testing.T, s stores.Store, q ports.JobQueue, c ports.Clock) *relay.Relay {
	t.Helper()
	r, err := relay.New(s, q, c, relay.Options{BatchSize: 4, Interval: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// drain runs the relay until a round delivers nothing.
func drain(t *testing.T, r *relay.Relay) int {
	t.Helper()
	total := 0
	for {
		n, err := r.RunOnce(t.Context())
		if err != nil {
			t.Fatalf("RunOnce: %v", err)
		}
		if n == 0 {
			return total
		}
		total += n
	}
}

// crashingStore fails the first failMarks MarkDelivered calls, as a relay
// that dies after enqueueing and before committing would.
type crashingStore struct {
	*memstore.Store
	failMarks atomic.Int32
}

func (s *crashingStore) InTx(ctx context.Context, fn func(context.Context, stores.Tx) error) error {
	return s.Store.InTx(ctx, func(ctx context.Context, tx stores.Tx) error { return fn(ctx, crashingTx{tx, s}) })
}

type crashingTx struct {
	stores.Tx
	s *crashingStore
}

func (t crashingTx) Outbox() outbox.Repo { return crashingOutbox{t.Tx.Outbox(), t.s} }

type crashingOutbox struct {
	outbox.Repo
	s *crashingStore
}

func (o crashingOutbox) MarkDelivered(ctx context.Context, ids []uuid.UUID, now time.Time) error {
	if o.s.failMarks.Add(-1) >= 0 {
		return errors.New("relay crashed before commit")
	}
	return o.Repo.MarkDelivered(ctx, ids, now)
}
