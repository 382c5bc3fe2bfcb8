package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/vetted-dev/vetted/adapters/auth"
	"github.com/vetted-dev/vetted/adapters/dircache"
	"github.com/vetted-dev/vetted/adapters/jobs"
	"github.com/vetted-dev/vetted/adapters/localblob"
	"github.com/vetted-dev/vetted/adapters/mailbox"
	"github.com/vetted-dev/vetted/adapters/nameindex"
	"github.com/vetted-dev/vetted/apps/api"
	"github.com/vetted-dev/vetted/apps/obs"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/relay"
	"github.com/vetted-dev/vetted/core/platform/signedlink"
	"github.com/vetted-dev/vetted/core/usecases"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/memstore"
	"github.com/vetted-dev/vetted/ports/stores"
)

// Overrides replace adapters the configuration would build (tests inject
// fakes and a controllable clock here). Zero fields are built from Config.
type Overrides struct {
	Store    stores.Store
	Clock    ports.Clock
	Mailer   ports.Mailer
	Enricher vendors.Enricher
	// Websites is the website discovery; with an Enricher override and
	// no Websites, there is none.
	Websites  vendors.WebsiteFinder
	Incidents vendors.IncidentSource
	Logger    *slog.Logger
	// Jobs tunes the in-process job runner (tests use short backoffs).
	Jobs jobs.Options
}

// App is a wired Vetted process.
type App struct {
	Config Config
	// UseCases are the core's areas, wired over the adapters.
	UseCases *usecases.UseCases
	// Views is the cache of vendor views the directory reads through.
	Views  *dircache.Cache
	Server *api.Server
	Store  stores.Store
	Relay  *relay.Relay
	// Jobs is the in-process queue of the embedded default (nil on Redis).
	Jobs *jobs.Queue
	// Mailbox is the log mailbox of the embedded default (nil with SMTP).
	Mailbox *mailbox.Mailbox
	// Dev mints dev tokens (nil when tokens come from a JWKS provider).
	Dev *auth.Dev
	// EphemeralDevSecret is the dev secret when it lives in this process
	// only (the memory store, with no VETTED_AUTH_DEV_SECRET): serve prints
	// it so that vetted token can mint tokens for others.
	EphemeralDevSecret string
	// Metrics are the process's Prometheus collectors, served on the
	// admin listener (VETTED_ADMIN_ADDR).
	Metrics *obs.Metrics
	// IncidentFeeds are the reader, the endpoints and the metrics of the
	// platform-wide incident sources (incidentfeeds.go), for the poller.
	IncidentFeeds IncidentFeeds

	changes *changeWatch // the change feed and its subscriber
	log     *slog.Logger
	// clock is Overrides.Clock or the system clock: the scanner and every
	// outbound TLS connection judge certificates by it too.
	clock   ports.Clock
	closers []func(context.Context) error
	// warnings are what /readyz tells platform admins (a stale key set).
	warnings []api.ReadyWarning
	// ready are /readyz's checks besides the store's ping, by name.
	ready []api.ReadyCheck
}

// Build wires the adapters chosen by cfg (or given in ov) into the core.
func Build(ctx context.Context, cfg Config, ov Overrides) (*App, error) {
	return build(ctx, cfg, ov, true)
}

