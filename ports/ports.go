// Package ports declares the driven ports of Vetted's core: the store with
// its unit of work and repositories, the outbox, blob storage, mail transport,
// enrichment, incident sources, the job queue, identity verification, and the
// clock and id source. Ports speak core types only and take ctx first.
// Adapters implement them; ports/porttest holds the conformance suite every
// store adapter must pass.
package ports

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/core/platform/outbox"
)

// BlobStore keeps evidence files. Clients move bytes directly through
// presigned URLs; the service never proxies file content when backed by S3.
type BlobStore interface {
	// PresignPut returns a request that uploads exactly one object at key,
	// with the given content type and at most maxSize bytes, until ttl passes.
	// The object is written once: an upload to a key that holds an object is
	// refused by the store and leaves the object as it was.
	PresignPut(ctx context.Context, key, contentType string, maxSize int64, ttl time.Duration) (PresignedRequest, error)
	// PresignGet returns a URL that downloads key as fileName until ttl passes.
	PresignGet(ctx context.Context, key, fileName string, ttl time.Duration) (PresignedRequest, error)
	// Stat returns the size of the object, or core.ErrNotFound.
	Stat(ctx context.Context, key string) (int64, error)
	// Digest reads the object and returns its size and SHA-256, or
	// core.ErrNotFound.
	Digest(ctx context.Context, key string) (BlobDigest, error)
	// Delete removes objects; absent keys are not an error.
	Delete(ctx context.Context, keys ...string) error
}

// BlobDigest is the size and SHA-256 (lower-case hex) of a stored object.
type BlobDigest struct {
	Size   int64
	SHA256 string
}

// PresignedRequest is what a client sends to move a file: Method to URL with
// Headers; when Fields is non-empty the upload is an HTML-form POST (S3 POST
// policy) carrying Fields before the file part named "file".
type PresignedRequest struct {
	URL       string
	Method    string
	Headers   map[string]string
	Fields    map[string]string
	ExpiresAt time.Time
}

// ErrPermanent marks a delivery failure that must not be retried (for
// instance an SMTP 5xx); other Mailer errors are retryable.
var ErrPermanent = errors.New("permanent failure")

// ErrNotYet marks a job that could not do its work yet, through no fault of
// its own (another run holds the mail it would send): the runner runs it
// again after the delay RetryAfter names, without counting a failed attempt.
var ErrNotYet = errors.New("not yet")

// notYet is the error of NotYet.
type notYet struct {
	after time.Duration
	err   error
}

func (e *notYet) Error() string   { return e.err.Error() }
func (e *notYet) Unwrap() []error { return []error{ErrNotYet, e.err} }

// NotYet wraps err as ErrNotYet, asking the job runner to run the job again
// after the given delay.
func NotYet(after time.Duration, err error) error {
	return &notYet{after: max(after, 0), err: err}
}

// RetryAfter returns the delay an ErrNotYet error asks for, and whether err
// is one.
func RetryAfter(err error) (time.Duration, bool) {
	var e *notYet
	if errors.As(err, &e) {
		return e.after, true
	}
	return 0, false
}

// Mailer transports finished messages.
type Mailer interface {
	Send(ctx context.Context, m mailtmpl.Mail) error
}

// JobQueue hands outbox messages to workers. Enqueue must be idempotent by
// message id: enqueuing the same id twice runs the job once.
type JobQueue interface {
	Enqueue(ctx context.Context, m outbox.Message) error
}

// HeldJobQueue is a JobQueue whose jobs live only in the memory of its
// process (the embedded profile's in-process runner). The relay does not
// mark a message delivered when such a queue accepts it, but leases it, and
// marks it delivered once the queue reports its job ended; a job the process
// did not end (killed, or stopped past its deadline) is still in the outbox
// for the next start. Its jobs therefore run at least once.
type HeldJobQueue interface {
	JobQueue
	// Ended returns the ids of the jobs that ran to an end (succeeded, or
	// failed for good) since the last call, and forgets them. A message
	// handed over again after its job ended is reported again, not run.
	Ended() []uuid.UUID
	// Held returns the ids of the jobs handed over and not ended: ready,
	// running or waiting for a retry.
	Held() []uuid.UUID
}

// JobHandler runs one job; the core's dispatcher implements it. The
// payload is the message's typed payload (see outbox.Message), as the queue
// read it back. An error wrapping ErrPermanent is not retried; one wrapping
// ErrNotYet is retried after the delay it names (RetryAfter) and does not
// count as a failure.
type JobHandler interface {
	Handle(ctx context.Context, kind outbox.Kind, payload any) error
}

// Identity is a verified caller, as the token says.
type Identity struct {
	Subject       string
	Email         string
	EmailVerified bool
	Name          string
	Groups        []string
}

// PlatformAdminGroup is the group that grants platform-admin privileges.
const PlatformAdminGroup = "Admins"

// IsPlatformAdmin reports whether the identity is in the Admins group.
func (i Identity) IsPlatformAdmin() bool {
	for _, g := range i.Groups {
		if g == PlatformAdminGroup {
			return true
		}
	}
	return false
}

// TokenVerifier checks a bearer token; errors wrap core.ErrUnauthenticated.
type TokenVerifier interface {
	Verify(ctx context.Context, token string) (Identity, error)
}

// Clock tells the time.
type Clock interface{ Now() time.Time }

// IDs makes new ids (UUIDv7 in production).
type IDs interface{ New() uuid.UUID }

// SystemClock is the real clock.
type SystemClock struct{}

// Now returns the current UTC time.
func (SystemClock) Now() time.Time { return time.Now().UTC() }

// UUIDv7 makes time-ordered ids.
type UUIDv7 struct{}

// New returns a new UUIDv7.
func (UUIDv7) New() uuid.UUID { return uuid.Must(uuid.NewV7()) }
