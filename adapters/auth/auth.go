// Package auth verifies bearer tokens (JWTs) and turns them into
// ports.Identity values. Two verifiers implement ports.TokenVerifier:
//
//   - Dev: HS256 tokens signed with a shared secret, for the embedded
//     profile, `vetted token` and tests. It can also mint tokens.
//   - JWKS: RS256/ES256 tokens from an OIDC provider (Cognito, Auth0 ...),
//     verified against the provider's published key set with issuer and
//     audience checks.
//
// Both refuse every algorithm other than their own before any key is looked
// at, so a token cannot choose how it is verified (no "alg: none", no HMAC
// keyed with an RSA public key). Every failure wraps core.ErrUnauthenticated
// with a short reason that is safe to log.
package auth

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jws"
	"github.com/lestrrat-go/jwx/v3/jwt"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/platform/ttlcache"
	"github.com/vetted-dev/vetted/ports"
)

// DefaultGroupsClaim is the claim read for group membership unless
// configured otherwise; Cognito's name. It is the only claim read: a
// "groups" claim beside another configured one does not count, since many
// providers let users or other applications shape it.
const DefaultGroupsClaim = "cognito:groups"

// DefaultSkew is the clock skew tolerated on exp, nbf and iat.
const DefaultSkew = 30 * time.Second

// maxTokenLen bounds the input before any parsing; real ID tokens are a
// few kilobytes.
const maxTokenLen = 16 << 10

// Claims is what Dev.Mint puts into a token.
type Claims struct {
	Subject       string
	Email         string
	Name          string
	EmailVerified bool
	Groups        []string
	// TTL is the token lifetime; zero means one hour.
	TTL time.Duration
}

// verifier holds what Dev and JWKS share: which algorithms are acceptable,
// where the key comes from, and which claims are checked.
type verifier struct {
	algs        []jwa.SignatureAlgorithm
	key         func(ctx context.Context, alg jwa.SignatureAlgorithm, kid string) (any, error)
	issuer      string
	audience    string
	groupsClaim string
	now         func() time.Time
	skew        time.Duration
	// verified remembers the identities of tokens verified lately, by the
	// token itself, until VerifiedTTL or the token's expiry, whichever
	// comes first: parsing and checking a JWT is the costliest step of a
	// read, and a client sends the same token again and again.
	verified *ttlcache.Map[string, ports.Identity]
	// log receives, once per issuer and kind, a groups claim that does
	// not count (debug level).
	log    *slog.Logger
	noteMu sync.Mutex
	noted  map[string]bool // issuer + problem, see noteGroups
	// changed, when set, is called before the memory of verified tokens is
	// read, so a JWKS verifier can forget them when its key set changed.
	changed func()
}

// VerifiedTTL is how long a verified token is taken at its word without
// being verified again (never past its expiry). JWKS forgets them all
// whenever it fetches the key set again, so a key withdrawn by the provider
// stops its tokens as soon as the new set is read.
const VerifiedTTL = time.Minute

// unauth builds an error wrapping core.ErrUnauthenticated.
func unauth(format string, args ...any) error {
	return core.Unauthenticated(format, args...)
}

// notCompact reports a character outside the compact serialization of a
// JWS (RFC 7515: base64url without padding, and the dots between the
// parts). The JWS parser also decodes standard base64, so without this a
// token re-encoded with "+" or "/" would pass as the one that was signed.
func notCompact(r rune) bool {
	return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
}

// verify checks token and extracts the identity.
func (v *verifier) verify(ctx context.Context, token string) (ports.Identity, error) {
	token = strings.TrimSpace(token)
	if token == "" {
		return ports.Identity{}, unauth("missing token")
	}
	if len(token) > maxTokenLen || strings.Count(token, ".") != 2 || strings.IndexFunc(token, notCompact) >= 0 {
		return ports.Identity{}, unauth("malformed token")
	}
	now := v.now()
	if v.changed != nil {
		v.changed()
	}
	if id, ok := v.verified.Get(token, now); ok {
		id.Groups = slices.Clone(id.Groups)
		return id, nil
	}
	msg, err := jws.ParseString(token)
	if err != nil || len(msg.Signatures()) != 1 {
		return ports.Identity{}, unauth("malformed token")
	}
	hdr := msg.Signatures()[0].ProtectedHeaders()
	alg, ok := hdr.Algorithm()
	if !ok || !v.allowed(alg) {
		return ports.Identity{}, unauth("algorithm %q not accepted", alg.String())
	}
	kid, _ := hdr.KeyID()
	key, err := v.key(ctx, alg, kid)
	if err != nil {
		return ports.Identity{}, err
	}
	opts := []jwt.ParseOption{
		jwt.WithKey(alg, key),
		jwt.WithValidate(true),
		jwt.WithClock(jwt.ClockFunc(v.now)),
		jwt.WithAcceptableSkew(v.skew),
		jwt.WithRequiredClaim(jwt.ExpirationKey),
		jwt.WithRequiredClaim(jwt.SubjectKey),
		jwt.WithRequiredClaim("email"),
	}
	if v.issuer != "" {
		opts = append(opts, jwt.WithIssuer(v.issuer))
	}
	if v.audience != "" {
		opts = append(opts, jwt.WithAudience(v.audience))
	}
	tok, err := jwt.ParseString(token, opts...)
	if err != nil {
		return ports.Identity{}, unauth("%s", reason(err))
	}
	id, err := v.identity(tok)
	if err != nil {
		return id, err
	}
	until := now.Add(VerifiedTTL)
	if exp, ok := tok.Expiration(); ok && exp.Before(until) {
		until = exp
	}
	kept := id
	kept.Groups = slices.Clone(id.Groups)
	v.verified.Put(token, kept, until, now)
	return id, nil
}