// build is Build; withAPI false (the worker) builds neither the HTTP app
// nor its token verifier, so the worker needs no sign-in settings.
func build(ctx context.Context, cfg Config, ov Overrides, withAPI bool) (*App, error) {
	a := &App{Config: cfg, log: ov.Logger, Metrics: obs.NewMetrics()}
	if a.log == nil {
		a.log = slog.Default()
	}
	ok := false
	defer func() {
		if !ok {
			_ = a.Close(context.Background())
		}
	}()
	clock := ov.Clock
	if clock == nil {
		clock = ports.SystemClock{}
	}
	a.clock = clock
	key, err := signingKey(cfg)
	if err != nil {
		return nil, err
	}
	signer, err := signedlink.New([]byte(key))
	if err != nil {
		return nil, err
	}
	if a.Store = ov.Store; a.Store == nil {
		if a.Store, err = a.openStore(ctx, cfg); err != nil {
			return nil, err
		}
	}
	blobs, blobHandler, err := a.openBlobs(ctx, cfg, signer, clock)
	if err != nil {
		return nil, err
	}
	mailer := ov.Mailer
	if mailer == nil {
		if mailer, err = a.openMailer(cfg); err != nil {
			return nil, err
		}
	}
	mailer = a.Metrics.Mailer(mailer)
	enricher, websites := ov.Enricher, ov.Websites
	if enricher == nil {
		if enricher, websites, err = newEnricher(a, cfg); err != nil {
			return nil, err
		}
	}
	enricher = a.Metrics.Enricher(enricher)
	hooks, err := newWebhookSender(a, cfg)
	if err != nil {
		return nil, err
	}
	incidents := ov.Incidents
	if incidents == nil {
		if incidents, err = newIncidentSource(a, cfg); err != nil {
			return nil, err
		}
	}
	if a.IncidentFeeds, err = newIncidentFeeds(a, cfg); err != nil {
		return nil, err
	}
	if a.changes, err = a.openChanges(cfg); err != nil {
		return nil, err
	}
	var rl *relay.Relay
	// The use cases write through the cache's watch, so that a write to
	// vendors makes this process's remembered views stale and is announced
	// to the other processes on the change feed.
	a.Views = dircache.New(vendors.StoreViews{Store: ports.Narrow[vendors.Tx](a.Store)}, dircache.Options{Clock: clock, Logger: a.log})
	a.UseCases, err = usecases.New(usecases.Deps{Store: a.Views.Watch(a.Store, a.changes.feed), Views: a.Views, Clock: clock, IDs: ports.UUIDv7{},
		Blobs: blobs, Mailer: mailer, Enricher: enricher, Websites: websites, Incidents: incidents, Signer: signer, Webhooks: hooks, PublicURL: cfg.PublicURL, Logger: a.log,
		IncidentSources: a.IncidentFeeds.Endpoints, IncidentReader: a.IncidentFeeds.Reader, NameIndex: nameindex.Build, IncidentMetrics: a.IncidentFeeds.Metrics,
		Notify: func() {
			if rl != nil {
				rl.Notify()
			}
		}})
	if err != nil {
		return nil, err
	}
	queue, ready, err := a.openQueue(ctx, cfg, ov.Jobs)
	if err != nil {
		return nil, err
	}
	if rl, err = relay.New(a.Store, queue, clock, relay.Options{Interval: time.Second, Logger: a.log}); err != nil {
		return nil, err
	}
	a.Relay = rl
	a.Metrics.WatchOutbox(a.Store, clock)
	if !withAPI {
		ok = true
		return a, nil
	}
	verifier, err := a.openVerifier(ctx, cfg, clock)
	if err != nil {
		return nil, err
	}
	opts := api.Options{Verifier: verifier, Clock: clock, Blobs: blobHandler, BlobsPath: localblob.MountPath, RateLimit: cfg.RateLimit,
		Burst: cfg.RateBurst, CORSOrigins: cfg.CORSOrigins, Logger: a.log, Metrics: a.Metrics, BodyReadTimeout: cfg.HTTPBodyTimeout}
	opts.Invalidation = a.changes.status
	if ready != nil {
		opts.Ready = append(opts.Ready, ready)
	}
	opts.Warnings = a.warnings
	opts.Checks = a.ready
	if opts.Console, err = a.openConsole(cfg); err != nil {
		return nil, err
	}
	if a.Server, err = api.New(a.UseCases, opts); err != nil {
		return nil, err
	}
	// What this process commits, its API's remembered answers forget at
	// once (the change feed tells the other processes).
	a.Views.OnCommit(a.Server.ForgetVendors)
	ok = true
	return a, nil
}

func (a *App) onClose(f func(context.Context) error) { a.closers = append(a.closers, f) }

// Close releases everything Build opened, last opened first.
func (a *App) Close(ctx context.Context) error {
	var errs []error
	for i := len(a.closers) - 1; i >= 0; i-- {
		errs = append(errs, a.closers[i](ctx))
	}
	a.closers = nil
	return errors.Join(errs...)
}

