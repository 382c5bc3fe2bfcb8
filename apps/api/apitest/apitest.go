// Package apitest starts the whole Vetted app for HTTP tests: the real
// composition root on the store VETTED_TEST_STORE names (memory when unset,
// sqlite for a database file in the test's temporary directory, postgres),
// behind an httptest server, with real JWTs, a
// recording mailbox, a settable clock and fake enrichment and incident
// sources (the real ones are tested in their adapters).
//
// The clock starts at Epoch moved by VETTED_TEST_CLOCK_SHIFT (see
// internal/testenv): a test dates what it checks from env.Clock.Start(), and
// the fixture worlds it starts (scantest, signed links, seeded rows) take
// env.Clock, never the real clock.
package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/adapters/auth"
	"github.com/vetted-dev/vetted/adapters/jobs"
	"github.com/vetted-dev/vetted/adapters/mailbox"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/core/usecases"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/internal/testenv"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/stores"
)

// Env is a running app.
type Env struct {
	URL       string
	App       *app.App
	Svc       *usecases.UseCases
	Store     stores.Store
	Mail      *mailbox.Mailbox
	Clock     *Clock
	Enricher  *Enricher
	Incidents *Incidents
	Client    *http.Client
}

// Option tunes New.
type Option func(*options)

type options struct {
	sqlite    bool
	realMail  bool
	realScan  bool
	store     func(t testing.TB) stores.Store
	rateLimit float64
	cfg       func(*app.Config)
	logger    *slog.Logger
	clock     *Clock
}

// WithClock runs the app on c (from NewTestClock), for a test that must
// give the clock to a fixture started before the app.
func WithClock(c *Clock) Option { return func(o *options) { o.clock = c } }

// WithStore uses the given store.
func WithStore(open func(t testing.TB) stores.Store) Option {
	return func(o *options) { o.store = open }
}

// OnSQLite runs the app on an SQLite file in the test's temporary
// directory, whatever VETTED_TEST_STORE says.
func OnSQLite() Option { return func(o *options) { o.sqlite = true } }

// WithConfiguredMailer sends mail with the mailer the configuration builds
// (SMTP when SMTPURL is set) instead of the recording mailbox.
func WithConfiguredMailer() Option { return func(o *options) { o.realMail = true } }

// WithConfiguredEnricher enriches with the enricher the configuration
// builds (the real scanner; point it at a fixture world with WithConfig)
// instead of the fake.
func WithConfiguredEnricher() Option { return func(o *options) { o.realScan = true } }

// WithRateLimit sets the per-caller rate limit (requests per second).
func WithRateLimit(rps float64) Option { return func(o *options) { o.rateLimit = rps } }

// WithLogger sends the app's logs (access log included) to l instead of
// discarding them.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// WithConfig edits the app configuration before Build.
func WithConfig(f func(*app.Config)) Option { return func(o *options) { o.cfg = f } }

// StoreOpener opens the store selected by VETTED_TEST_STORE; the PostgreSQL
// opener registers itself from a test-only import (see pgstore.go).
var postgresOpener func(t testing.TB) stores.Store

// SigningKey is the HMAC key of the apps New starts (mail links, blob URLs).
const SigningKey = "apitest-signing-key-0123456789"

// New starts an app; it stops when the test ends.
func New(t testing.TB, opts ...Option) *Env {
	t.Helper()
	o := options{rateLimit: -1}
	for _, f := range opts {
		f(&o)
	}
	storeKind := app.StoreMemory
	switch s := os.Getenv("VETTED_TEST_STORE"); {
	case o.sqlite:
		storeKind = app.StoreSQLite
	case s == "" || s == app.StoreMemory:
	case s == app.StoreSQLite:
		storeKind = s
	case s == app.StorePostgres:
		if o.store == nil {
			o.store = postgresOpener
		}
	default:
		t.Fatalf("VETTED_TEST_STORE=%q: want memory, sqlite or postgres", s)
	}
	if o.clock == nil {
		o.clock = NewTestClock(t)
	}
	e := &Env{Clock: o.clock, Enricher: &Enricher{}, Incidents: &Incidents{}, Mail: mailbox.New()}
	var h http.Handler = http.NotFoundHandler()
	var mu sync.RWMutex
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.RLock()
		hh := h
		mu.RUnlock()
		hh.ServeHTTP(w, r)
	}))
	e.URL = "http://" + srv.Listener.Addr().String()
	cfg := app.Config{HTTPAddr: srv.Listener.Addr().String(), PublicURL: e.URL, DataDir: t.TempDir(), Store: storeKind,
		AuthDevSecret: "apitest-secret-0123456789abcdef", SigningKey: SigningKey, RateLimit: o.rateLimit,
		WorkerConcurrency: 8}
	if o.cfg != nil {
		o.cfg(&cfg)
	}
	ov := app.Overrides{Clock: e.Clock, Mailer: e.Mail, Enricher: e.Enricher, Incidents: e.Incidents,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Jobs:   jobs.Options{MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond, MaxRetry: 3}}
	if o.store != nil {
		ov.Store = o.store(t)
	}
	if o.logger != nil {
		ov.Logger = o.logger
	}
	if o.realMail {
		ov.Mailer = nil
	}
	if o.realScan {
		ov.Enricher = nil
	}
	a, err := app.Build(context.Background(), cfg, ov)
	if err != nil {
		t.Fatalf("build app: %v", err)
	}
	e.App, e.Svc, e.Store = a, a.UseCases, a.Store
	mu.Lock()
	h = a.Server.Handler()
	mu.Unlock()
	srv.Start()
	e.Client = srv.Client()
	t.Cleanup(func() {
		srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = a.Close(ctx)
	})
	return e
}

