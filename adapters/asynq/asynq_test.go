package asynqadapter_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	asynqadapter "github.com/vetted-dev/vetted/adapters/asynq"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/ports"
)

// These tests need no Redis.

func TestConstructorsRejectNil(t *testing.T) {
	t.Parallel()
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})
	t.Cleanup(func() { rdb.Close() })
	h := newFakeHandler(nil)
	tests := []struct {
		name string
		err  func() error
	}{
		{"queue without redis", func() error { _, err := asynqadapter.NewQueue(nil, asynqadapter.QueueConfig{}); return err }},
		{"server without redis", func() error { _, err := asynqadapter.NewServer(nil, h, asynqadapter.ServerConfig{}); return err }},
		{"server without handler", func() error { _, err := asynqadapter.NewServer(rdb, nil, asynqadapter.ServerConfig{}); return err }},
		{"scheduler without redis", func() error { _, err := asynqadapter.NewScheduler(nil, asynqadapter.SchedulerConfig{}); return err }},
	}
	for _, tt := range tests {
		if tt.err() == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
}

func TestRetryDelay(t *testing.T) {
	t.Parallel()
	f := asynqadapter.RetryDelay(time.Second, 10*time.Second)
	tests := []struct {
		retried int
		want    time.Duration
	}{
		{0, time.Second},
		{1, 2 * time.Second},
		{3, 8 * time.Second},
		{4, 10 * time.Second},
		{100, 10 * time.Second},
	}
	for _, tt := range tests {
		if got := f(tt.retried, nil, nil); got != tt.want {
			t.Errorf("RetryDelay(%d) = %v, want %v", tt.retried, got, tt.want)
		}
	}
	// A deferred job asks for its own delay, whatever the backoff says.
	notYet := fmt.Errorf("alert: %w", ports.NotYet(90*time.Second, errors.New("claimed by another run")))
	if got := f(4, notYet, nil); got != 90*time.Second {
		t.Errorf("RetryDelay(4, not yet for 90s) = %v, want 90s", got)
	}
}

func TestCronEvery(t *testing.T) {
	t.Parallel()
	if got, want := asynqadapter.CronEvery(15*time.Minute), "@every 15m0s"; got != want {
		t.Errorf("CronEvery(15m) = %q, want %q", got, want)
	}
}

func TestHandlerMapsErrors(t *testing.T) {
	t.Parallel()
	permanent := fmt.Errorf("smtp 550: %w", ports.ErrPermanent)
	transient := errors.New("smtp 421")
	tests := []struct {
		name      string
		taskType  string
		err       error
		wantSkip  bool
		wantErr   error
		wantCalls int
	}{
		{"success", string(outbox.KindAlertMail), nil, false, nil, 1},
		{"transient is retried", string(outbox.KindAlertMail), transient, false, transient, 1},
		{"permanent skips retry", string(outbox.KindAlertMail), permanent, true, ports.ErrPermanent, 1},
		{"unknown type skips retry", "mail:unknown", nil, true, asynq.SkipRetry, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []outbox.Kind
			h := asynqadapter.Handler(handlerFunc(func(_ context.Context, k outbox.Kind, _ any) error {
				got = append(got, k)
				return tt.err
			}))
			err := h.ProcessTask(t.Context(), asynq.NewTask(tt.taskType, []byte("{}")))
			if errors.Is(err, asynq.SkipRetry) != tt.wantSkip || !errors.Is(err, tt.wantErr) {
				t.Errorf("ProcessTask = %v; want skip retry %v, wrapping %v", err, tt.wantSkip, tt.wantErr)
			}
			if len(got) != tt.wantCalls || (tt.wantCalls == 1 && got[0] != outbox.Kind(tt.taskType)) {
				t.Errorf("handler calls %v, want %d of %s", got, tt.wantCalls, tt.taskType)
			}
		})
	}
}

func TestSchedulerDisabledWhenIntervalsAreZero(t *testing.T) {
	t.Parallel()
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})
	t.Cleanup(func() { rdb.Close() })
	s, err := asynqadapter.NewScheduler(rdb, asynqadapter.SchedulerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Entries() != 0 {
		t.Errorf("Entries = %d, want 0", s.Entries())
	}
	if err := s.Start(); err != nil { // a no-op: it must not even dial Redis
		t.Errorf("Start = %v", err)
	}
	s.Shutdown()
}

func TestPingFailsWhenRedisIsDown(t *testing.T) {
	t.Parallel()
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1})
	t.Cleanup(func() { rdb.Close() })
	q, err := asynqadapter.NewQueue(rdb, asynqadapter.QueueConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Ping(t.Context()); err == nil {
		t.Error("Ping against a closed port succeeded")
	}
}

type handlerFunc func(context.Context, outbox.Kind, any) error

func (f handlerFunc) Handle(ctx context.Context, k outbox.Kind, p any) error {
	return f(ctx, k, p)
}
