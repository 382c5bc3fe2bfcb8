package app

import (
	"cmp"
	"net/http"
	"net/url"
	"time"

	"github.com/vetted-dev/vetted/adapters/auth"
	"github.com/vetted-dev/vetted/apps/console"
	"github.com/vetted-dev/vetted/ports"
)

// devSignInTTL is the life of a token the console's dev form mints: a
// working day, like a session.
const devSignInTTL = 12 * time.Hour

// openConsole builds the web console. Its dev sign-in form mints a token
// for any e-mail to whoever reaches the page, so it is on only while dev
// tokens are and the server listens on loopback, or when
// VETTED_CONSOLE_DEV_SIGNIN says so for another address.
func (a *App) openConsole(cfg Config) (http.Handler, error) {
	opts := console.Options{GroupsClaim: cfg.AuthGroupsClaim, AdminGroup: ports.PlatformAdminGroup}
	if a.Dev != nil && (loopback(cfg.HTTPAddr) || cfg.ConsoleDevSignIn) {
		dev := a.Dev
		opts.MintDevToken = func(email string, admin bool) (string, error) {
			c := auth.Claims{Subject: auth.DevSubject(email), Email: email, EmailVerified: true, TTL: devSignInTTL}
			if admin {
				c.Groups = []string{ports.PlatformAdminGroup}
			}
			return dev.Mint(c)
		}
	}
	if cfg.OIDCIssuer != "" && cfg.OIDCClientID != "" {
		opts.OIDC = &console.OIDC{Issuer: cfg.OIDCIssuer, ClientID: cfg.OIDCClientID, Scope: cfg.OIDCScope}
	}
	if cfg.S3Endpoint != "" {
		opts.ConnectOrigins = append(opts.ConnectOrigins, evidenceOrigin(cfg))
	}
	return console.Handler(opts)
}

// evidenceOrigin is the origin of the presigned upload and download URLs,
// which the page calls: the public S3 endpoint when there is one, with the
// bucket in the host unless addressing is path-style.
func evidenceOrigin(cfg Config) string {
	u, err := url.Parse(cmp.Or(cfg.S3PublicEndpoint, cfg.S3Endpoint))
	if err != nil {
		return cfg.S3Endpoint // FromLookup refuses what does not parse
	}
	if !cfg.S3PathStyle {
		u.Host = cfg.S3Bucket + "." + u.Host
	}
	return u.Scheme + "://" + u.Host
}