// TokenOption tunes a token.
type TokenOption func(*auth.Claims)

// Admin puts the token in the platform Admins group.
func Admin() TokenOption {
	return func(c *auth.Claims) { c.Groups = append(c.Groups, ports.PlatformAdminGroup) }
}

// Verified marks the e-mail verified.
func Verified() TokenOption { return func(c *auth.Claims) { c.EmailVerified = true } }

// Named sets the name claim.
func Named(n string) TokenOption { return func(c *auth.Claims) { c.Name = n } }

// TTL sets the lifetime (negative for an expired token).
func TTL(d time.Duration) TokenOption { return func(c *auth.Claims) { c.TTL = d } }

// Token mints a real JWT for email (subject "sub-"+email).
func (e *Env) Token(email string, opts ...TokenOption) string {
	c := auth.Claims{Subject: "sub-" + strings.ToLower(email), Email: email}
	for _, f := range opts {
		f(&c)
	}
	tok, err := e.App.Dev.Mint(c)
	if err != nil {
		panic(err)
	}
	return tok
}

// Resp is an HTTP answer.
type Resp struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into v.
func (r *Resp) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// Map decodes the body as an object.
func (r *Resp) Map(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	r.JSON(t, &m)
	return m
}

// String is the body as text.
func (r *Resp) String() string { return string(r.Body) }

// Do sends a request; body is JSON-encoded unless it is a string or []byte.
// An empty token sends no Authorization header.
func (e *Env) Do(t testing.TB, method, path, token string, body any) *Resp {
	t.Helper()
	return e.DoHeader(t, method, path, token, body, nil)
}

// DoHeader is Do with more request headers (If-Match, ...).
func (e *Env) DoHeader(t testing.TB, method, path, token string, body any, header map[string]string) *Resp {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			t.Fatalf("encode body: %v", err)
		}
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequest(method, e.URL+path, rd)
	if err != nil {
		t.Fatalf("request: %v", err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := e.Client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return &Resp{Status: res.StatusCode, Header: res.Header, Body: b}
}

// Must asserts the status of a response and returns it.
func Must(t testing.TB, r *Resp, status int) *Resp {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d: %s", r.Status, status, r.Body)
	}
	return r
}

// Drain relays the outbox and runs jobs until nothing is left to do.
func (e *Env) Drain(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for i := 0; ; i++ {
		n, err := e.App.Relay.RunOnce(ctx)
		if err != nil {
			t.Fatalf("relay: %v", err)
		}
		if e.App.Jobs != nil {
			if err := e.App.Jobs.Wait(ctx); err != nil {
				t.Fatalf("jobs: %v", err)
			}
		}
		if n == 0 {
			var pending int
			_ = e.Store.View(ctx, func(ctx context.Context, tx stores.Tx) error {
				var err error
				pending, err = tx.Outbox().Pending(ctx)
				return err
			})
			if pending == 0 {
				return
			}
			if i > 1000 {
				t.Fatalf("outbox does not drain: %d pending", pending)
			}
			e.Clock.Advance(time.Minute) // let failed hand-overs become due
		}
	}
}

