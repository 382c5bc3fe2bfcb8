// Package app is Vetted's composition root: it reads the configuration from
// the environment and wires adapters into the core. Unset variables mean the
// embedded default: an SQLite store in the data directory, in-process jobs,
// local-disk blobs served by the app, a log mailbox and a dev token secret
// generated once and kept in the data directory.
package app

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
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

	// Store is StoreSQLite, StoreMemory or StorePostgres (VETTED_STORE);
	// empty means PostgreSQL when DatabaseURL is set, else SQLite.
	Store           string
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
	// IncidentFeedURL is a JSON incident feed URL template ({domain}, {name}).
	IncidentFeedURL string

	RateLimit         float64
	WorkerConcurrency int
	PollInterval      time.Duration
	ReenrichInterval  time.Duration
}

// FromEnv reads the configuration. Secrets left unset are made by Build
// (see secrets.go).
func FromEnv() (Config, error) {
	c := Config{
		HTTPAddr:          env("VETTED_HTTP_ADDR", "127.0.0.1:8080"),
		PublicURL:         os.Getenv("VETTED_PUBLIC_URL"),
		DataDir:           env("VETTED_DATA_DIR", ".data"),
		Store:             os.Getenv("VETTED_STORE"),
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
	if c.PublicURL == "" {
		c.PublicURL = "http://" + c.HTTPAddr
	}
	if c.Store, err = c.store(); err != nil {
		return c, err
	}
	return c, nil
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
			return "", fmt.Errorf("VETTED_STORE=postgres needs VETTED_DATABASE_URL")
		}
		return s, nil
	case StoreSQLite, StoreMemory:
		return s, nil
	}
	return "", fmt.Errorf("VETTED_STORE=%q: want sqlite, memory or postgres", c.Store)
}

// Embedded reports whether no external store is configured.
func (c Config) Embedded() bool {
	s, _ := c.store()
	return s != StorePostgres
}

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

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}
