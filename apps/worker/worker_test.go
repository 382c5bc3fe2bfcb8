package worker_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	asynqadapter "github.com/vetted-dev/vetted/adapters/asynq"
	"github.com/vetted-dev/vetted/adapters/asynq/asynqtest"
	"github.com/vetted-dev/vetted/apps/worker"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/memstore"
	"github.com/vetted-dev/vetted/ports/stores"
)

// recorder is a ports.JobHandler that counts runs per message payload and
// per kind; hold, when set, runs before each job returns.
type recorder struct {
	mu     sync.Mutex
	byKey  map[string]int
	byKind map[outbox.Kind]int
	hold   func(ctx context.Context)
}

func newRecorder() *recorder {
	return &recorder{byKey: map[string]int{}, byKind: map[outbox.Kind]int{}}
}

func (r *recorder) Handle(ctx context.Context, kind outbox.Kind, payload any) error {
	if r.hold != nil {
		r.hold(ctx)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.byKey[fmt.Sprint(payload)]++
	r.byKind[kind]++
	return nil
}

func (r *recorder) runs(key string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byKey[key]
}

func (r *recorder) kindRuns(k outbox.Kind) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byKind[k]
}

func fastConfig(url string) worker.Config {
	return worker.Config{
		RedisURL:                 url,
		Concurrency:              4,
		ShutdownTimeout:          2 * time.Second,
		RelayInterval:            20 * time.Millisecond,
		MinBackoff:               10 * time.Millisecond,
		MaxBackoff:               50 * time.Millisecond,
		TaskCheckInterval:        20 * time.Millisecond,
		DelayedTaskCheckInterval: 50 * time.Millisecond,
	}
}

// start runs the worker and returns a function that stops it and waits.
func start(t *testing.T, cfg worker.Config, h ports.JobHandler, s stores.Store) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- worker.Run(ctx, cfg, h, s, nil) }()
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("worker did not stop")
			}
		})
		return err
	}
	t.Cleanup(func() { _ = stop() })
	return stop
}

