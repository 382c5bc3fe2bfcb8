// Package app is Vetted's composition root: it reads the configuration from
// the environment and wires adapters into the core. Unset variables mean the
// embedded default: an SQLite store in the data directory, in-process jobs,
// local-disk blobs served by the app, a log mailbox and a dev token secret
// generated once and kept in the data directory.
package app

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/vetted-dev/vetted/adapters/auth"
	"github.com/vetted-dev/vetted/core/incidents"
)

// Config is every setting, read from the environment by FromEnv.
type Config struct {
	HTTPAddr  string
	PublicURL string
	DataDir   string
	// AdminAddr is the listen address of /metrics and /debug/pprof; empty
	// (the default) runs no admin listener.
	AdminAddr string
	// LogFormat is "json" or "text"; LogLevel the least level logged.
	LogFormat string
	LogLevel  slog.Level

	// Store is StoreSQLite, StoreMemory or StorePostgres (VETTED_STORE);
	// empty means PostgreSQL when DatabaseURL is set, else SQLite.
	Store           string
	DatabaseURL     string
	MigrateOnStart  bool
	RedisURL        string
	Invalidation    string // VETTED_INVALIDATION: InvalidationAuto or a mode by name
	S3Endpoint      string
	S3Bucket        string
	S3Region        string
	S3AccessKey     string
	S3SecretKey     string
	S3PathStyle     bool
	S3CreateBucket  bool
	SMTPURL         string
	MailFrom        string
	AuthDevSecret   string
	AuthJWKSURL     string
	AuthIssuer      string
	AuthAudience    string
	AuthGroupsClaim string
	// AuthJWKSMaxAge, when set, replaces the max-age the provider sends with
	// its key set (VETTED_AUTH_JWKS_MAX_AGE; between 30 s and an hour).
	AuthJWKSMaxAge time.Duration
	// OIDCIssuer and OIDCClientID let the web console sign people in with
	// an OpenID provider (authorization code + PKCE in the browser); the
	// API verifies the ID tokens it gets through the VETTED_AUTH_* settings.
	OIDCIssuer, OIDCClientID, OIDCScope string
	// ConsoleDevSignIn allows the console's dev sign-in form on an address
	// other than loopback (it mints tokens for anyone who reaches it).
	ConsoleDevSignIn bool
	SigningKey       string

	// S3PublicEndpoint is where browsers reach the evidence store when the
	// service reaches it at another address (VETTED_S3_PUBLIC_ENDPOINT, as
	// in deploy/compose.yaml): presigned URLs name it.
	S3PublicEndpoint string

	// FetchAllowPrivate lets enrichment fetch private and loopback
	// addresses (tests and closed networks only).
	FetchAllowPrivate bool
	// ScanResolver is host:port of the DNS server the security scan (and,
	// when set, every outbound fetch) asks instead of the system resolver.
	ScanResolver string
	// ScanRootCAs is a PEM file of roots trusted besides the system ones,
	// by the scan and by outbound fetches.
	ScanRootCAs string
	// ScanTimeout bounds each connection, handshake and fetch of a scan;
	// ScanDNSTimeout each DNS query attempt.
	ScanTimeout    time.Duration
	ScanDNSTimeout time.Duration
	// ScanConcurrency is how many security scans run at once per process;
	// website discoveries share these slots.
	ScanConcurrency int
	// DiscoverCountryTLDs are the country domains website discovery tries
	// after .com ("de", "co.uk"): the directory is global, so they are
	// the deployment's, not an account's.
	DiscoverCountryTLDs []string
	// IncidentFeedURL is a JSON incident feed URL template ({domain}, {name}).
	IncidentFeedURL string
	// IncidentSources are the platform-wide incident sources polled for
	// every directory vendor (VETTED_NEWS_FEEDS, VETTED_KEV_URL,
	// VETTED_BREACHES_URL, VETTED_SEC_FILINGS_URL; see incidentsources.go):
	// the public addresses by default on PostgreSQL, none by default on
	// the embedded store; "off" turns one off. Never nil.
	IncidentSources []incidents.Endpoint

	// CORSOrigins are the browser origins allowed to call the API
	// (VETTED_CORS_ORIGINS, comma-separated; "*" for any; empty for none).
	CORSOrigins []string

	// HTTPBodyTimeout bounds the reading of one request body
	// (VETTED_HTTP_BODY_TIMEOUT, 60 s): a slow client may take that long to
	// send an import or an upload.
	HTTPBodyTimeout time.Duration

	// RateLimit is requests per second per caller (VETTED_RATE_LIMIT, 100;
	// negative: off) and RateBurst how many may come at once
	// (VETTED_RATE_BURST, 200).
	RateLimit         float64
	RateBurst         int
	WorkerConcurrency int
	PollInterval      time.Duration
	ReenrichInterval  time.Duration
	// ReminderInterval is how often the review reminders job runs
	// (VETTED_REMINDER_INTERVAL, 1h; 0 turns reminders off).
	ReminderInterval time.Duration
	// ShutdownTimeout is how long a stopping process waits for its running
	// jobs and in-flight requests (VETTED_SHUTDOWN_TIMEOUT, 20 s); what is
	// not done by then is left for the next start.
	ShutdownTimeout time.Duration
}

