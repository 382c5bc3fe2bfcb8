// Package app is Vetted's composition root: it reads the configuration from
// the environment and wires adapters into the core. Unset variables mean the
// embedded default: memory store, in-process jobs, local-disk blobs served
// by the app, a log mailbox and a generated dev token secret.
package app

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// Config is every setting, read from the environment by FromEnv.
type Config struct {
	HTTPAddr  string
	PublicURL string
	DataDir   string

	DatabaseURL     string
	MigrateOnStart  bool
	RedisURL        string
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
	SigningKey      string

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
	// ScanConcurrency is how many security scans run at once per process.
	ScanConcurrency int
	// IncidentFeedURL is a JSON incident feed URL template ({domain}, {name}).
	IncidentFeedURL string

	// CORSOrigins are the browser origins allowed to call the API
	// (VETTED_CORS_ORIGINS, comma-separated; "*" for any; empty for none).
	CORSOrigins []string

	RateLimit         float64
	WorkerConcurrency int
	PollInterval      time.Duration
	ReenrichInterval  time.Duration
}

// FromEnv reads the configuration. Secrets that are unset in the embedded
// default are generated per process.
func FromEnv() (Config, error) {
	c := Config{
		HTTPAddr:          env("VETTED_HTTP_ADDR", "127.0.0.1:8080"),
		PublicURL:         os.Getenv("VETTED_PUBLIC_URL"),
		DataDir:           env("VETTED_DATA_DIR", ".data"),
		DatabaseURL:       os.Getenv("VETTED_DATABASE_URL"),
		MigrateOnStart:    envBool("VETTED_MIGRATE_ON_START", true),
		RedisURL:          os.Getenv("VETTED_REDIS_URL"),
		S3Endpoint:        os.Getenv("VETTED_S3_ENDPOINT"),
		S3Bucket:          env("VETTED_S3_BUCKET", "vetted-evidence"),
		S3Region:          env("VETTED_S3_REGION", "us-east-1"),
		S3AccessKey:       os.Getenv("VETTED_S3_ACCESS_KEY"),
		S3SecretKey:       os.Getenv("VETTED_S3_SECRET_KEY"),
		S3PathStyle:       envBool("VETTED_S3_PATH_STYLE", true),
		S3CreateBucket:    envBool("VETTED_S3_CREATE_BUCKET", false),
		SMTPURL:           os.Getenv("VETTED_SMTP_URL"),
		MailFrom:          os.Getenv("VETTED_MAIL_FROM"),
		AuthDevSecret:     os.Getenv("VETTED_AUTH_DEV_SECRET"),
		AuthJWKSURL:       os.Getenv("VETTED_AUTH_JWKS_URL"),
		AuthIssuer:        os.Getenv("VETTED_AUTH_ISSUER"),
		AuthAudience:      os.Getenv("VETTED_AUTH_AUDIENCE"),
		AuthGroupsClaim:   env("VETTED_AUTH_GROUPS_CLAIM", "cognito:groups"),
		SigningKey:        os.Getenv("VETTED_SIGNING_KEY"),
		FetchAllowPrivate: envBool("VETTED_FETCH_ALLOW_PRIVATE", false),
		IncidentFeedURL:   os.Getenv("VETTED_INCIDENT_FEED_URL"),
		ScanResolver:      strings.TrimSpace(os.Getenv("VETTED_SCAN_RESOLVER")),
		ScanRootCAs:       strings.TrimSpace(os.Getenv("VETTED_SCAN_ROOT_CAS")),
	}
	var err error
	if c.RateLimit, err = envFloat("VETTED_RATE_LIMIT", 20); err != nil {
		return c, err
	}
	if c.WorkerConcurrency, err = envInt("VETTED_WORKER_CONCURRENCY", 10); err != nil {
		return c, err
	}
	if c.PollInterval, err = envDuration("VETTED_POLL_INTERVAL", 15*time.Minute); err != nil {
		return c, err
	}
	if c.ReenrichInterval, err = envDuration("VETTED_REENRICH_INTERVAL", 24*time.Hour); err != nil {
		return c, err
	}
	if c.CORSOrigins, err = envOrigins("VETTED_CORS_ORIGINS"); err != nil {
		return c, err
	}
	if c.ScanTimeout, err = envDuration("VETTED_SCAN_TIMEOUT", 10*time.Second); err != nil {
		return c, err
	}
	if c.ScanDNSTimeout, err = envDuration("VETTED_SCAN_DNS_TIMEOUT", 5*time.Second); err != nil {
		return c, err
	}
	if c.ScanConcurrency, err = envInt("VETTED_SCAN_CONCURRENCY", 8); err != nil {
		return c, err
	}
	if c.PublicURL == "" {
		c.PublicURL = "http://" + c.HTTPAddr
	}
	if c.SigningKey == "" {
		c.SigningKey = randomHex(32)
	}
	if c.AuthJWKSURL == "" && c.AuthDevSecret == "" {
		c.AuthDevSecret = randomHex(32)
	}
	return c, nil
}

// Embedded reports whether no external store is configured.
func (c Config) Embedded() bool { return c.DatabaseURL == "" }

func env(k, def string) string {
	if v := strings.TrimSpace(os.Getenv(k)); v != "" {
		return v
	}
	return def
}

func envBool(k string, def bool) bool {
	v, err := strconv.ParseBool(strings.TrimSpace(os.Getenv(k)))
	if err != nil {
		return def
	}
	return v
}

func envInt(k string, def int) (int, error) {
	v := strings.TrimSpace(os.Getenv(k))
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", k, err)
	}
	return n, nil
}

func envFloat(k string, def float64) (float64, error) {
	v := strings.TrimSpace(os.Getenv(k))
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", k, err)
	}
	return n, nil
}

func envDuration(k string, def time.Duration) (time.Duration, error) {
	v := strings.TrimSpace(os.Getenv(k))
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", k, err)
	}
	return d, nil
}

// envOrigins reads a comma-separated list of browser origins
// (scheme://host[:port], no path) or "*".
func envOrigins(k string) ([]string, error) {
	var out []string
	for _, o := range strings.Split(os.Getenv(k), ",") {
		o = strings.TrimSpace(o)
		if o == "" {
			continue
		}
		if o != "*" {
			u, err := url.Parse(o)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
				return nil, fmt.Errorf("%s: %q is not an origin like https://app.example.com", k, o)
			}
			o = u.Scheme + "://" + u.Host
		}
		out = append(out, o)
	}
	return out, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}
