// Package webhook delivers outbound webhooks the Standard Webhooks way
// (https://www.standardwebhooks.com): every request carries webhook-id,
// webhook-timestamp and webhook-signature (HMAC-SHA256 over
// "id.timestamp.payload", signed by the standard-webhooks library), so a
// receiver can check who sent it, refuse replays and drop duplicates.
//
// The package is the transport only: Send makes one attempt and says how it
// went, NextRetry says when to try again, ValidateURL vets a URL when it is
// registered and NewSecret makes the signing secret. Which events go where,
// the outbox, the delivery log and disabling an endpoint belong to the core
// and the job runner.
//
// Receivers are untrusted URLs, so every connection goes through the
// scanner's enrich.Fetcher dialer: the same SSRF rules hold (no private,
// loopback, link-local or metadata address, ports 80 and 443 only, unless
// the fetcher allows them), checked on the resolved address at connect
// time so DNS rebinding cannot get around a check made at registration.
package webhook

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"

	"github.com/vetted-dev/vetted/adapters/enrich"
)

// SecretPrefix starts every secret NewSecret makes, as the Standard
// Webhooks libraries expect ("whsec_" + base64 of the key).
const SecretPrefix = "whsec_"

// secretBytes is the key length. 24 random bytes (192 bits) is what Svix
// issues, and a multiple of 3 so the base64 text has no '=' padding that a
// receiver's hand-written decoder might trip on.
const secretBytes = 24

// NewSecret makes a new signing secret: "whsec_" followed by the standard
// base64 of 24 random bytes. It is shown to the account once and stored as
// given; Send signs with it.
func NewSecret() (string, error) {
	key := make([]byte, secretBytes)
	if _, err := rand.Read(key); err != nil {
		return "", fmt.Errorf("webhook: making a secret: %w", err)
	}
	return SecretPrefix + base64.StdEncoding.EncodeToString(key), nil
}

// ErrInvalidURL marks every error ValidateURL returns; the message says
// why, and a URL refused by the SSRF policy also matches ErrRefused.
var ErrInvalidURL = errors.New("invalid webhook URL")

// maxURLLength bounds a registered URL; longer ones are not real endpoints.
const maxURLLength = 2048

// urlCheckers are the scanner's fetchers whose URL check ValidateURL
// borrows: index 0 applies the production policy, index 1 the one tests and
// closed networks use (VETTED_FETCH_ALLOW_PRIVATE lifts the address and
// port rules together, as apps/app does for the scanner).
var urlCheckers = [2]*enrich.Fetcher{
	enrich.NewFetcher(enrich.FetcherConfig{}),
	enrich.NewFetcher(enrich.FetcherConfig{AllowPrivate: true, AllowAnyPort: true}),
}

// ValidateURL vets a webhook URL when it is registered: an absolute https
// URL (http too when allowPrivate, for receivers on loopback in tests), no
// user name or password, and under the scanner's SSRF rules an IP literal
// host must be public and the port 80 or 443 unless allowPrivate. A host
// name is not resolved here: what it points to can change, so the same
// rules are applied again to the resolved address every time Send dials.
func ValidateURL(raw string, allowPrivate bool) error {
	if len(raw) > maxURLLength {
		return fmt.Errorf("%w: longer than %d characters", ErrInvalidURL, maxURLLength)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%w: not a URL", ErrInvalidURL)
	}
	if u.Scheme != "https" && !(allowPrivate && u.Scheme == "http") {
		return fmt.Errorf("%w: the scheme must be https", ErrInvalidURL)
	}
	if u.Fragment != "" {
		return fmt.Errorf("%w: a fragment is never sent to the receiver", ErrInvalidURL)
	}
	return checkPolicy(u, allowPrivate)
}

// checkPolicy applies the scanner's URL check (scheme, host, credentials,
// port, IP literal) without connecting anywhere: the fetcher runs that check
// before it opens a connection, and the already-cancelled context stops the
// request right after it, before any name is resolved or address dialled.
// Borrowing the check keeps one SSRF policy for the scanner and webhooks.
func checkPolicy(u *url.URL, allowPrivate bool) error {
	f := urlCheckers[0]
	if allowPrivate {
		f = urlCheckers[1]
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := f.GetOnce(ctx, u.String())
	switch {
	case errors.Is(err, enrich.ErrRefused):
		return fmt.Errorf("%w: %w", ErrInvalidURL, err)
	case err == nil || errors.Is(err, context.Canceled):
		// The check passed and the request stopped before it left.
		return nil
	default:
		return fmt.Errorf("%w: %w", ErrInvalidURL, err)
	}
}