// DefaultShutdownTimeout is VETTED_SHUTDOWN_TIMEOUT's default.
const DefaultShutdownTimeout = 20 * time.Second

// FromEnv reads the configuration from the process environment. Secrets
// left unset are made by Build (see secrets.go).
func FromEnv() (Config, error) { return FromLookup(os.LookupEnv) }

// FromLookup reads the configuration through lookup (os.LookupEnv in
// production, a map in tests). Every malformed value is reported, joined
// in one error wrapping ErrConfig; none falls back to its default.
func FromLookup(lookup func(string) (string, bool)) (Config, error) {
	e := &envReader{lookup: lookup}
	c := Config{
		HTTPAddr:            e.addr("VETTED_HTTP_ADDR", "127.0.0.1:8080"),
		PublicURL:           e.raw("VETTED_PUBLIC_URL"),
		DataDir:             e.str("VETTED_DATA_DIR", ".data"),
		Store:               e.raw("VETTED_STORE"),
		AdminAddr:           e.addr("VETTED_ADMIN_ADDR", ""),
		LogFormat:           e.oneOf("VETTED_LOG_FORMAT", "text", "text", "json"),
		LogLevel:            e.level("VETTED_LOG_LEVEL", slog.LevelInfo),
		DatabaseURL:         e.url("VETTED_DATABASE_URL", "postgres", "postgresql"),
		MigrateOnStart:      e.bool("VETTED_MIGRATE_ON_START", true),
		RedisURL:            e.url("VETTED_REDIS_URL", "redis", "rediss"),
		Invalidation:        e.oneOf("VETTED_INVALIDATION", InvalidationAuto, InvalidationAuto, InvalidationRedis, InvalidationPostgres, InvalidationLocal, InvalidationNone),
		S3Endpoint:          e.url("VETTED_S3_ENDPOINT", "http", "https"),
		S3PublicEndpoint:    e.url("VETTED_S3_PUBLIC_ENDPOINT", "http", "https"),
		S3Bucket:            e.str("VETTED_S3_BUCKET", "vetted-evidence"),
		S3Region:            e.str("VETTED_S3_REGION", "us-east-1"),
		S3AccessKey:         e.raw("VETTED_S3_ACCESS_KEY"),
		S3SecretKey:         e.raw("VETTED_S3_SECRET_KEY"),
		S3PathStyle:         e.bool("VETTED_S3_PATH_STYLE", true),
		S3CreateBucket:      e.bool("VETTED_S3_CREATE_BUCKET", false),
		SMTPURL:             e.url("VETTED_SMTP_URL", "smtp", "smtps"),
		MailFrom:            e.raw("VETTED_MAIL_FROM"),
		AuthDevSecret:       e.raw("VETTED_AUTH_DEV_SECRET"),
		AuthJWKSURL:         e.url("VETTED_AUTH_JWKS_URL", "https", "http"),
		AuthIssuer:          e.raw("VETTED_AUTH_ISSUER"),
		AuthAudience:        e.raw("VETTED_AUTH_AUDIENCE"),
		AuthGroupsClaim:     e.str("VETTED_AUTH_GROUPS_CLAIM", "cognito:groups"),
		AuthJWKSMaxAge:      e.duration("VETTED_AUTH_JWKS_MAX_AGE", 0),
		OIDCIssuer:          e.url("VETTED_OIDC_ISSUER", "https", "http"),
		OIDCClientID:        e.raw("VETTED_OIDC_CLIENT_ID"),
		OIDCScope:           e.str("VETTED_OIDC_SCOPE", "openid email profile"),
		ConsoleDevSignIn:    e.bool("VETTED_CONSOLE_DEV_SIGNIN", false),
		SigningKey:          e.raw("VETTED_SIGNING_KEY"),
		FetchAllowPrivate:   e.bool("VETTED_FETCH_ALLOW_PRIVATE", false),
		IncidentFeedURL:     e.raw("VETTED_INCIDENT_FEED_URL"),
		RateLimit:           e.float("VETTED_RATE_LIMIT", 100),
		RateBurst:           e.int("VETTED_RATE_BURST", 200, 1),
		WorkerConcurrency:   e.int("VETTED_WORKER_CONCURRENCY", 10, 1),
		PollInterval:        e.duration("VETTED_POLL_INTERVAL", 15*time.Minute),
		ReenrichInterval:    e.duration("VETTED_REENRICH_INTERVAL", 24*time.Hour),
		ReminderInterval:    e.duration("VETTED_REMINDER_INTERVAL", time.Hour),
		ShutdownTimeout:     e.positiveDuration("VETTED_SHUTDOWN_TIMEOUT", DefaultShutdownTimeout),
		CORSOrigins:         e.origins("VETTED_CORS_ORIGINS"),
		HTTPBodyTimeout:     e.positiveDuration("VETTED_HTTP_BODY_TIMEOUT", DefaultHTTPBodyTimeout),
		ScanResolver:        e.addr("VETTED_SCAN_RESOLVER", ""),
		ScanRootCAs:         e.raw("VETTED_SCAN_ROOT_CAS"),
		ScanTimeout:         e.duration("VETTED_SCAN_TIMEOUT", 10*time.Second),
		ScanDNSTimeout:      e.duration("VETTED_SCAN_DNS_TIMEOUT", 5*time.Second),
		ScanConcurrency:     e.int("VETTED_SCAN_CONCURRENCY", 8, 1),
		DiscoverCountryTLDs: e.words("VETTED_DISCOVER_COUNTRY_TLDS"),
	}
	if c.PublicURL == "" {
		c.PublicURL = publicURLFor(c.HTTPAddr)
	} else if u, err := checkPublicURL(c.PublicURL); err != nil {
		e.fail("VETTED_PUBLIC_URL", c.PublicURL, err.Error())
	} else {
		c.PublicURL = u
	}
	checkOTel(e)
	checkMailFrom(e, c)
	if d := c.AuthJWKSMaxAge; d != 0 && (d < MinJWKSMaxAge || d > MaxJWKSMaxAge) {
		e.fail("VETTED_AUTH_JWKS_MAX_AGE", e.raw("VETTED_AUTH_JWKS_MAX_AGE"), "must be between 30s and 1h")
	}
	if n := len(c.AuthDevSecret); n > 0 && n < auth.MinDevSecretLen {
		e.fail("VETTED_AUTH_DEV_SECRET", "(hidden)", fmt.Sprintf("shorter than %d characters", auth.MinDevSecretLen))
	}
	store, err := c.store()
	if err != nil {
		e.fail("VETTED_STORE", c.Store, err.Error())
	}
	c.Store = store
	c.IncidentSources = e.incidentSources(c.Embedded())
	if err := e.err(); err != nil {
		return c, err
	}
	return c, nil
}

