// Package dockerprobe answers, for the integration test helpers, whether
// testcontainers can reach a Docker engine. It asks the same question as
// testcontainers.SkipIfProviderIsNotHealthy but returns the reason instead
// of skipping, so that under CI=true a helper can fail with it (and so that
// benchmarks, which cannot skip through testing.T, can use it too).
package dockerprobe

import (
	"context"
	"fmt"
	"time"

	"github.com/testcontainers/testcontainers-go"
)

// Healthy returns nil when a Docker engine answers within 10 seconds, else
// why not. testcontainers panics on some broken setups; that is an answer too.
func Healthy() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("docker provider panicked: %v", r)
		}
	}()
	p, err := testcontainers.ProviderDocker.GetProvider()
	if err != nil {
		return err
	}
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return p.Health(ctx)
}
