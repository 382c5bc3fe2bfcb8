package webhook

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"github.com/vetted-dev/vetted/adapters/enrich"
)

// Sender defaults.
const (
	DefaultTimeout   = 10 * time.Second
	DefaultMaxBody   = 64 << 10
	DefaultUserAgent = "Vetted-Webhooks/1"
	// SnippetBytes is the most of a response body an Attempt keeps.
	SnippetBytes = 512
)

// The errors an Attempt can carry; test them with errors.Is. Each failed
// attempt matches exactly one of them, or the caller's own context error
// when its context ended first.
var (
	// ErrRefused: the SSRF policy refused the URL or the address its host
	// resolved to; nothing was sent. It is enrich.ErrRefused, so a check
	// against either matches.
	ErrRefused = enrich.ErrRefused
	// ErrTimeout: the attempt took longer than SenderConfig.Timeout.
	ErrTimeout = errors.New("webhook: timed out")
	// ErrNetwork: the receiver could not be reached or the connection
	// failed (DNS, connect, TLS, reset) before an answer came.
	ErrNetwork = errors.New("webhook: network error")
	// ErrStatus: the receiver answered, but not with a 2xx; a 3xx counts,
	// because redirects are not followed.
	ErrStatus = errors.New("webhook: receiver did not answer 2xx")
	// ErrInvalidDelivery: the Delivery itself cannot be sent (bad secret,
	// no message id, payload not JSON, URL not acceptable); nothing was
	// sent and a retry will not help.
	ErrInvalidDelivery = errors.New("webhook: invalid delivery")
)

// SenderConfig configures a Sender.
type SenderConfig struct {
	// Fetcher dials every receiver, so the scanner's SSRF policy (and its
	// resolver, VETTED_SCAN_RESOLVER, when configured) applies to the
	// resolved address at connect time. Required.
	Fetcher *enrich.Fetcher
	// AllowPrivate is the same switch as the Fetcher's
	// (VETTED_FETCH_ALLOW_PRIVATE): Send applies ValidateURL with it before
	// dialling, so a stored URL is still held to https and the IP literal
	// rules. When the two disagree the stricter one wins.
	AllowPrivate bool
	// Timeout bounds one attempt, from dialling to the end of the body
	// read; DefaultTimeout when zero.
	Timeout time.Duration
	// MaxBody is the most of a response body that is read (and
	// discarded, but for the snippet); DefaultMaxBody when zero.
	MaxBody int64
	// UserAgent is sent with every request; DefaultUserAgent when empty.
	UserAgent string
	// TLSConfig, when set, is used for https (tests and closed networks
	// trust their own CA through RootCAs).
	TLSConfig *tls.Config
	// Now is the signing clock; time.Now when nil.
	Now func() time.Time
}

// Sender posts signed webhook deliveries. It is safe for concurrent use
// and keeps idle connections to receivers for reuse.
type Sender struct {
	cfg    SenderConfig
	client *http.Client
}

