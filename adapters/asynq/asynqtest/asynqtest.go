// Package asynqtest gives integration tests a Redis database of their own.
// It reads VETTED_TEST_REDIS_URL; when that is unset it starts Redis with
// testcontainers if Docker answers, and otherwise skips the test, except
// under CI=true, where it fails it.
//
// asynq uses fixed key names per queue, so tests cannot share a database:
// each test asks for its own database number (1 to 15) and owns it for its
// duration. The database is flushed before and after the test; nothing
// outside it is touched. Packages whose tests run at the same time must use
// disjoint numbers: adapters/asynq uses 1 to 10, apps/worker 11 to 13.
package asynqtest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/testcontainers/testcontainers-go"
	tcredis "github.com/testcontainers/testcontainers-go/modules/redis"
	"github.com/vetted-dev/vetted/internal/testenv"
)

// EnvURL names the variable that points tests at a running Redis.
const EnvURL = "VETTED_TEST_REDIS_URL"

var (
	once     sync.Once
	started  string
	startErr error
	noDocker error
)

// BaseURL returns the URL of the test Redis, starting a container once per
// test binary when needed (testcontainers' reaper removes it afterwards).
func BaseURL(t testing.TB) string {
	t.Helper()
	if u := os.Getenv(EnvURL); u != "" {
		return u
	}
	once.Do(func() {
		if err := dockerHealthy(); err != nil {
			noDocker = err
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		c, err := tcredis.Run(ctx, "redis:7-alpine")
		if err != nil {
			startErr = fmt.Errorf("start redis container: %w", err)
			return
		}
		started, startErr = c.ConnectionString(ctx)
	})
	switch {
	case noDocker != nil:
		testenv.Unavailable(t, "Redis", EnvURL, fmt.Sprintf("Docker does not answer: %v", noDocker))
	case startErr != nil:
		t.Fatal(startErr)
	}
	return started
}

// dockerHealthy asks testcontainers whether Docker answers; like
// testcontainers.SkipIfProviderIsNotHealthy, but returning the reason so the
// caller can fail under CI instead of skipping.
func dockerHealthy() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("docker provider panicked: %v", r)
		}
	}()
	p, err := testcontainers.ProviderDocker.GetProvider()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return p.Health(ctx)
}

// URL returns the test Redis URL with database db, flushed now and again
// when the test ends.
func URL(t testing.TB, db int) string {
	t.Helper()
	if db < 1 || db > 15 {
		t.Fatalf("asynqtest: database %d outside 1..15", db)
	}
	u, err := url.Parse(BaseURL(t))
	if err != nil {
		t.Fatalf("asynqtest: %s: %v", EnvURL, err)
	}
	u.Path = fmt.Sprintf("/%d", db)
	dbURL := u.String()
	flush := func() {
		rdb := Client(t, dbURL)
		defer rdb.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := rdb.FlushDB(ctx).Err(); err != nil {
			t.Fatalf("asynqtest: flush database %d: %v", db, err)
		}
	}
	flush()
	t.Cleanup(flush)
	return dbURL
}

// Client opens a client on a Redis URL; the caller closes it.
func Client(t testing.TB, redisURL string) *redis.Client {
	t.Helper()
	opts, err := redis.ParseURL(redisURL)
	if err != nil {
		t.Fatalf("asynqtest: %v", err)
	}
	return redis.NewClient(opts)
}

// Eventually polls cond every 10ms until it holds, failing the test after
// 10 seconds: queues work asynchronously, so tests wait for an outcome
// instead of sleeping a guessed time.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
