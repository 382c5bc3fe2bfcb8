// Package asynqtest gives integration tests a Redis database of their own.
// It reads VETTED_TEST_REDIS_URL; when that is unset it starts Redis with
// testcontainers if Docker answers, and otherwise skips the test, except
// under CI=true, where it fails it.
//
// asynq uses fixed key names per queue, so tests cannot share a database:
// each test asks for its own database number (1 to 15) and owns it for its
// duration. The helper claims a database only when it is empty or carries
// the marker key this helper writes (left by an earlier run), so a
// developer's data in a numbered database is never flushed: a test that
// meets one fails and names it. A claimed database is flushed before the
// test and again after it; nothing outside it is touched. Packages whose
// tests run at the same time must use disjoint numbers: adapters/asynq uses
// 1 to 10, apps/worker 11 and 12, this package's own test 13, apps/api 14
// and 15. Within a package, a test that does not call t.Parallel may
// borrow a number its package's parallel tests use: it runs, and releases
// the database, before they start.
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
	tcredis "github.com/testcontainers/testcontainers-go/modules/redis"

	"github.com/vetted-dev/vetted/adapters/internal/dockerprobe"
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
		if err := dockerprobe.Healthy(); err != nil {
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

// MarkerKey is the key that marks a database as claimed by this helper.
const MarkerKey = "vetted:asynqtest:claimed"

// URL returns the test Redis URL with database db, claimed for this test:
// flushed now (when empty or marked by this helper before) and again when
// the test ends.
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
	owner := fmt.Sprintf("%s pid %d %d", t.Name(), os.Getpid(), time.Now().UnixNano())
	if err := claim(dbURL, owner); err != nil {
		t.Fatalf("asynqtest: database %d: %v", db, err)
	}
	t.Cleanup(func() {
		if err := release(dbURL, owner); err != nil {
			t.Errorf("asynqtest: database %d: %v", db, err)
		}
	})
	return dbURL
}

// claimScript flushes the database and marks it, atomically, when it is
// empty or carries the marker; otherwise it touches nothing.
var claimScript = redis.NewScript(`
local n = redis.call('DBSIZE')
if n > 0 and redis.call('EXISTS', KEYS[1]) == 0 then
  return n
end
redis.call('FLUSHDB')
redis.call('SET', KEYS[1], ARGV[1])
return 0`)

// releaseScript flushes the database only while it carries this test's mark.
var releaseScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
redis.call('FLUSHDB')
return 1`)

func claim(dbURL, owner string) error {
	return withClient(dbURL, func(ctx context.Context, rdb *redis.Client) error {
		n, err := claimScript.Run(ctx, rdb, []string{MarkerKey}, owner).Int()
		if err != nil {
			return fmt.Errorf("claim: %w", err)
		}
		if n > 0 {
			return fmt.Errorf("holds %d keys this helper did not create; refusing to flush it (point %s at a Redis of its own, or empty that database)", n, EnvURL)
		}
		return nil
	})
}

func release(dbURL, owner string) error {
	return withClient(dbURL, func(ctx context.Context, rdb *redis.Client) error {
		if err := releaseScript.Run(ctx, rdb, []string{MarkerKey}, owner).Err(); err != nil {
			return fmt.Errorf("release: %w", err)
		}
		return nil
	})
}

func withClient(dbURL string, f func(context.Context, *redis.Client) error) error {
	opts, err := redis.ParseURL(dbURL)
	if err != nil {
		return err
	}
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return f(ctx, rdb)
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