// MinJWKSMaxAge and MaxJWKSMaxAge bound VETTED_AUTH_JWKS_MAX_AGE: shorter
// loads the provider for nothing, longer keeps a withdrawn signing key
// trusted for over an hour.
const (
	MinJWKSMaxAge = 30 * time.Second
	MaxJWKSMaxAge = time.Hour
)

// checkOTel validates the standard OpenTelemetry variables the tracer reads
// (the SDK itself would only log a bad value at run time).
func checkOTel(e *envReader) {
	for _, k := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"} {
		e.url(k, "http", "https")
	}
	if p := e.raw("OTEL_EXPORTER_OTLP_PROTOCOL"); p != "" && p != "http/protobuf" {
		e.fail("OTEL_EXPORTER_OTLP_PROTOCOL", p, "only http/protobuf is built in")
	}
	e.bool("OTEL_SDK_DISABLED", false)
}

// DefaultHTTPBodyTimeout is how long a request body may take to arrive
// unless VETTED_HTTP_BODY_TIMEOUT says otherwise: a 4 MB import at 64 KB/s.
const DefaultHTTPBodyTimeout = 60 * time.Second

// LoadServe reads the configuration of `vetted serve` through lookup: every
// setting FromLookup checks one by one, and then the rules on settings
// together (CheckServe). check-config calls it too, so that what it calls
// valid, serve starts, and what serve refuses, it refuses.
func LoadServe(lookup func(string) (string, bool)) (Config, error) {
	c, err := FromLookup(lookup)
	if err != nil {
		return c, err
	}
	return c, c.CheckServe()
}