func (v *verifier) allowed(alg jwa.SignatureAlgorithm) bool {
	for _, a := range v.algs {
		if a == alg {
			return true
		}
	}
	return false
}

// reason turns a jwx error into a short, stable phrase.
func reason(err error) string {
	switch {
	case errors.Is(err, jwt.TokenExpiredError()):
		return "token expired"
	case errors.Is(err, jwt.TokenNotYetValidError()):
		return "token not yet valid"
	case errors.Is(err, jwt.InvalidIssuedAtError()):
		return "token issued in the future"
	case errors.Is(err, jwt.InvalidIssuerError()):
		return "wrong issuer"
	case errors.Is(err, jwt.InvalidAudienceError()):
		return "wrong audience"
	case errors.Is(err, jwt.MissingRequiredClaimError()):
		return "missing claim: " + missingClaim(err)
	case errors.Is(err, jws.VerifyError()), errors.Is(err, jws.VerificationError()):
		return "bad signature"
	case errors.Is(err, jwt.ValidateError()):
		return "invalid claims"
	}
	return "malformed token"
}

// missingClaim names the claim from jwx's message, which quotes it.
func missingClaim(err error) string {
	for _, c := range []string{jwt.ExpirationKey, jwt.SubjectKey, "email"} {
		if strings.Contains(err.Error(), `"`+c+`"`) {
			return c
		}
	}
	return "required claim"
}

// identity reads the Vetted claims from a verified token.
func (v *verifier) identity(tok jwt.Token) (ports.Identity, error) {
	sub, _ := tok.Subject()
	email, _ := stringClaim(tok, "email")
	if strings.TrimSpace(sub) == "" {
		return ports.Identity{}, unauth("missing claim: sub")
	}
	email = strings.ToLower(strings.TrimSpace(email))
	if email == "" || !strings.Contains(email, "@") {
		return ports.Identity{}, unauth("missing claim: email")
	}
	name, _ := stringClaim(tok, "name")
	id := ports.Identity{
		Subject:       sub,
		Email:         email,
		EmailVerified: boolClaim(tok, "email_verified"),
		Name:          strings.TrimSpace(name),
	}
	id.Groups = v.groups(tok)
	return id, nil
}

func rawClaim(tok jwt.Token, name string) any {
	var v any
	if err := tok.Get(name, &v); err != nil {
		return nil
	}
	return v
}

func stringClaim(tok jwt.Token, name string) (string, bool) {
	s, ok := rawClaim(tok, name).(string)
	return s, ok
}

// boolClaim accepts a JSON boolean or the string "true", which is how
// Cognito sends email_verified.
func boolClaim(tok jwt.Token, name string) bool {
	switch x := rawClaim(tok, name).(type) {
	case bool:
		return x
	case string:
		return strings.EqualFold(strings.TrimSpace(x), "true")
	}
	return false
}

// groups reads the configured groups claim: a JSON array of strings,
// taken exactly as sent (no trimming, no case folding), so that "Admins "
// is not the Admins group. Anything else (a plain string, an array holding
// another type, the claim absent while a "groups" claim is present) means
// no groups, noted once per issuer at debug level.
func (v *verifier) groups(tok jwt.Token) []string {
	raw := rawClaim(tok, v.groupsClaim)
	var out []string
	switch x := raw.(type) {
	case nil:
		if v.groupsClaim != "groups" && rawClaim(tok, "groups") != nil {
			v.noteGroups(tok, `a "groups" claim is ignored: the configured groups claim is `+v.groupsClaim)
		}
		return nil
	case []string:
		out = slices.Clone(x)
	case []any:
		out = make([]string, 0, len(x))
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				v.noteGroups(tok, "the groups claim "+v.groupsClaim+" holds a value that is not a string: no groups")
				return nil
			}
			out = append(out, s)
		}
	default:
		v.noteGroups(tok, "the groups claim "+v.groupsClaim+" is not an array of strings: no groups")
		return nil
	}
	return out
}

// maxNotes bounds the memory of noted groups problems (issuer x kind).
const maxNotes = 1000

// noteGroups logs a groups claim that does not count, once per issuer and
// problem.
func (v *verifier) noteGroups(tok jwt.Token, problem string) {
	if v.log == nil {
		return
	}
	iss, _ := tok.Issuer()
	key := iss + "\x00" + problem
	v.noteMu.Lock()
	first := !v.noted[key] && len(v.noted) < maxNotes
	if first {
		if v.noted == nil {
			v.noted = map[string]bool{}
		}
		v.noted[key] = true
	}
	v.noteMu.Unlock()
	if first {
		v.log.Debug("token groups not counted", "issuer", iss, "reason", problem)
	}
}
