package app

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log/slog"
	"os"

	asynqadapter "github.com/vetted-dev/vetted/adapters/asynq"
	"github.com/vetted-dev/vetted/adapters/enrich"
	"github.com/vetted-dev/vetted/adapters/feeds"
	"github.com/vetted-dev/vetted/adapters/s3"
	"github.com/vetted-dev/vetted/adapters/smtp"
	"github.com/vetted-dev/vetted/adapters/webhook"
	"github.com/vetted-dev/vetted/apps/worker"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/core/webhooks"
	"github.com/vetted-dev/vetted/ports"
)

func openS3(ctx context.Context, cfg Config) (ports.BlobStore, error) {
	return s3.New(ctx, s3.Config{Endpoint: cfg.S3Endpoint, PublicEndpoint: cfg.S3PublicEndpoint, Region: cfg.S3Region, Bucket: cfg.S3Bucket, AccessKey: cfg.S3AccessKey,
		SecretKey: cfg.S3SecretKey, PathStyle: cfg.S3PathStyle, CreateBucket: cfg.S3CreateBucket})
}

func openSMTP(cfg Config) (ports.Mailer, error) {
	u, err := smtpURLWithFrom(cfg.SMTPURL, cfg.MailFrom)
	if err != nil {
		return nil, err
	}
	return smtp.New(u)
}

// openAsynq returns the asynq queue the relay feeds, and its readiness check.
func openAsynq(_ context.Context, a *App, cfg Config) (ports.JobQueue, func(context.Context) error, error) {
	// go-redis's own notices go to the process log, in its format.
	asynqadapter.SetRedisLogger(a.log)
	rdb, err := asynqadapter.NewClient(cfg.RedisURL)
	if err != nil {
		return nil, nil, err
	}
	a.onClose(func(context.Context) error { return rdb.Close() })
	q, err := asynqadapter.NewQueue(rdb, asynqadapter.QueueConfig{})
	if err != nil {
		return nil, nil, err
	}
	return q, q.Ping, nil
}

// scanDNS is the scanner's DNS client: VETTED_SCAN_RESOLVER, else the
// system's name servers.
func scanDNS(cfg Config) (*enrich.DNS, error) {
	return enrich.NewDNS(enrich.DNSConfig{Server: cfg.ScanResolver, Timeout: cfg.ScanDNSTimeout})
}

// rootCAs is the system pool plus VETTED_SCAN_ROOT_CAS; nil (the system
// pool) when that is unset.
func rootCAs(cfg Config) (*x509.CertPool, error) {
	if cfg.ScanRootCAs == "" {
		return nil, nil
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	pem, err := os.ReadFile(cfg.ScanRootCAs)
	if err != nil {
		return nil, fmt.Errorf("VETTED_SCAN_ROOT_CAS: %w", err)
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("VETTED_SCAN_ROOT_CAS: %s holds no PEM certificate", cfg.ScanRootCAs)
	}
	return pool, nil
}

// fetcher is the SSRF-safe client of every outbound fetch; it asks
// VETTED_SCAN_RESOLVER and trusts VETTED_SCAN_ROOT_CAS when they are set,
// gives each fetch VETTED_SCAN_TIMEOUT, as the scan's own fetches, and
// verifies certificates by the app's clock.
func (a *App) fetcher(cfg Config) (*enrich.Fetcher, error) {
	fc := enrich.FetcherConfig{AllowPrivate: cfg.FetchAllowPrivate, AllowAnyPort: cfg.FetchAllowPrivate, Timeout: cfg.ScanTimeout}
	if cfg.ScanResolver != "" {
		d, err := scanDNS(cfg)
		if err != nil {
			return nil, err
		}
		fc.Resolve = d.LookupHost
	}
	roots, err := rootCAs(cfg)
	if err != nil {
		return nil, err
	}
	fc.TLSConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12, Time: a.clock.Now}
	return enrich.NewFetcher(fc), nil
}