// CheckServe reports the settings that are each valid but that serve
// cannot start with together, wrapping ErrConfig.
func (c Config) CheckServe() error {
	if err := c.devSecretRule(); err != nil {
		return fmt.Errorf("VETTED_AUTH_DEV_SECRET is unset: %w: %w", err, ErrConfig)
	}
	return nil
}

// devSecretRule says when a dev secret must be given explicitly rather
// than generated: a server that others can reach (a listen address that
// is not loopback) or that shares its users with other servers
// (PostgreSQL). Tokens from a JWKS provider need no dev secret.
func (c Config) devSecretRule() error {
	if c.AuthJWKSURL != "" || c.AuthDevSecret != "" {
		return nil
	}
	store, err := c.store()
	if err != nil {
		return err
	}
	switch {
	case store == StorePostgres:
		return errors.New("dev tokens on PostgreSQL need VETTED_AUTH_DEV_SECRET set explicitly (or VETTED_AUTH_JWKS_URL for real sign-in)")
	case !loopback(c.HTTPAddr):
		return fmt.Errorf("dev tokens on the non-loopback address %s need VETTED_AUTH_DEV_SECRET set explicitly (or VETTED_AUTH_JWKS_URL for real sign-in)", c.HTTPAddr)
	}
	return nil
}

// DescribeStore names the store serve opens with c, for its start line
// and check-config.
func (c Config) DescribeStore() string {
	store, _ := c.store()
	switch store {
	case StorePostgres:
		return "PostgreSQL " + Redact(c.DatabaseURL)
	case StoreMemory:
		return "memory (nothing is written to disk; data is lost on exit)"
	}
	return "SQLite at " + filepath.Join(c.DataDir, DatabaseFile)
}

// DescribeEvidence names the blob store serve opens with c.
func (c Config) DescribeEvidence() string {
	if c.S3Endpoint != "" {
		return "S3 " + c.S3Endpoint + " bucket " + c.S3Bucket
	}
	if store, _ := c.store(); store == StoreMemory {
		return "a temporary directory removed on exit (memory store)"
	}
	return "local disk under " + filepath.Join(c.DataDir, blobsDir)
}

