package api

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
)

// errNoRequestState: an operation served without observe's request state,
// where the caller could not be recorded (a wiring bug: answered 500).
var errNoRequestState = errors.New("api: request served without its request state")

// authenticate checks the bearer token of operations that declare the
// bearer scheme, provisions the caller, and applies the per-caller rate limit.
func (s *Server) authenticate(ctx huma.Context, next func(huma.Context)) {
	if op := ctx.Operation(); op == nil || len(op.Security) == 0 {
		next(ctx)
		return
	} else if anonymousAllowed(op) {
		s.authenticateOptional(ctx, next)
		return
	}
	// What a caller reads with a token is theirs alone: no cache keeps it.
	ctx.SetHeader("Cache-Control", "no-store")
	raw := ctx.Header("Authorization")
	scheme, token, ok := strings.Cut(raw, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		ctx.SetHeader("WWW-Authenticate", `Bearer realm="vetted"`)
		s.writeProblem(ctx, core.Unauthenticated("missing or malformed Authorization: Bearer token"))
		return
	}
	id, err := s.opts.Verifier.Verify(ctx.Context(), strings.TrimSpace(token))
	if err != nil {
		if errors.Is(err, core.ErrUnauthenticated) {
			ctx.SetHeader("WWW-Authenticate", `Bearer realm="vetted", error="invalid_token"`)
		}
		s.writeProblem(ctx, err)
		return
	}
	noteSubject(ctx.Context(), id.Subject)
	if wait := s.limiter.take(id.Subject); wait > 0 {
		ctx.SetHeader("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
		_ = huma.WriteErr(s.api, ctx, http.StatusTooManyRequests, "rate limit exceeded; retry later")
		return
	}
	a, err := s.accounts.Identify(ctx.Context(), id)
	if err != nil {
		s.writeProblem(ctx, err)
		return
	}
	// Platform-admin operations are refused before their input is even
	// validated, so a caller without the privilege learns nothing from them.
	if only, _ := ctx.Operation().Metadata[platformAdminKey].(bool); only && !a.PlatformAdmin {
		s.writeProblem(ctx, accounts.ErrPlatformAdminOnly)
		return
	}
	ri := reqInfoOf(ctx.Context())
	if ri == nil { // every route is behind observe, which puts it there
		s.writeProblem(ctx, errNoRequestState)
		return
	}
	ri.actor = a
	next(ctx)
}

// authenticateOptional serves an operation anonymous callers may call
// (optionalBearer): a token that verifies and signs in makes the caller
// known to it; with no token, or one that does not, the caller is served as
// anonymous, never refused (a readiness probe must not fail on a token).
// The rate limit does not apply, as to anonymous callers.
func (s *Server) authenticateOptional(ctx huma.Context, next func(huma.Context)) {
	scheme, token, ok := strings.Cut(ctx.Header("Authorization"), " ")
	ri := reqInfoOf(ctx.Context())
	if ok && strings.EqualFold(scheme, "Bearer") && strings.TrimSpace(token) != "" && ri != nil {
		if id, err := s.opts.Verifier.Verify(ctx.Context(), strings.TrimSpace(token)); err == nil {
			if a, err := s.accounts.Identify(ctx.Context(), id); err == nil {
				ctx.SetHeader("Cache-Control", "no-store")
				noteSubject(ctx.Context(), id.Subject)
				ri.actor = a
			}
		}
	}
	next(ctx)
}

// anonymousAllowed reports whether op declares an empty security
// requirement besides the bearer one (optionalBearer).
func anonymousAllowed(op *huma.Operation) bool {
	for _, req := range op.Security {
		if len(req) == 0 {
			return true
		}
	}
	return false
}

const platformAdminKey = "platform-admin-only"

// platformAdminOnly marks an operation as limited to platform admins. The
// service checks the privilege too; this check only makes it come first.
var platformAdminOnly = map[string]any{platformAdminKey: true}

// actor returns the authenticated caller of an operation.
func actor(ctx context.Context) accounts.Actor {
	if ri := reqInfoOf(ctx); ri != nil {
		return ri.actor
	}
	return accounts.Actor{}
}

// limiter is a per-caller token bucket. It is per process: behind several
// API replicas the effective limit is the sum, which is acceptable for abuse
// protection (it is not a billing quota).
type limiter struct {
	mu      sync.Mutex
	rate    float64
	burst   float64
	buckets map[string]*bucket
	last    time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(rate float64, burst int) *limiter {
	return &limiter{rate: rate, burst: float64(burst), buckets: map[string]*bucket{}}
}

// take spends one token of key and returns how long to wait if none is left.
func (l *limiter) take(key string) time.Duration {
	if l.rate < 0 {
		return 0
	}
	return l.takeAt(key, time.Now())
}

// takeAt is take at the time now. Concurrent callers read the clock before
// they queue for the lock, so now may be a little older than the bucket's
// last refill: such a take refills nothing. (Counting the negative interval
// would drain the bucket by rate × the reordering: at a high rate, a
// caller far within its limit was refused.)
func (l *limiter) takeAt(key string, now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.last) > time.Minute { // forget idle callers
		for k, b := range l.buckets {
			if now.Sub(b.at) > time.Minute {
				delete(l.buckets, k)
			}
		}
		l.last = now
	}
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[key] = b
	}
	if elapsed := now.Sub(b.at); elapsed > 0 {
		b.tokens = math.Min(l.burst, b.tokens+elapsed.Seconds()*l.rate)
		b.at = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return 0
	}
	return time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
}