func (a *App) openStore(ctx context.Context, cfg Config) (stores.Store, error) {
	store, err := cfg.store()
	if err != nil {
		return nil, err
	}
	switch store {
	case StoreMemory:
		return memstore.New(), nil
	case StorePostgres:
		return openPostgres(ctx, a, cfg)
	}
	return openSQLite(ctx, a, cfg)
}

func (a *App) openBlobs(ctx context.Context, cfg Config, signer *signedlink.Signer, clock ports.Clock) (ports.BlobStore, http.Handler, error) {
	if cfg.S3Endpoint != "" {
		b, err := openS3(ctx, cfg)
		return b, nil, err
	}
	dir := filepath.Join(cfg.DataDir, blobsDir)
	if store, _ := cfg.store(); store == StoreMemory {
		// The memory store writes nothing to the data directory: its blobs
		// live in a private temporary directory, removed on Close.
		tmp, err := os.MkdirTemp("", "vetted-blobs-")
		if err != nil {
			return nil, nil, fmt.Errorf("blob directory: %w", err)
		}
		a.onClose(func(context.Context) error { return os.RemoveAll(tmp) })
		dir = tmp
	}
	ls, err := localblob.New(dir, cfg.PublicURL, signer, clock)
	if err != nil {
		return nil, nil, err
	}
	a.onClose(func(context.Context) error { return ls.Close() })
	return ls, ls.Handler(), nil
}

func (a *App) openMailer(cfg Config) (ports.Mailer, error) {
	if cfg.SMTPURL != "" {
		return openSMTP(cfg)
	}
	a.Mailbox = mailbox.NewLog(a.log)
	return a.Mailbox, nil
}

func (a *App) openVerifier(ctx context.Context, cfg Config, clock ports.Clock) (ports.TokenVerifier, error) {
	if cfg.AuthJWKSURL != "" {
		return a.openJWKS(ctx, cfg, clock)
	}
	secret, source, err := devSecret(cfg)
	if err != nil {
		return nil, err
	}
	dev, err := auth.NewDev([]byte(secret), auth.DevOptions{Issuer: cfg.AuthIssuer, Audience: cfg.AuthAudience, GroupsClaim: cfg.AuthGroupsClaim,
		Logger: a.log})
	if err != nil {
		return nil, err
	}
	a.log.Warn("dev tokens are on: whoever holds the secret can sign in as anyone; set VETTED_AUTH_JWKS_URL for real sign-in",
		"secret", source)
	a.Dev = dev
	if cfg.AuthDevSecret == "" && cfg.Store == StoreMemory {
		a.EphemeralDevSecret = secret
	}
	return dev, nil
}

// openQueue returns the job queue the relay feeds: asynq on Redis when
// configured, else the in-process runner with the service as handler.
func (a *App) openQueue(ctx context.Context, cfg Config, jo jobs.Options) (ports.JobQueue, func(context.Context) error, error) {
	if cfg.RedisURL != "" {
		return openAsynq(ctx, a, cfg)
	}
	if jo.Logger == nil {
		jo.Logger = a.log
	}
	if jo.Workers == 0 {
		jo.Workers = cfg.WorkerConcurrency
	}
	q, err := jobs.New(a.Metrics.Jobs(a.UseCases), jo)
	if err != nil {
		return nil, nil, err
	}
	a.Jobs = q
	// Closers run last registered first: the queue is closed (a no-op
	// after Serve's shutdown), then the relay marks what ended delivered
	// and releases what the queue did not run, so the next start runs it
	// at once.
	a.onClose(func(ctx context.Context) error {
		if a.Relay == nil {
			return nil
		}
		return a.Relay.Settle(ctx)
	})
	a.onClose(q.Close)
	return q, nil, nil
}