// NewSender builds a Sender from cfg; cfg.Fetcher is required, because
// without it nothing would stop a receiver URL from reaching the service's
// own network.
func NewSender(cfg SenderConfig) (*Sender, error) {
	if cfg.Fetcher == nil {
		return nil, errors.New("webhook: SenderConfig.Fetcher is required")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = DefaultUserAgent
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	tr := &http.Transport{
		Proxy:               nil, // a proxy would dial for us, past the policy
		DialContext:         cfg.Fetcher.DialContext,
		TLSClientConfig:     cfg.TLSConfig,
		TLSHandshakeTimeout: cfg.Timeout,
		MaxIdleConns:        20,
		IdleConnTimeout:     30 * time.Second,
		ForceAttemptHTTP2:   true,
	}
	return &Sender{cfg: cfg, client: &http.Client{
		Transport: tr,
		// A redirect is the receiver's answer, not a new destination:
		// following it would let a registered URL point the signed
		// payload anywhere.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}, nil
}

// Delivery is one message to one endpoint. The same Delivery is sent again
// on every retry, so MessageID stays the same and receivers can dedupe.
type Delivery struct {
	// URL is the endpoint, as registered (see ValidateURL).
	URL string
	// Secret is the endpoint's "whsec_..." signing secret (NewSecret).
	Secret string
	// MessageID is the webhook-id header: one per event and endpoint,
	// stable across retries.
	MessageID string
	// Timestamp is the webhook-timestamp the attempt is signed with. Leave
	// it zero to sign with the time of each attempt: receivers refuse a
	// timestamp more than five minutes old, so a retry hours later signed
	// with the event's time would always fail.
	Timestamp time.Time
	// EventType is the event's type (e.g. "incident.created"), for the
	// caller's records; it is not sent as a header, the payload carries it
	// in its "type" field as the Standard Webhooks payload format says.
	EventType string
	// Payload is the JSON body, sent as is and covered by the signature.
	Payload []byte
}

// Attempt is how one Send went.
type Attempt struct {
	// StatusCode is the receiver's HTTP status, 0 when no answer came.
	StatusCode int
	// Duration is the time from the start of the attempt to the end of the
	// body read.
	Duration time.Duration
	// Err is nil on success (a 2xx answer), else matches one of ErrRefused,
	// ErrTimeout, ErrNetwork, ErrStatus, ErrInvalidDelivery, or the
	// context's error when the caller's context ended.
	Err error
	// ResponseSnippet is the start of the response body (at most
	// SnippetBytes bytes), as valid UTF-8 with control and format
	// characters turned into spaces and white space collapsed, safe to
	// store and show.
	ResponseSnippet string
}

// OK reports whether the receiver accepted the delivery.
func (a Attempt) OK() bool { return a.Err == nil }

// Send makes one attempt to deliver d: a POST of d.Payload to d.URL with
// the Standard Webhooks headers, no redirect followed. Only a 2xx answer
// is a success. Send never retries; the caller schedules the next attempt
// with NextRetry.
func (s *Sender) Send(ctx context.Context, d Delivery) Attempt {
	start := time.Now()
	req, err := s.request(ctx, d)
	if err != nil {
		return Attempt{Err: err}
	}
	actx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	resp, err := s.client.Do(req.WithContext(actx))
	if err != nil {
		return Attempt{Duration: time.Since(start), Err: s.failure(ctx, actx, err)}
	}
	defer resp.Body.Close()
	// The body is read (up to MaxBody) so the connection can be reused;
	// past that the connection is dropped rather than drained. A body
	// error does not undo the status the receiver already answered.
	var head bytes.Buffer
	_, _ = io.Copy(&limitedWriter{buf: &head, max: SnippetBytes}, io.LimitReader(resp.Body, s.cfg.MaxBody))
	a := Attempt{StatusCode: resp.StatusCode, Duration: time.Since(start), ResponseSnippet: snippet(head.Bytes())}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		a.Err = statusError(resp.StatusCode)
	}
	return a
}

// request builds the signed POST, or says why d cannot be sent.
func (s *Sender) request(ctx context.Context, d Delivery) (*http.Request, error) {
	if err := ValidateURL(d.URL, s.cfg.AllowPrivate); err != nil {
		if errors.Is(err, ErrRefused) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %w", ErrInvalidDelivery, err)
	}
	if d.MessageID == "" {
		return nil, fmt.Errorf("%w: no message id", ErrInvalidDelivery)
	}
	if !json.Valid(d.Payload) {
		return nil, fmt.Errorf("%w: the payload is not JSON", ErrInvalidDelivery)
	}
	// The library accepts an empty key and would sign with it.
	if strings.TrimPrefix(d.Secret, SecretPrefix) == "" {
		return nil, fmt.Errorf("%w: no secret", ErrInvalidDelivery)
	}
	wh, err := standardwebhooks.NewWebhook(d.Secret)
	if err != nil {
		// The library's message would quote the base64 decoder, which
		// names the offending byte of the secret; say less.
		return nil, fmt.Errorf("%w: the secret is not whsec_ followed by base64", ErrInvalidDelivery)
	}
	ts := d.Timestamp
	if ts.IsZero() {
		ts = s.cfg.Now()
	}
	sig, err := wh.Sign(d.MessageID, ts, d.Payload)
	if err != nil {
		return nil, fmt.Errorf("%w: signing: %w", ErrInvalidDelivery, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(d.Payload))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidDelivery, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", s.cfg.UserAgent)
	req.Header.Set(standardwebhooks.HeaderWebhookID, d.MessageID)
	req.Header.Set(standardwebhooks.HeaderWebhookTimestamp, strconv.FormatInt(ts.Unix(), 10))
	req.Header.Set(standardwebhooks.HeaderWebhookSignature, sig)
	return req, nil
}

// failure classifies an error from the client: the caller's context ending
// is reported as such (the job is shutting down, not the receiver's
// fault), the attempt's own deadline as ErrTimeout.
func (s *Sender) failure(ctx, actx context.Context, err error) error {
	switch {
	case errors.Is(err, ErrRefused):
		return err
	case ctx.Err() != nil:
		return fmt.Errorf("webhook: delivery stopped: %w", context.Cause(ctx))
	case errors.Is(actx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%w after %s", ErrTimeout, s.cfg.Timeout)
	default:
		return fmt.Errorf("%w: %w", ErrNetwork, err)
	}
}

// statusError is the Err of a non-2xx answer.
func statusError(code int) error {
	if code >= 300 && code <= 399 {
		return fmt.Errorf("%w: HTTP %d (redirects are not followed)", ErrStatus, code)
	}
	return fmt.Errorf("%w: HTTP %d", ErrStatus, code)
}

// limitedWriter keeps the first max bytes written to it and accepts (and
// drops) the rest, so the body can be read on without being kept.
type limitedWriter struct {
	buf *bytes.Buffer
	max int
}

func (w *limitedWriter) Write(p []byte) (int, error) {
	if room := w.max - w.buf.Len(); room > 0 {
		w.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// snippet makes a response body's start safe to store and show: invalid
// UTF-8 (including a character cut at the byte limit) is dropped, control
// and format characters (bidi overrides, zero-width) become spaces, and
// white space runs become one space. The result is never longer than b.
func snippet(b []byte) string {
	s := strings.ToValidUTF8(string(b), "")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}