// Warnings lists settings that are valid but probably not what an operator
// wants; check-config prints them and serve logs them.
func (c Config) Warnings(lookup func(string) (string, bool)) []string {
	var w []string
	if v, _ := lookup("VETTED_PUBLIC_URL"); v == "" && c.HTTPAddr != "" {
		if host, _, err := net.SplitHostPort(c.HTTPAddr); err == nil && unspecified(host) {
			w = append(w, fmt.Sprintf("VETTED_HTTP_ADDR=%s listens on all interfaces but VETTED_PUBLIC_URL is unset: links in mail will point at %s", c.HTTPAddr, c.PublicURL))
		}
	}
	if c.AuthJWKSURL == "" && c.AuthDevSecret == "" {
		w = append(w, "neither VETTED_AUTH_JWKS_URL nor VETTED_AUTH_DEV_SECRET is set: dev tokens are on, "+c.devSecretOrigin())
	}
	return append(w, c.WorkerWarnings(lookup)...)
}

// WorkerWarnings are the Warnings that concern `vetted worker`: it signs
// the links of the mail it sends, but listens for no request and verifies
// no token, so the listen address and the dev secret are not its concern.
// `vetted migrate` has none: it only changes the schema.
func (c Config) WorkerWarnings(lookup func(string) (string, bool)) []string {
	// On SQLite the generated key is kept in the data directory (secrets.go):
	// one process, and links survive its restarts.
	if v, _ := lookup("VETTED_SIGNING_KEY"); v == "" && c.Store != StoreSQLite {
		return []string{"VETTED_SIGNING_KEY is unset: mail links and blob URLs stop working when the process restarts, and replicas cannot verify each other's links"}
	}
	return nil
}

// The stores VETTED_STORE selects.
const (
	StoreSQLite   = "sqlite"
	StoreMemory   = "memory"
	StorePostgres = "postgres"
)

// store resolves Store: empty means PostgreSQL when DatabaseURL is set and
// SQLite otherwise; PostgreSQL needs DatabaseURL.
func (c Config) store() (string, error) {
	s := strings.ToLower(strings.TrimSpace(c.Store))
	switch s {
	case "":
		if c.DatabaseURL != "" {
			return StorePostgres, nil
		}
		return StoreSQLite, nil
	case StorePostgres:
		if c.DatabaseURL == "" {
			return "", fmt.Errorf("postgres needs VETTED_DATABASE_URL")
		}
		return s, nil
	case StoreSQLite, StoreMemory:
		return s, nil
	}
	return "", fmt.Errorf("want sqlite, memory or postgres")
}

// Embedded reports whether no external store is configured.
func (c Config) Embedded() bool {
	s, _ := c.store()
	return s != StorePostgres
}

// EnvVar documents one setting for --help and check-config.
type EnvVar struct {
	Name, Default, Meaning string
}

