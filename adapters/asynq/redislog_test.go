package asynqadapter_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/internal/testenv"

	"github.com/redis/go-redis/v9"
	asynqadapter "github.com/vetted-dev/vetted/adapters/asynq"
)

// lockedBuffer is a log sink goroutines write while the test reads it.
type lockedBuffer = testenv.Buffer

// TestRedisNoticesAreJSON makes go-redis log (a dial to a closed port
// fails) with its logger set to a JSON slog logger: every line of the log
// is a JSON record, and the notice is among them.
func TestRedisNoticesAreJSON(t *testing.T) {
	var logs lockedBuffer
	asynqadapter.SetRedisLogger(slog.New(slog.NewJSONHandler(&logs, nil)))
	t.Cleanup(func() { asynqadapter.SetRedisLogger(slog.Default()) })

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close() // nothing listens there now
	rdb := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, DialerRetries: 1})
	defer rdb.Close()
	if err := rdb.Ping(context.Background()).Err(); err == nil {
		t.Fatal("ping of a closed port succeeded")
	}

	var found bool
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("a log line is not JSON: %q", line)
		}
		if rec["component"] == "go-redis" && strings.Contains(rec["msg"].(string), "failed to dial") {
			found = true
		}
	}
	if !found {
		t.Fatalf("go-redis's dial failure is not in the log:\n%s", logs.String())
	}
}
