// Package signedlink makes and checks HMAC-signed, expiring tokens for links in
// e-mail (subscriber confirmation, unsubscribe) and for blob URLs served by
// the app itself.
package signedlink

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strconv"
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

// claims is what a token carries.
type claims struct {
	Purpose string
	Subject string
	Expires int64 // Unix seconds
}

// A token's body is the JSON object {"p": purpose, "s": subject, "e":
// expiry}. Links already mailed carry it for months, so its keys are
// written and read here one by one rather than left to struct tags: the
// format cannot change with a Go name.
func (c claims) encode() []byte {
	p, _ := json.Marshal(c.Purpose) // a string always encodes
	s, _ := json.Marshal(c.Subject)
	b := make([]byte, 0, len(p)+len(s)+40)
	b = append(append(b, `{"p":`...), p...)
	b = append(append(b, `,"s":`...), s...)
	b = strconv.AppendInt(append(b, `,"e":`...), c.Expires, 10)
	return append(b, '}')
}

// decodeClaims reads a token's body; a member that is absent stays zero.
func decodeClaims(body []byte) (claims, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(body, &doc); err != nil {
		return claims{}, err
	}
	var c claims
	for key, dst := range map[string]any{"p": &c.Purpose, "s": &c.Subject, "e": &c.Expires} {
		if v, ok := doc[key]; ok {
			if err := json.Unmarshal(v, dst); err != nil {
				return claims{}, err
			}
		}
	}
	return c, nil
}

// Sign returns a URL-safe token for purpose and subject, valid until exp.
func (s *Signer) Sign(purpose, subject string, exp time.Time) string {
	b := base64.RawURLEncoding.EncodeToString(claims{Purpose: purpose, Subject: subject, Expires: exp.Unix()}.encode())
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
	c, err := decodeClaims(raw)
	if err != nil || c.Purpose != purpose {
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
