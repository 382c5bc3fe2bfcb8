package obs

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/stores"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Metrics holds Vetted's Prometheus collectors on a registry of its own
// (not the global one), so that tests and two apps in one process do not
// collide.
type Metrics struct {
	Registry *prometheus.Registry

	httpDuration *prometheus.HistogramVec
	jobs         *prometheus.CounterVec
	jobDuration  *prometheus.HistogramVec
	mails        *prometheus.CounterVec
	enrichments  *prometheus.CounterVec
	jwksFetches  *prometheus.CounterVec
	// sourceFetches counts the reads of the platform-wide incident sources
	// (incidentmetrics.go).
	sourceFetches *prometheus.CounterVec
}

// NewMetrics registers the collectors, with the Go runtime and process
// collectors.
func NewMetrics() *Metrics {
	m := &Metrics{
		Registry: prometheus.NewRegistry(),
		httpDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "vetted_http_request_duration_seconds",
			Help:    "HTTP requests by route pattern, method and status.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route", "method", "status"}),
		jobs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "vetted_jobs_total",
			Help: "Jobs run, by kind and result (ok, error, permanent_error, not_yet).",
		}, []string{"kind", "result"}),
		jobDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "vetted_job_duration_seconds",
			Help:    "Job run time by kind.",
			Buckets: prometheus.ExponentialBuckets(0.005, 4, 9),
		}, []string{"kind"}),
		mails: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "vetted_mails_total",
			Help: "Mails handed to the transport, by result (sent, failed).",
		}, []string{"result"}),
		enrichments: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "vetted_enrichments_total",
			Help: "Vendor enrichments, by result: ok, partial (some requested sections failed), failed (none found anything, e.g. no website), skipped (every section skipped), error (the enricher could not run).",
		}, []string{"result"}),
		jwksFetches: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "vetted_auth_jwks_fetch_total",
			Help: "Fetches of the sign-in key set (JWKS), by result (ok, unreachable, bad_status, invalid).",
		}, []string{"result"}),
		sourceFetches: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "vetted_incident_source_fetch_total",
			Help: "Reads of the platform-wide incident sources, by source (news, kev, breach, filing) and result (ok, not_modified, error).",
		}, []string{"source", "result"}),
	}
	m.Registry.MustRegister(m.httpDuration, m.jobs, m.jobDuration, m.mails, m.enrichments, m.jwksFetches, m.sourceFetches,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// ObserveHTTP records one request. route is the matched pattern (never
// the raw path, whose ids would make a series per record).
func (m *Metrics) ObserveHTTP(route, method, status string, d time.Duration) {
	if m == nil {
		return
	}
	m.httpDuration.WithLabelValues(route, method, status).Observe(d.Seconds())
}

// WatchDB exports the connection pool statistics of db (open, in use,
// idle, waits) as go_sql_* series labelled db_name=name.
func (m *Metrics) WatchDB(db *sql.DB, name string) {
	if m == nil || db == nil {
		return
	}
	m.Registry.MustRegister(collectors.NewDBStatsCollector(db, name))
}

// WatchOutbox exports the outbox backlog (undelivered messages) and the age
// of its oldest message, read from the store at each scrape.
func (m *Metrics) WatchOutbox(store stores.Store, clock ports.Clock) {
	if m == nil || store == nil {
		return
	}
	m.Registry.MustRegister(&outboxCollector{store: store, clock: clock,
		backlog: prometheus.NewDesc("vetted_outbox_backlog", "Outbox messages not yet handed to the job queue.", nil, nil),
		age:     prometheus.NewDesc("vetted_outbox_oldest_age_seconds", "Age of the oldest undelivered outbox message (0 when none).", nil, nil),
		up:      prometheus.NewDesc("vetted_outbox_scrape_ok", "1 when the store answered the backlog query at this scrape.", nil, nil),
	})
}

type outboxCollector struct {
	store            stores.Store
	clock            ports.Clock
	backlog, age, up *prometheus.Desc
}

func (c *outboxCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.backlog
	ch <- c.age
	ch <- c.up
}

func (c *outboxCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var (
		n      int
		oldest time.Time
	)
	err := c.store.View(ctx, func(ctx context.Context, tx stores.Tx) error {
		var err error
		if n, err = tx.Outbox().Pending(ctx); err != nil {
			return err
		}
		oldest, err = tx.Outbox().Oldest(ctx)
		return err
	})
	if err != nil {
		// A store that is down must not fail the whole scrape: the other
		// series still tell the operator what is going on.
		ch <- prometheus.MustNewConstMetric(c.up, prometheus.GaugeValue, 0)
		return
	}
	age := 0.0
	if !oldest.IsZero() {
		age = max(c.clock.Now().Sub(oldest).Seconds(), 0)
	}
	ch <- prometheus.MustNewConstMetric(c.up, prometheus.GaugeValue, 1)
	ch <- prometheus.MustNewConstMetric(c.backlog, prometheus.GaugeValue, float64(n))
	ch <- prometheus.MustNewConstMetric(c.age, prometheus.GaugeValue, age)
}

// JWKSFetched counts one fetch of the sign-in key set by its result.
func (m *Metrics) JWKSFetched(result string) {
	if m == nil {
		return
	}
	m.jwksFetches.WithLabelValues(result).Inc()
}

// WatchJWKS exports the age of the sign-in key set in hand and the max-age
// it was fetched with, read from status at each scrape: an age past the
// max-age (by more than a fetch takes) means fetching it again fails.
func (m *Metrics) WatchJWKS(status func() (age, maxAge time.Duration)) {
	if m == nil || status == nil {
		return
	}
	m.Registry.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "vetted_auth_jwks_age_seconds",
			Help: "Age of the sign-in key set (JWKS) in hand: time since its last good fetch."},
			func() float64 { age, _ := status(); return age.Seconds() }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "vetted_auth_jwks_max_age_seconds",
			Help: "How long the key set in hand is meant to be used before it is fetched again (the provider's bounded max-age, or VETTED_AUTH_JWKS_MAX_AGE)."},
			func() float64 { _, maxAge := status(); return maxAge.Seconds() }))
}