func write(t *testing.T, s stores.Store, n int) []string {
	t.Helper()
	keys := make([]string, n)
	ms := make([]outbox.Message, n)
	for i := range ms {
		ms[i] = outbox.New(uuid.Must(uuid.NewV7()), outbox.KindAlertMail,
			outbox.AlertMail{IncidentID: uuid.Must(uuid.NewV7()), SubscriberID: uuid.Must(uuid.NewV7())}, time.Now())
		keys[i] = fmt.Sprint(ms[i].Payload)
	}
	err := s.InTx(t.Context(), func(ctx context.Context, tx stores.Tx) error { return tx.Outbox().Add(ctx, ms...) })
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

func pending(t *testing.T, s stores.Store) int {
	t.Helper()
	var n int
	if err := s.View(t.Context(), func(ctx context.Context, tx stores.Tx) (err error) {
		n, err = tx.Outbox().Pending(ctx)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestRunRejectsMissingDependencies(t *testing.T) {
	t.Parallel()
	h, s := newRecorder(), memstore.New()
	tests := []struct {
		name    string
		cfg     worker.Config
		handler ports.JobHandler
		store   stores.Store
	}{
		{"no handler", worker.Config{RedisURL: "redis://127.0.0.1:1"}, nil, s},
		{"no store", worker.Config{RedisURL: "redis://127.0.0.1:1"}, h, nil},
		{"no redis", worker.Config{}, h, s},
		{"bad redis url", worker.Config{RedisURL: "http://x"}, h, s},
	}
	for _, tt := range tests {
		if err := worker.Run(t.Context(), tt.cfg, tt.handler, tt.store, nil); err == nil {
			t.Errorf("%s: Run returned nil", tt.name)
		}
	}
}

// TestRunRelaysAndRunsEveryJobOnce writes to the outbox before and while
// two workers run against one store and one Redis, as scaled-out workers
// do: every job runs once, and the periodic poll runs too.
func TestRunRelaysAndRunsEveryJobOnce(t *testing.T) {
	t.Parallel()
	url := asynqtest.URL(t, 11)
	s, h := memstore.New(), newRecorder()
	keys := write(t, s, 10)
	cfg := fastConfig(url)
	cfg.PollIncidentsEvery = time.Second
	stops := []func() error{start(t, cfg, h, s), start(t, fastConfig(url), h, s)}
	keys = append(keys, write(t, s, 10)...)

	asynqtest.Eventually(t, "every job ran", func() bool {
		for _, k := range keys {
			if h.runs(k) == 0 {
				return false
			}
		}
		return pending(t, s) == 0
	})
	asynqtest.Eventually(t, "incidents were polled", func() bool { return h.kindRuns(outbox.KindPollIncidents) > 0 })
	time.Sleep(300 * time.Millisecond) // room for a duplicate to show up
	for _, k := range keys {
		if n := h.runs(k); n != 1 {
			t.Errorf("job %s ran %d times, want 1", k, n)
		}
	}
	for _, stop := range stops {
		if err := stop(); err != nil {
			t.Errorf("Run = %v, want nil", err)
		}
	}
}

// TestRunFinishesRunningJobsOnShutdown cancels the worker while a job runs:
// the job finishes within ShutdownTimeout and is recorded as completed.
func TestRunFinishesRunningJobsOnShutdown(t *testing.T) {
	t.Parallel()
	url := asynqtest.URL(t, 12)
	s, h := memstore.New(), newRecorder()
	started := make(chan struct{}, 1)
	h.hold = func(context.Context) {
		started <- struct{}{}
		time.Sleep(300 * time.Millisecond) // busy, and not watching ctx
	}
	stop := start(t, fastConfig(url), h, s)
	keys := write(t, s, 1)
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the job never started")
	}
	if err := stop(); err != nil {
		t.Fatalf("Run = %v, want nil", err)
	}
	if n := h.runs(keys[0]); n != 1 {
		t.Errorf("job ran %d times before shutdown returned, want 1", n)
	}
	rdb := asynqtest.Client(t, url)
	defer rdb.Close()
	c, err := asynqadapter.NewInspector(rdb).Counts(outbox.KindAlertMail.Queue())
	if err != nil {
		t.Fatal(err)
	}
	if c.Completed != 1 || c.Pending+c.Active+c.Retry != 0 {
		t.Errorf("queue after shutdown = %+v, want the job completed", c)
	}
}

// TestMailDoesNotWaitBehindEnrichment: with every worker held by an
// enrichment job and more queued, a member mail still runs (on the workers
// reserved for critical jobs).
func TestMailDoesNotWaitBehindEnrichment(t *testing.T) {
	url := asynqtest.URL(t, 14)
	s, h := memstore.New(), newRecorder()
	gate := make(chan struct{})
	defer close(gate)
	var held atomic.Int64
	h.hold = func(ctx context.Context) {
		if ctx.Value(holdKey{}) != nil {
			return
		}
		held.Add(1)
		select {
		case <-gate:
		case <-ctx.Done():
		}
	}
	mail := outbox.New(uuid.Must(uuid.NewV7()), outbox.KindMemberMail, outbox.MemberMail{Email: "erin@acme.test"}, time.Now())
	ms := []outbox.Message{}
	for range 20 {
		ms = append(ms, outbox.New(uuid.Must(uuid.NewV7()), outbox.KindEnrich, outbox.Enrich{VendorID: uuid.Must(uuid.NewV7())}, time.Now()))
	}
	add := func(ms ...outbox.Message) {
		if err := s.InTx(t.Context(), func(ctx context.Context, tx stores.Tx) error { return tx.Outbox().Add(ctx, ms...) }); err != nil {
			t.Fatal(err)
		}
	}
	add(ms...)
	cfg := fastConfig(url)
	cfg.Concurrency = 2
	start(t, cfg, mailFirst{h}, s)
	asynqtest.Eventually(t, "both workers held by an enrichment", func() bool { return held.Load() >= 2 })
	add(mail)
	asynqtest.Eventually(t, "the member mail ran while enrichment held every worker", func() bool {
		return h.kindRuns(outbox.KindMemberMail) == 1
	})
	if n := h.kindRuns(outbox.KindEnrich); n != 0 {
		t.Fatalf("%d enrichment jobs ended, want none before the gate opens", n)
	}
}

type holdKey struct{}

// mailFirst lets mail jobs pass the recorder's hold.
type mailFirst struct{ r *recorder }

func (m mailFirst) Handle(ctx context.Context, kind outbox.Kind, payload any) error {
	if kind == outbox.KindMemberMail {
		ctx = context.WithValue(ctx, holdKey{}, true)
	}
	return m.r.Handle(ctx, kind, payload)
}