// newEnricher builds the enricher and the website discovery of vendors
// known by name only; they share the scanner, so discoveries and scans
// together stay within ScanConcurrency.
// Both run on the app's clock (Overrides.Clock in tests): a certificate is
// expiring, expired or valid by it, as every other date of the app is.
func newEnricher(a *App, cfg Config) (vendors.Enricher, vendors.WebsiteFinder, error) {
	f, err := a.fetcher(cfg)
	if err != nil {
		return nil, nil, err
	}
	d, err := scanDNS(cfg)
	if err != nil {
		return nil, nil, err
	}
	roots, err := rootCAs(cfg)
	if err != nil {
		return nil, nil, err
	}
	s := enrich.NewScanner(enrich.ScanConfig{DNS: d, RootCAs: roots, Timeout: cfg.ScanTimeout, Concurrency: cfg.ScanConcurrency,
		AllowPrivate: cfg.FetchAllowPrivate})
	finder := enrich.WebsiteFinder{D: enrich.NewDiscoverer(enrich.DiscoverConfig{Scanner: s, Now: a.clock.Now}),
		Prefs: enrich.DiscoverPrefs{CountryTLDs: cfg.DiscoverCountryTLDs}}
	return enrich.New(enrich.Config{Fetcher: f, Scanner: s, Now: a.clock.Now}), finder, nil
}

// newWebhookSender is the transport of outbound webhooks, dialling through
// the scanner's fetcher: the same address rules (no private, loopback or
// metadata address, ports 443 and 80 only, unless VETTED_FETCH_ALLOW_PRIVATE
// lifts both, as it does for the scanner), the same resolver and roots.
func newWebhookSender(a *App, cfg Config) (webhooks.WebhookSender, error) {
	f, err := a.fetcher(cfg)
	if err != nil {
		return nil, err
	}
	roots, err := rootCAs(cfg)
	if err != nil {
		return nil, err
	}
	var tc *tls.Config
	if roots != nil {
		tc = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12, Time: a.clock.Now}
	}
	// Webhook-Timestamp is the app's clock too, as every date it sends.
	s, err := webhook.NewSender(webhook.SenderConfig{Fetcher: f, AllowPrivate: cfg.FetchAllowPrivate, TLSConfig: tc, Now: a.clock.Now})
	if err != nil {
		return nil, err
	}
	return webhook.Port{Sender: s}, nil
}

// newIncidentSource reads vendors' status pages and, when configured, a
// JSON incident feed.
func newIncidentSource(a *App, cfg Config) (vendors.IncidentSource, error) {
	f, err := a.fetcher(cfg)
	if err != nil {
		return nil, err
	}
	sp, err := feeds.NewStatusPage(f, feeds.ProfileStatusURL(a.Store))
	if err != nil {
		return nil, err
	}
	sources := []vendors.IncidentSource{sp}
	if cfg.IncidentFeedURL != "" {
		jf, err := feeds.NewJSONFeed(f, cfg.IncidentFeedURL, "feed")
		if err != nil {
			return nil, err
		}
		sources = append(sources, jf)
	}
	return feeds.NewMulti(func(err error) { a.log.Warn("incident source failed", "err", err) }, sources...)
}

// RunWorker runs the asynq worker, its scheduler and an outbox relay until
// ctx ends. Handlers call the same use cases as the API.
func RunWorker(ctx context.Context, cfg Config, log *slog.Logger) error {
	a, err := build(ctx, cfg, Overrides{Logger: log}, false)
	if err != nil {
		return err
	}
	defer a.Close(context.Background())
	stopAdmin, err := a.serveAdmin(ctx)
	if err != nil {
		return err
	}
	defer stopAdmin()
	return worker.Run(ctx, worker.Config{RedisURL: cfg.RedisURL, Concurrency: cfg.WorkerConcurrency, ShutdownTimeout: cfg.ShutdownTimeout,
		PollIncidentsEvery: cfg.PollInterval, ReenrichStaleEvery: cfg.ReenrichInterval, ReviewRemindersEvery: cfg.ReminderInterval}, a.Metrics.Jobs(a.UseCases), a.Store, log)
}