// Serve serves the API on ln, the admin listener when configured, and the
// outbox relay until ctx ends, then shuts down (see shutdown).
func (a *App) Serve(ctx context.Context, ln net.Listener) error {
	stopAdmin, err := a.serveAdmin(ctx)
	if err != nil {
		return err
	}
	defer stopAdmin()
	defer a.watchChanges(ctx)()
	srv := a.httpServer()
	relayCtx, stopRelay := context.WithCancel(ctx)
	defer stopRelay()
	relayDone := make(chan error, 1)
	go func() { relayDone <- a.Relay.Run(relayCtx) }()
	if a.Jobs != nil && a.Config.ReminderInterval > 0 {
		// The embedded default has no scheduler: the review reminders job
		// is enqueued here, at start and then every interval (on Redis the
		// worker's asynq scheduler does it).
		periodicDone := make(chan struct{})
		go func() {
			jobs.Periodic(relayCtx, a.Jobs, outbox.KindReviewReminders, a.Config.ReminderInterval, a.log)
			close(periodicDone)
		}()
		defer func() { stopRelay(); <-periodicDone }()
	}
	if a.Jobs != nil && a.Config.PollInterval > 0 && len(a.IncidentFeeds.Endpoints) > 0 {
		// So is the incident poll, once a platform-wide source is set
		// (VETTED_NEWS_FEEDS ...): the embedded default polls nothing
		// until the operator names a source.
		pollDone := make(chan struct{})
		go func() {
			jobs.Periodic(relayCtx, a.Jobs, outbox.KindPollIncidents, a.Config.PollInterval, a.log)
			close(pollDone)
		}()
		defer func() { stopRelay(); <-pollDone }()
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		stopRelay()
		<-relayDone
		return fmt.Errorf("http server: %w", err)
	case <-ctx.Done():
	}
	stopRelay()
	<-relayDone
	a.shutdown(srv)
	return nil
}

// shutdown stops a serving process: the relay has stopped handing jobs
// over; the HTTP server takes no new connection and the in-process runner
// starts no new job, and the requests and jobs running get
// VETTED_SHUTDOWN_TIMEOUT, together, to end. What is not done by then stays
// in the outbox for the next start (Close releases the in-process jobs
// left). A second signal ends the process at once (see cmd/vetted).
func (a *App) shutdown(srv *http.Server) {
	timeout := cmp.Or(a.Config.ShutdownTimeout, DefaultShutdownTimeout)
	a.log.Info("vetted stopping: waiting for running jobs and requests; a second signal stops at once", "timeout", timeout.String())
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	httpDone := make(chan error, 1)
	go func() { httpDone <- srv.Shutdown(ctx) }()
	if a.Jobs != nil {
		if err := a.Jobs.Close(ctx); err != nil {
			a.log.Warn("jobs still running at the shutdown deadline were stopped; they run again after the next start", "err", err)
		}
	}
	if err := <-httpDone; err != nil {
		a.log.Warn("requests still running at the shutdown deadline were cut", "err", err)
		_ = srv.Close()
	}
}

// httpServer is the API's server. Its read and write deadlines leave a
// request body VETTED_HTTP_BODY_TIMEOUT to arrive (huma's operations and
// the blob upload handler alike), and the answer a minute more.
func (a *App) httpServer() *http.Server {
	const header, answer = 10 * time.Second, 60 * time.Second
	body := a.Config.HTTPBodyTimeout
	if body <= 0 {
		body = DefaultHTTPBodyTimeout
	}
	return &http.Server{Handler: a.Server.Handler(), ReadHeaderTimeout: header, ReadTimeout: header + body,
		WriteTimeout: header + body + answer, IdleTimeout: 2 * time.Minute, ErrorLog: slog.NewLogLogger(a.log.Handler(), slog.LevelWarn)}
}

// serveAdmin starts the admin listener (/metrics, /debug/pprof) when
// VETTED_ADMIN_ADDR is set; the returned function stops it and waits.
func (a *App) serveAdmin(ctx context.Context) (func(), error) {
	if a.Config.AdminAddr == "" {
		return func() {}, nil
	}
	ln, err := net.Listen("tcp", a.Config.AdminAddr)
	if err != nil {
		return nil, fmt.Errorf("admin listener: %w", err)
	}
	a.log.Info("admin listener: /metrics and /debug/pprof/", "addr", ln.Addr().String())
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := obs.ServeAdmin(ctx, ln, obs.AdminHandler(a.Metrics, a.log)); err != nil {
			a.log.Error("admin listener stopped", "err", err)
		}
	}()
	return func() { cancel(); <-done }, nil
}