// Pending counts undelivered outbox messages.
func (e *Env) Pending(t testing.TB) int {
	t.Helper()
	var n int
	if err := e.Store.View(context.Background(), func(ctx context.Context, tx stores.Tx) error {
		var err error
		n, err = tx.Outbox().Pending(ctx)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

// NewAccount creates an organization through the API and returns its id.
func (e *Env) NewAccount(t testing.TB, name, owner string, admins ...string) string {
	t.Helper()
	r := Must(t, e.Do(t, http.MethodPost, "/accounts", e.Token("root@platform.test", Admin()), map[string]any{
		"account": name, "users": append([]string{owner}, admins...)}), http.StatusCreated)
	return r.Map(t)["id"].(string)
}

// AddMember adds a member with a role through the API, as owner.
func (e *Env) AddMember(t testing.TB, accountID, ownerToken, email, role string) {
	t.Helper()
	Must(t, e.Do(t, http.MethodPost, "/users?account-id="+accountID, ownerToken, map[string]any{
		"users": []map[string]string{{"email": email, "role": role}}}), http.StatusCreated)
}

// SaveVendors saves names into master-list and returns the answer.
func (e *Env) SaveVendors(t testing.TB, token, accountID string, names ...string) map[string]any {
	t.Helper()
	return Must(t, e.Do(t, http.MethodPost, "/vendor-lists?operation=save-vendors&account-id="+accountID, token,
		map[string]any{"vendors": names}), http.StatusOK).Map(t)
}

// Epoch is where the app's clock starts when VETTED_TEST_CLOCK_SHIFT is
// unset.
var Epoch = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

// Clock is a settable clock.
type Clock struct {
	mu         sync.Mutex
	start, now time.Time
}

// NewClock starts at t.
func NewClock(t time.Time) *Clock { return &Clock{start: t, now: t} }

// NewTestClock is the clock New gives the app: it starts at Epoch moved by
// VETTED_TEST_CLOCK_SHIFT.
func NewTestClock(t testing.TB) *Clock {
	t.Helper()
	return NewClock(testenv.ClockStart(t, Epoch))
}

// Start is where the clock started: the date a test's expectations are
// counted from.
func (c *Clock) Start() time.Time { return c.start }

// Date is the start moved by years, months and days (time.AddDate): a date
// a test expects or sends, counted from the start rather than written out,
// so that it moves with VETTED_TEST_CLOCK_SHIFT.
func (c *Clock) Date(years, months, days int) time.Time { return c.start.AddDate(years, months, days) }

// Now tells the time; it moves forward a microsecond per call so that
// timestamps stay ordered.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(time.Microsecond)
	return c.now
}

// Advance moves the clock.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// Enricher is a fake enricher: it fills company.company_description and
// marks each requested section done, and counts calls per vendor. For a
// vendor given to Fail it finds nothing: every requested section failed,
// as the real enricher records a vendor with no website.
type Enricher struct {
	mu    sync.Mutex
	calls map[string]int
	fail  map[string]string
}

// Fail makes every later enrichment of the vendor find nothing, each
// section failed with reason.
func (f *Enricher) Fail(vendorName, reason string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail == nil {
		f.fail = map[string]string{}
	}
	f.fail[vendorName] = reason
}

// Enrich implements vendors.Enricher.
func (f *Enricher) Enrich(_ context.Context, v vendors.Vendor, p vendors.Profile, secs []vendors.Section) (vendors.EnrichResult, error) {
	f.mu.Lock()
	if f.calls == nil {
		f.calls = map[string]int{}
	}
	f.calls[v.Name.String()]++
	reason, fails := f.fail[v.Name.String()]
	f.mu.Unlock()
	// A copy: the caller's profile is not the enricher's to change.
	enrichment := make(map[vendors.Section]vendors.SectionStatus, len(p.Enrichment)+len(secs))
	for k, st := range p.Enrichment {
		enrichment[k] = st
	}
	p.Enrichment = enrichment
	for _, s := range secs {
		st := vendors.SectionStatus{Status: "done", Source: "fake", UpdatedAt: p.UpdatedAt}
		if fails {
			st = vendors.SectionStatus{Status: "failed", Error: reason, UpdatedAt: p.UpdatedAt}
		}
		p.Enrichment[s] = st
	}
	if !fails {
		p.Company.CompanyDescription = "Enriched " + v.Name.String()
	}
	return vendors.EnrichResult{Profile: p}, nil
}

// Calls counts enrichments of a vendor.
func (f *Enricher) Calls(name string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[name]
}

// Incidents is a fake incident source keyed by vendor name.
type Incidents struct {
	mu  sync.Mutex
	byV map[string][]vendors.Incident
}

// Add makes the source return in for the vendor.
func (f *Incidents) Add(vendorName string, in vendors.Incident) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.byV == nil {
		f.byV = map[string][]vendors.Incident{}
	}
	f.byV[strings.ToLower(vendorName)] = append(f.byV[strings.ToLower(vendorName)], in)
}

// Fetch implements vendors.IncidentSource.
func (f *Incidents) Fetch(_ context.Context, v vendors.Vendor, since time.Time) ([]vendors.Incident, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []vendors.Incident
	for _, in := range f.byV[v.Name.Key()] {
		if in.PublishedAt.IsZero() || !in.PublishedAt.Before(since) {
			out = append(out, in)
		}
	}
	return out, nil
}
