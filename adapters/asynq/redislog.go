package asynqadapter

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/redis/go-redis/v9"
)

// RedisLogger is go-redis's logger over slog: go-redis prints its own
// notices (a failed dial, a pool error) with the standard log package, as
// plain text, which would break a JSON log into lines no collector parses.
type RedisLogger struct{ Log *slog.Logger }

// Printf logs one go-redis notice as a warning: go-redis only speaks up
// when something went wrong.
func (l RedisLogger) Printf(ctx context.Context, format string, v ...any) {
	msg := strings.TrimSpace(fmt.Sprintf(format, v...))
	l.Log.WarnContext(ctx, strings.TrimPrefix(msg, "redis: "), "component", "go-redis")
}

// SetRedisLogger routes go-redis's notices through log. go-redis has one
// logger per process, so this sets it for every client.
func SetRedisLogger(log *slog.Logger) {
	if log == nil {
		log = slog.Default()
	}
	redis.SetLogger(RedisLogger{Log: log})
}