// EnvVars lists every setting FromEnv reads, in the order of the README.
func EnvVars() []EnvVar {
	return []EnvVar{
		{"VETTED_HTTP_ADDR", "127.0.0.1:8080", "API listen address"},
		{"VETTED_PUBLIC_URL", "http:// + listen address", "base URL of mail links and local blob URLs"},
		{"VETTED_DATA_DIR", ".data", "local data of the SQLite store: vetted.db, blobs, dev-secret, signing-key (the memory store writes nothing)"},
		{"VETTED_ADMIN_ADDR", "off", "listen address of /metrics and /debug/pprof"},
		{"VETTED_LOG_FORMAT", "text", "text or json"},
		{"VETTED_LOG_LEVEL", "info", "debug, info, warn or error"},
		{"VETTED_STORE", "sqlite (postgres with VETTED_DATABASE_URL)", "sqlite, memory or postgres"},
		{"VETTED_DATABASE_URL", "SQLite store", "PostgreSQL URL"},
		{"VETTED_MIGRATE_ON_START", "true", "apply PostgreSQL migrations when serve or worker starts"},
		{"VETTED_REDIS_URL", "in-process jobs", "Redis URL of the asynq job queue"},
		{"VETTED_S3_ENDPOINT", "local disk", "S3 endpoint of the evidence store"},
		{"VETTED_S3_PUBLIC_ENDPOINT", "VETTED_S3_ENDPOINT", "S3 endpoint browsers reach, when it differs (presigned upload and download URLs name it)"},
		{"VETTED_S3_BUCKET", "vetted-evidence", "S3 bucket"},
		{"VETTED_S3_REGION", "us-east-1", "S3 region"},
		{"VETTED_S3_ACCESS_KEY", "", "S3 access key"},
		{"VETTED_S3_SECRET_KEY", "", "S3 secret key"},
		{"VETTED_S3_PATH_STYLE", "true", "path-style S3 addressing"},
		{"VETTED_S3_CREATE_BUCKET", "false", "create the bucket at start"},
		{"VETTED_SMTP_URL", "log mailbox", "smtp://user:pass@host:port (smtps:// for 465)"},
		{"VETTED_MAIL_FROM", "the from of VETTED_SMTP_URL, else Vetted <noreply@vetted.local>", "sender of every mail (Vetted <vetted@example.com>)"},
		{"VETTED_AUTH_DEV_SECRET", "generated", "HS256 secret of dev tokens (required on PostgreSQL and on a non-loopback address unless VETTED_AUTH_JWKS_URL is set)"},
		{"VETTED_AUTH_JWKS_URL", "", "JWKS URL of production tokens"},
		{"VETTED_AUTH_ISSUER", "", "required token issuer"},
		{"VETTED_AUTH_AUDIENCE", "", "required token audience"},
		{"VETTED_AUTH_GROUPS_CLAIM", "cognito:groups", "claim holding the caller's groups (an array of strings; no other claim is read)"},
		{"VETTED_AUTH_JWKS_MAX_AGE", "the provider's max-age, within 1m-15m", "how long a fetched JWKS is used before it is fetched again (30s-1h)"},
		{"VETTED_OIDC_ISSUER", "", "OpenID provider the web console signs in with (authorization code + PKCE)"},
		{"VETTED_OIDC_CLIENT_ID", "", "the console's client id at that provider (set VETTED_AUTH_AUDIENCE to it)"},
		{"VETTED_OIDC_SCOPE", "openid email profile", "scopes the console asks for"},
		{"VETTED_CONSOLE_DEV_SIGNIN", "false", "offer the console's dev sign-in form on a non-loopback address (it mints tokens for anyone who reaches it)"},
		{"VETTED_SIGNING_KEY", "generated", "HMAC key of mail links and blob URLs"},
		{"VETTED_FETCH_ALLOW_PRIVATE", "false", "let enrichment and outbound webhooks reach private and loopback addresses on any port"},
		{"VETTED_INCIDENT_FEED_URL", "", "JSON incident feed URL template"},
		{"VETTED_NEWS_FEEDS", "off (embedded); on PostgreSQL " + strings.Join(DefaultNewsFeeds, ","), "security news feeds (RSS, Atom or JSON Feed), comma-separated, or off"},
		{"VETTED_KEV_URL", "off (embedded); on PostgreSQL " + DefaultKEVURL, "CISA Known Exploited Vulnerabilities catalog (JSON), or off"},
		{"VETTED_BREACHES_URL", "off (embedded); on PostgreSQL " + DefaultBreachesURL, "breach list in Have I Been Pwned's shape, or off"},
		{"VETTED_SEC_FILINGS_URL", "off (embedded); on PostgreSQL " + DefaultSECFilingsURL, "EDGAR Atom feed of current 8-K filings (item 1.05 counts), or off"},
		{"VETTED_RATE_LIMIT", "100", "requests per second per caller (negative: no limit)"},
		{"VETTED_RATE_BURST", "200", "requests a caller may send at once before the rate applies"},
		{"VETTED_WORKER_CONCURRENCY", "10", "jobs run at once (2 more run, for mail and alerts only)"},
		{"VETTED_POLL_INTERVAL", "15m", "incident polling period"},
		{"VETTED_REENRICH_INTERVAL", "24h", "re-enrichment period"},
		{"VETTED_REMINDER_INTERVAL", "1h", "how often review reminders due are looked for and mailed (0: no reminders)"},
		{"VETTED_SHUTDOWN_TIMEOUT", "20s", "how long a stopping serve or worker waits for running jobs and requests; the rest is left for the next start (a second signal stops at once)"},
		{"VETTED_HTTP_BODY_TIMEOUT", "60s", "time a client may take to send one request body (slow imports and uploads)"},
		{"VETTED_CORS_ORIGINS", "none", "browser origins allowed to call the API, comma-separated, or *"},
		{"VETTED_SCAN_RESOLVER", "system resolver", "host:port of the DNS server the security scanner queries"},
		{"VETTED_SCAN_ROOT_CAS", "", "PEM file of extra trusted roots for the scanner"},
		{"VETTED_SCAN_TIMEOUT", "10s", "time limit of each connection, TLS handshake and fetch of a security scan"},
		{"VETTED_SCAN_DNS_TIMEOUT", "5s", "time limit of each DNS query attempt of a security scan"},
		{"VETTED_SCAN_CONCURRENCY", "8", "vendors scanned at once"},
		{"VETTED_DISCOVER_COUNTRY_TLDS", "", "country domains website discovery tries after .com, comma-separated (de,co.uk)"},
		{"OTEL_EXPORTER_OTLP_ENDPOINT", "off", "OTLP/HTTP collector; set to export traces (other OTEL_* variables apply)"},
	}
}

