package auth

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwt"
	"github.com/vetted-dev/vetted/core/platform/ttlcache"
	"github.com/vetted-dev/vetted/ports"
)

// MinDevSecretLen is the shortest HS256 secret NewDev accepts; shorter
// secrets can be brute-forced from a single token.
const MinDevSecretLen = 16

// DevOptions configures a Dev verifier. Every field is optional.
type DevOptions struct {
	// Issuer, when set, is written by Mint and required by Verify.
	Issuer string
	// Audience, when set, is written by Mint and required by Verify.
	Audience string
	// GroupsClaim names the groups claim; DefaultGroupsClaim when empty.
	// Mint writes groups there and Verify reads only it, as JWKS does.
	GroupsClaim string
	// Logger receives a groups claim that does not count (debug level);
	// nil logs nothing.
	Logger *slog.Logger
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Skew is the tolerated clock skew; DefaultSkew when zero.
	Skew time.Duration
}

// DevSubject is the subject of the dev token of an e-mail. It is the one
// rule for it, used by the admin token vetted serve prints and by vetted
// token, so that both mint the same user for the same e-mail in any case: a
// second subject for an e-mail would be refused as another sign-in.
func DevSubject(email string) string {
	return "dev|" + strings.ToLower(strings.TrimSpace(email))
}

// Dev verifies and mints HS256 tokens with a shared secret. It is meant
// for the embedded profile and tests, not for production identity.
type Dev struct {
	secret []byte
	opts   DevOptions
	v      verifier
}

var _ ports.TokenVerifier = (*Dev)(nil)

// NewDev returns a Dev verifier for secret (at least MinDevSecretLen bytes).
func NewDev(secret []byte, opts DevOptions) (*Dev, error) {
	if len(secret) < MinDevSecretLen {
		return nil, errors.New("auth: dev secret must be at least 16 bytes")
	}
	if opts.GroupsClaim == "" {
		opts.GroupsClaim = DefaultGroupsClaim
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Skew == 0 {
		opts.Skew = DefaultSkew
	}
	d := &Dev{secret: append([]byte(nil), secret...), opts: opts}
	d.v = verifier{
		verified: &ttlcache.Map[string, ports.Identity]{},
		algs:     []jwa.SignatureAlgorithm{jwa.HS256()},
		key: func(context.Context, jwa.SignatureAlgorithm, string) (any, error) {
			return d.secret, nil
		},
		issuer:      opts.Issuer,
		audience:    opts.Audience,
		groupsClaim: opts.GroupsClaim,
		log:         opts.Logger,
		now:         opts.Now,
		skew:        opts.Skew,
	}
	return d, nil
}

// Verify checks an HS256 token and returns the identity it carries.
func (d *Dev) Verify(ctx context.Context, token string) (ports.Identity, error) {
	return d.v.verify(ctx, token)
}

// Mint signs a token for c. Subject and Email are required; groups go into
// the configured groups claim.
func (d *Dev) Mint(c Claims) (string, error) {
	if strings.TrimSpace(c.Subject) == "" || strings.TrimSpace(c.Email) == "" {
		return "", errors.New("auth: mint needs a subject and an email")
	}
	ttl := c.TTL
	if ttl == 0 {
		ttl = time.Hour
	}
	now := d.opts.Now()
	b := jwt.NewBuilder().
		Subject(c.Subject).
		IssuedAt(now).
		Expiration(now.Add(ttl)).
		Claim("email", c.Email).
		Claim("email_verified", c.EmailVerified)
	if c.Name != "" {
		b = b.Claim("name", c.Name)
	}
	if len(c.Groups) > 0 {
		b = b.Claim(d.opts.GroupsClaim, c.Groups)
	}
	if d.opts.Issuer != "" {
		b = b.Issuer(d.opts.Issuer)
	}
	if d.opts.Audience != "" {
		b = b.Audience([]string{d.opts.Audience})
	}
	tok, err := b.Build()
	if err != nil {
		return "", err
	}
	signed, err := jwt.Sign(tok, jwt.WithKey(jwa.HS256(), d.secret))
	if err != nil {
		return "", err
	}
	return string(signed), nil
}