// Jobs wraps a job handler: each job runs in a span of its own (a child of
// nothing: jobs outlive the request that queued them) and is counted by
// kind and result.
func (m *Metrics) Jobs(h ports.JobHandler) ports.JobHandler {
	return jobHandler{h: h, m: m, tracer: otel.Tracer(tracerName)}
}

type jobHandler struct {
	h      ports.JobHandler
	m      *Metrics
	tracer trace.Tracer
}

func (j jobHandler) Handle(ctx context.Context, kind outbox.Kind, payload any) error {
	ctx, span := j.tracer.Start(ctx, "job "+string(kind), trace.WithSpanKind(trace.SpanKindConsumer),
		trace.WithAttributes(attribute.String("vetted.job.kind", string(kind)), attribute.String("messaging.system", "vetted")))
	defer span.End()
	ctx = WithLogger(ctx, Logger(ctx).With("job_kind", string(kind)))
	start := time.Now()
	err := j.h.Handle(ctx, kind, payload)
	result := "ok"
	switch {
	case errors.Is(err, ports.ErrPermanent):
		result = "permanent_error"
	case errors.Is(err, ports.ErrNotYet):
		result = "not_yet" // deferred, not failed: another run holds its mail
	case err != nil:
		result = "error"
	}
	if err != nil && result != "not_yet" {
		span.RecordError(err)
		span.SetStatus(codes.Error, result)
	}
	if j.m != nil {
		j.m.jobs.WithLabelValues(string(kind), result).Inc()
		j.m.jobDuration.WithLabelValues(string(kind)).Observe(time.Since(start).Seconds())
	}
	return err
}

// Mailer wraps a mailer to count mails sent and failed.
func (m *Metrics) Mailer(next ports.Mailer) ports.Mailer { return mailer{next: next, m: m} }

type mailer struct {
	next ports.Mailer
	m    *Metrics
}

func (t mailer) Send(ctx context.Context, mail mailtmpl.Mail) error {
	err := t.next.Send(ctx, mail)
	if t.m != nil {
		result := "sent"
		if err != nil {
			result = "failed"
		}
		t.m.mails.WithLabelValues(result).Inc()
	}
	return err
}

// Enricher wraps an enricher to count enrichments by their outcome over
// the requested sections (vendors.EnrichmentOutcome, the rule the job's
// status follows), or "error" when the enricher returned one.
func (m *Metrics) Enricher(next vendors.Enricher) vendors.Enricher { return enricher{next: next, m: m} }

type enricher struct {
	next vendors.Enricher
	m    *Metrics
}

func (e enricher) Enrich(ctx context.Context, v vendors.Vendor, p vendors.Profile, secs []vendors.Section) (vendors.EnrichResult, error) {
	res, err := e.next.Enrich(ctx, v, p, secs)
	if e.m != nil {
		result := "error"
		if err == nil {
			result, _ = vendors.EnrichmentOutcome(secs, res.Profile.Enrichment)
		}
		e.m.enrichments.WithLabelValues(result).Inc()
	}
	return res, err
}