// serveOnly are the settings of the HTTP listener and of sign-in, which
// the worker (no HTTP API) does not read.
var serveOnly = []string{"VETTED_HTTP_ADDR", "VETTED_HTTP_BODY_TIMEOUT", "VETTED_CORS_ORIGINS", "VETTED_RATE_LIMIT", "VETTED_RATE_BURST",
	"VETTED_AUTH_DEV_SECRET", "VETTED_AUTH_JWKS_URL", "VETTED_AUTH_JWKS_MAX_AGE", "VETTED_AUTH_ISSUER", "VETTED_AUTH_AUDIENCE", "VETTED_AUTH_GROUPS_CLAIM",
	"VETTED_OIDC_ISSUER", "VETTED_OIDC_CLIENT_ID", "VETTED_OIDC_SCOPE", "VETTED_CONSOLE_DEV_SIGNIN"}

// WorkerEnvVars lists the settings `vetted worker` reads: EnvVars without
// the HTTP listener's and sign-in's.
func WorkerEnvVars() []EnvVar {
	var out []EnvVar
	for _, v := range EnvVars() {
		if !slices.Contains(serveOnly, v.Name) {
			out = append(out, v)
		}
	}
	return out
}

// origins reads a comma-separated list of browser origins
// (scheme://host[:port], no path) or "*".
// words are the comma-separated words of k, blanks dropped.
func (e *envReader) words(k string) []string {
	var out []string
	for _, w := range strings.Split(e.raw(k), ",") {
		if w = strings.TrimSpace(w); w != "" {
			out = append(out, w)
		}
	}
	return out
}

func (e *envReader) origins(k string) []string {
	var out []string
	for _, o := range strings.Split(e.raw(k), ",") {
		o = strings.TrimSpace(o)
		if o == "" {
			continue
		}
		if o != "*" {
			u, err := url.Parse(o)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
				e.fail(k, o, "not an origin like https://app.example.com, nor *")
				continue
			}
			o = u.Scheme + "://" + u.Host
		}
		out = append(out, o)
	}
	return out
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}
