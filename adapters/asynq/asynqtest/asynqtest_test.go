package asynqtest_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/adapters/asynq/asynqtest"
)

// fakeTB records a Fatalf instead of stopping the test, to see URL refuse.
type fakeTB struct {
	testing.TB
	failed   string
	cleanups []func()
}

func (f *fakeTB) Helper()                   {}
func (f *fakeTB) Cleanup(fn func())         { f.cleanups = append(f.cleanups, fn) }
func (f *fakeTB) Name() string              { return "fake" }
func (f *fakeTB) Errorf(s string, a ...any) { f.failed = fmt.Sprintf(s, a...) }
func (f *fakeTB) Fatalf(s string, a ...any) {
	f.failed = fmt.Sprintf(s, a...)
	panic(f)
}

func tryURL(t *testing.T, db int) (f *fakeTB, dbURL string) {
	f = &fakeTB{TB: t}
	defer func() {
		if r := recover(); r != nil && r != f {
			panic(r)
		}
	}()
	return f, asynqtest.URL(f, db)
}

// Database 13 is this package's: no other package uses it.
func TestURLNeverFlushesForeignData(t *testing.T) {
	base := asynqtest.BaseURL(t)
	u, _ := url.Parse(base)
	u.Path = "/13"
	rdb := asynqtest.Client(t, u.String())
	defer rdb.Close()
	ctx := context.Background()
	if n, err := rdb.DBSize(ctx).Result(); err != nil || n != 0 {
		t.Skipf("database 13 of the test Redis is not empty (%d keys, %v); not touching it", n, err)
	}
	// Someone else's data.
	if err := rdb.Set(ctx, "developer:precious", "1", 0).Err(); err != nil {
		t.Fatal(err)
	}
	defer rdb.Del(ctx, "developer:precious")
	f, _ := tryURL(t, 13)
	if !strings.Contains(f.failed, "refusing to flush") {
		t.Fatalf("URL on a foreign database: failure %q, want a refusal", f.failed)
	}
	if v, _ := rdb.Get(ctx, "developer:precious").Result(); v != "1" {
		t.Fatal("the foreign key is gone")
	}
	rdb.Del(ctx, "developer:precious")

	// An empty database is claimed, marked, and flushed after the test.
	f, dbURL := tryURL(t, 13)
	if f.failed != "" || dbURL == "" {
		t.Fatalf("URL on an empty database failed: %s", f.failed)
	}
	if n, _ := rdb.Exists(ctx, asynqtest.MarkerKey).Result(); n != 1 {
		t.Fatal("a claimed database carries no marker")
	}
	rdb.Set(ctx, "asynq:test-key", "x", 0)
	// A database left marked (a crashed run) is claimed again.
	f2, _ := tryURL(t, 13)
	if f2.failed != "" {
		t.Fatalf("URL on a marked database failed: %s", f2.failed)
	}
	if n, _ := rdb.Exists(ctx, "asynq:test-key").Result(); n != 0 {
		t.Fatal("claiming a marked database did not flush it")
	}
	// The first claim's cleanup must not flush the second claim's database.
	rdb.Set(ctx, "asynq:second-owner", "x", 0)
	for _, c := range f.cleanups {
		c()
	}
	if n, _ := rdb.Exists(ctx, "asynq:second-owner").Result(); n != 1 {
		t.Fatal("a stale cleanup flushed a database another test had claimed")
	}
	for _, c := range f2.cleanups {
		c()
	}
	if n, _ := rdb.DBSize(ctx).Result(); n != 0 {
		t.Fatalf("database 13 holds %d keys after the test", n)
	}
}
