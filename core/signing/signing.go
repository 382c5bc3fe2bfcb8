// Package signing makes and checks HMAC-signed, expiring tokens for links in
// e-mail (subscriber confirmation, unsubscribe) and for blob URLs served by
// the app itself.
package signing

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/vetted-dev/vetted/core"
)

// Signer signs and verifies tokens with one key.
type Signer struct{ key []byte }

// New returns a signer; the key must be at least 16 bytes.
func New(key []byte) (*Signer, error) {
	if len(key) < 16 {
		return nil, errors.New("signing key must be at least 16 bytes")
	}
	return &Signer{key: append([]byte(nil), key...)}, nil
}

// Claims is what a token carries.
type Claims struct {
	Purpose string `json:"p"`
	Subject string `json:"s"`
	Expires int64  `json:"e"`
}

// Sign returns a URL-safe token for purpose and subject, valid until exp.
func (s *Signer) Sign(purpose, subject string, exp time.Time) string {
	body, _ := json.Marshal(Claims{Purpose: purpose, Subject: subject, Expires: exp.Unix()})
	b := base64.RawURLEncoding.EncodeToString(body)
	return b + "." + s.mac(b)
}

// Verify checks a token's signature, purpose and expiry and returns its subject.
func (s *Signer) Verify(purpose, token string, now time.Time) (string, error) {
	b, sig, ok := strings.Cut(token, ".")
	if !ok || !hmac.Equal([]byte(sig), []byte(s.mac(b))) {
		return "", core.Forbidden("the link's signature is not valid")
	}
	raw, err := base64.RawURLEncoding.DecodeString(b)
	if err != nil {
		return "", core.Forbidden("the link is malformed")
	}
	var c Claims
	if err := json.Unmarshal(raw, &c); err != nil || c.Purpose != purpose {
		return "", core.Forbidden("the link is not valid for this action")
	}
	if now.Unix() > c.Expires {
		return "", core.Forbidden("the link has expired")
	}
	return c.Subject, nil
}

// MAC signs arbitrary text (used for blob URLs, whose fields are in the query).
func (s *Signer) MAC(text string) string { return s.mac(text) }

func (s *Signer) mac(text string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(text))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}
