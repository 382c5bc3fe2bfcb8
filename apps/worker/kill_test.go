package worker_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
	asynqadapter "github.com/vetted-dev/vetted/adapters/asynq"
	"github.com/vetted-dev/vetted/adapters/asynq/asynqtest"
	"github.com/vetted-dev/vetted/adapters/smtp"
	"github.com/vetted-dev/vetted/adapters/smtp/smtptest"
	"github.com/vetted-dev/vetted/adapters/sqlstore"
	"github.com/vetted-dev/vetted/adapters/sqlstore/pgtest"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/apps/worker"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/internal/testenv"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/stores"
)

// The kill tests run the worker as a process of its own (this test binary
// again, see TestMain) on an SQLite file, a Redis database and an SMTP server
// the test started, kill it with SIGKILL at a chosen point of a mail job (or
// at a random moment), start it again, and count what each mail became:
// lost, delivered once, or duplicated.
//
// Two clocks are skipped rather than waited for. asynq gives a task whose
// worker died back to the queue once its lease (30 s) has been expired for
// 30 s, so the test expires the dead worker's leases in Redis itself. And
// the restarted worker's clock runs MailLease less a second ahead, so a
// claim the dead worker left is a second short of its expiry: the first run
// is deferred (ports.ErrNotYet) and the next one takes the claim over.

// Environment of the worker process.
const (
	childEnv  = "VETTED_KILLTEST_CHILD" // the data directory; set only in the worker process
	dbEnv     = "VETTED_KILLTEST_DB"    // a PostgreSQL URL: the store instead of SQLite in the data directory
	redisEnv  = "VETTED_KILLTEST_REDIS"
	smtpEnv   = "VETTED_KILLTEST_SMTP"
	pointEnv  = "VETTED_KILLTEST_POINT"  // where the worker stops and waits to be killed
	offsetEnv = "VETTED_KILLTEST_OFFSET" // how far ahead its clock runs
)

// Kill points inside the worker: the job has started and nothing is claimed;
// the key is claimed and the mail not handed to SMTP; the SMTP server
// accepted the mail; the key is marked sent and asynq does not know the job
// is done.
const (
	atJobStart = "job-start"
	atClaimed  = "claimed"
	atSent     = "sent"
	atJobDone  = "job-done"
)

// TestMain doubles as the worker process of the kill tests.
func TestMain(m *testing.M) {
	if dir := os.Getenv(childEnv); dir != "" {
		if err := runChild(dir); err != nil {
			fmt.Fprintln(os.Stderr, "kill test worker:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runChild is `vetted worker` as the composition root builds it, with the
// hooks of the kill point, until SIGINT.
func runChild(dir string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// A child whose test died is not left behind: stdin closes with it.
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(2)
	}()
	offset, err := time.ParseDuration(os.Getenv(offsetEnv))
	if err != nil {
		return err
	}
	point := os.Getenv(pointEnv)
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	m, err := smtp.New("smtp://" + os.Getenv(smtpEnv) + "?tls=none&from=vetted@kill.test")
	if err != nil {
		return err
	}
	store, dbURL := app.StoreSQLite, os.Getenv(dbEnv)
	if dbURL != "" {
		store = app.StorePostgres
	}
	a, err := app.Build(ctx, app.Config{Store: store, DataDir: dir, DatabaseURL: dbURL, RedisURL: os.Getenv(redisEnv),
		PublicURL: "http://127.0.0.1:1", SigningKey: "killtest-signing-key-0123456789", AuthDevSecret: "killtest-secret-0123456789abcdef"},
		app.Overrides{Clock: aheadClock(offset), Mailer: hookMailer{m, point}, Enricher: &apitest.Enricher{},
			Incidents: &apitest.Incidents{}, Logger: log})
	if err != nil {
		return err
	}
	defer a.Close(context.Background())
	// The test may stop it from now on: a stop during Build (its
	// migrations) would end it with Build's error instead of gracefully.
	fmt.Println("started")
	cfg := worker.Config{RedisURL: os.Getenv(redisEnv), Concurrency: 2, ShutdownTimeout: time.Second,
		RelayInterval: 20 * time.Millisecond, MinBackoff: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond,
		TaskCheckInterval: 20 * time.Millisecond, DelayedTaskCheckInterval: 50 * time.Millisecond, Clock: aheadClock(offset)}
	return worker.Run(ctx, cfg, hookHandler{a.UseCases, point}, a.Store, log)
}

// waitToBeKilled tells the test the worker reached point and stops there.
func waitToBeKilled(point string) {
	fmt.Printf("at %s\n", point)
	time.Sleep(time.Minute)
	os.Exit(3) // never killed: the test has failed already
}

type aheadClock time.Duration

func (c aheadClock) Now() time.Time { return time.Now().UTC().Add(time.Duration(c)) }

type hookMailer struct {
	next  ports.Mailer
	point string
}

// sentPoint lets one mail at a time reach the SMTP server when the worker
// is to stop after a send: the first one sent holds it until the process
// is killed, so a second mail job running beside it (concurrency 2) cannot
// also be sent and left unmarked, which would make the count depend on
// timing.
var sentPoint sync.Mutex

func (h hookMailer) Send(ctx context.Context, m mailtmpl.Mail) error {
	if h.point == atClaimed {
		waitToBeKilled(h.point)
	}
	if h.point == atSent {
		sentPoint.Lock()
		defer sentPoint.Unlock() // only when the send failed: after a send the process waits to be killed
	}
	err := h.next.Send(ctx, m)
	if err == nil && h.point == atSent {
		waitToBeKilled(h.point)
	}
	return err
}

type hookHandler struct {
	next  ports.JobHandler
	point string
}

func (h hookHandler) Handle(ctx context.Context, kind outbox.Kind, payload any) error {
	if h.point == atJobStart {
		waitToBeKilled(h.point)
	}
	err := h.next.Handle(ctx, kind, payload)
	if err == nil && h.point == atJobDone {
		waitToBeKilled(h.point)
	}
	return err
}

// killWorld is one scenario: a store (an SQLite file in a data directory,
// or a PostgreSQL database), a Redis database, an SMTP server, the mails
// seeded, and the worker process of the moment.
type killWorld struct {
	t *testing.T
	// now is the test's clock (seeded rows are dated by it); the worker
	// process runs its offset ahead of it.
	now   func() time.Time
	dir   string
	dbURL string // the PostgreSQL database; empty: SQLite in dir
	redis string
	rdb   *redis.Client
	smtp  *smtptest.Server
	store stores.Store
	keys  []string

	child  *exec.Cmd
	stdin  io.Closer
	lines  chan string
	stderr string // the worker's log file
}

func newKillWorld(t *testing.T) *killWorld {
	t.Helper()
	w := &killWorld{t: t, now: testenv.Clock(t), dir: t.TempDir(), redis: asynqtest.URL(t, 11), smtp: smtptest.Start(t)}
	w.rdb = asynqtest.Client(t, w.redis)
	t.Cleanup(func() { _ = w.rdb.Close() })
	s, err := sqlstore.OpenSQLite(t.Context(), filepath.Join(w.dir, app.DatabaseFile))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	if err := s.Migrate(t.Context()); err != nil {
		t.Fatal(err)
	}
	w.store = s
	return w
}

// newKillWorldOn is newKillWorld on the store named: "sqlite", or
// "postgres" (a migrated database of its own on the test server).
func newKillWorldOn(t *testing.T, store string) *killWorld {
	t.Helper()
	if store == "sqlite" {
		return newKillWorld(t)
	}
	dbURL := pgtest.NewMigratedDatabase(t)
	w := &killWorld{t: t, now: testenv.Clock(t), dir: t.TempDir(), dbURL: dbURL, redis: asynqtest.URL(t, 11), smtp: smtptest.Start(t)}
	w.rdb = asynqtest.Client(t, w.redis)
	t.Cleanup(func() { _ = w.rdb.Close() })
	s, err := sqlstore.OpenPostgres(t.Context(), dbURL, sqlstore.WithApplicationName("killtest"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	w.store = s
	return w
}

// seed writes n member mails to the outbox.
func (w *killWorld) seed(n int) {
	w.t.Helper()
	ms := make([]outbox.Message, n)
	for i := range ms {
		p := outbox.MemberMail{EventID: uuid.Must(uuid.NewV7()), AccountID: uuid.Must(uuid.NewV7()), AccountName: "Acme",
			Email: fmt.Sprintf("m%d@kill.test", len(w.keys)), Role: "member", Change: "added", By: "owner@kill.test"}
		ms[i] = outbox.New(uuid.Must(uuid.NewV7()), outbox.KindMemberMail, p, w.now())
		w.keys = append(w.keys, "member:"+p.EventID.String())
	}
	if err := w.store.InTx(w.t.Context(), func(ctx context.Context, tx stores.Tx) error { return tx.Outbox().Add(ctx, ms...) }); err != nil {
		w.t.Fatal(err)
	}
}

// start runs a worker process that stops at point (none if empty) with its
// clock offset ahead of the test's (w.now).
func (w *killWorld) start(point string, offset time.Duration) {
	w.t.Helper()
	shift, err := testenv.Shift()
	if err != nil {
		w.t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+w.dir, dbEnv+"="+w.dbURL, redisEnv+"="+w.redis, smtpEnv+"="+w.smtp.Addr(),
		pointEnv+"="+point, offsetEnv+"="+(shift+offset).String())
	w.stderr = filepath.Join(w.t.TempDir(), "worker.log")
	logFile, err := os.Create(w.stderr)
	if err != nil {
		w.t.Fatal(err)
	}
	defer logFile.Close()
	cmd.Stderr = logFile
	stdin, err := cmd.StdinPipe()
	if err != nil {
		w.t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		w.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	lines := make(chan string, 16)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	w.child, w.stdin, w.lines = cmd, stdin, lines
	w.t.Cleanup(func() { w.kill() })
	w.awaitLine("started")
}

// awaitPoint waits until the worker says it reached point.
func (w *killWorld) awaitPoint(point string) {
	w.t.Helper()
	w.awaitLine("at " + point)
}

// awaitLine waits until the worker writes want on its standard output.
func (w *killWorld) awaitLine(want string) {
	w.t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case line, ok := <-w.lines:
			if !ok {
				w.fatalf("the worker exited before saying %q", want)
			}
			if line == want {
				return
			}
		case <-timeout:
			w.fatalf("the worker did not say %q", want)
		}
	}
}

// kill sends SIGKILL to the worker and waits for it to die; a worker
// already gone is no error.
func (w *killWorld) kill() {
	if w.child == nil {
		return
	}
	_ = w.child.Process.Kill()
	_ = w.child.Wait()
	_ = w.stdin.Close()
	w.child = nil
}

// stop shuts the worker down gracefully.
func (w *killWorld) stop() {
	w.t.Helper()
	if err := w.child.Process.Signal(os.Interrupt); err != nil {
		w.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- w.child.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			w.fatalf("worker stopped with %v", err)
		}
	case <-time.After(15 * time.Second):
		w.fatalf("worker did not stop")
	}
	_ = w.stdin.Close()
	w.child = nil
}

// expireLeases does to the dead worker's tasks what 60 s would: asynq's
// recoverer, which runs when a worker starts, takes a task back once its
// lease (a score in Redis) is 30 s past.
func (w *killWorld) expireLeases() {
	w.t.Helper()
	ctx := w.t.Context()
	for _, q := range asynqadapter.Queues() {
		key := "asynq:{" + q + "}:lease"
		ids, err := w.rdb.ZRange(ctx, key, 0, -1).Result()
		if err != nil {
			w.t.Fatal(err)
		}
		for _, id := range ids {
			if err := w.rdb.ZAdd(ctx, key, redis.Z{Score: 0, Member: id}).Err(); err != nil {
				w.t.Fatal(err)
			}
		}
	}
}

// awaitDone waits until the outbox is empty and every task has completed.
func (w *killWorld) awaitDone() {
	w.t.Helper()
	insp := asynqadapter.NewInspector(w.rdb)
	deadline := time.Now().Add(30 * time.Second)
	for {
		var sum asynqadapter.Counts
		for _, q := range asynqadapter.Queues() {
			c, err := insp.Counts(q)
			if err != nil {
				w.t.Fatal(err)
			}
			sum.Pending += c.Pending + c.Active + c.Scheduled + c.Retry
			sum.Archived += c.Archived
			sum.Completed += c.Completed
		}
		if sum.Archived > 0 {
			w.fatalf("%d tasks archived (failed for good)", sum.Archived)
		}
		if sum.Pending == 0 && sum.Completed == len(w.keys) && pending(w.t, w.store) == 0 {
			return
		}
		if time.Now().After(deadline) {
			w.fatalf("not done after 30 s: %d tasks completed of %d, %d still queued", sum.Completed, len(w.keys), sum.Pending)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// fatalf fails the test with the worker's log.
func (w *killWorld) fatalf(format string, args ...any) {
	w.t.Helper()
	log, _ := os.ReadFile(w.stderr)
	w.t.Fatalf("%s\nworker log:\n%s", fmt.Sprintf(format, args...), log)
}

// tally is what became of the mails of one or more scenarios.
type tally struct{ runs, mails, lost, once, duplicated int }

func (a *tally) add(b tally) {
	a.runs, a.mails, a.lost, a.once, a.duplicated = a.runs+b.runs, a.mails+b.mails, a.lost+b.lost, a.once+b.once, a.duplicated+b.duplicated
}

func (a tally) String() string {
	return fmt.Sprintf("%3d runs %4d mails: %3d lost, %4d delivered once, %3d duplicated", a.runs, a.mails, a.lost, a.once, a.duplicated)
}

// count says what became of every mail, by the Message-ID its key gives
// it; a mail the server got that is none of them fails the test.
func (w *killWorld) count() tally {
	w.t.Helper()
	got := w.smtp.CountByMessageID()
	out := tally{runs: 1, mails: len(w.keys)}
	seen := 0
	for _, k := range w.keys {
		n := got[smtp.MessageID(k)]
		seen += n
		switch {
		case n == 0:
			out.lost++
		case n == 1:
			out.once++
		default:
			out.duplicated++
		}
	}
	if total := len(w.smtp.Messages()); total != seen {
		w.t.Fatalf("the server got %d mails, %d of them with a known Message-ID", total, seen)
	}
	return out
}

// killAt runs one mail, kills the worker at point, restarts it, and says
// what became of the mail.
func killAt(t *testing.T, point string) tally {
	w := newKillWorld(t)
	w.seed(1)
	if point == "smtp-data" {
		// The server has the whole mail; its answer waits until the
		// sender is dead.
		reached, killed := make(chan struct{}), make(chan struct{})
		var once sync.Once
		w.smtp.OnData(func(smtptest.Message) {
			once.Do(func() {
				close(reached)
				<-killed
			})
		})
		w.start("", 0)
		select {
		case <-reached:
		case <-time.After(30 * time.Second):
			w.fatalf("the mail never reached the server")
		}
		w.kill()
		close(killed)
		w.smtp.OnData(nil)
	} else {
		w.start(point, 0)
		w.awaitPoint(point)
		w.kill()
	}
	return w.restartAndCount()
}

// killAnywhere runs n mails and kills the worker at a random moment: after
// a random number of them reached the server, and up to 5 ms more.
func killAnywhere(t *testing.T, rng *rand.Rand, n int) tally {
	w := newKillWorld(t)
	w.seed(n)
	w.start("", 0)
	k := rng.IntN(n)
	deadline := time.Now().Add(30 * time.Second)
	for len(w.smtp.Messages()) < k {
		if time.Now().After(deadline) {
			w.fatalf("%d mails never reached the server", k)
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(time.Duration(rng.IntN(5_000)) * time.Microsecond)
	w.kill()
	return w.restartAndCount()
}

func (w *killWorld) restartAndCount() tally {
	w.expireLeases()
	w.start("", mailonce.MailLease-time.Second)
	w.awaitDone()
	w.stop()
	return w.count()
}

func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a positive number", name, v)
	}
	return n
}

// TestMailSurvivesAKilledWorker kills the worker with SIGKILL at each point
// of a mail job and at random moments, restarts it, and checks that no mail
// is lost: killed before the send, the job runs again and its mail goes out
// once; killed after the SMTP server took the mail and before the key was
// marked sent, the mail goes out twice with one Message-ID, the duplicate
// receivers drop. VETTED_KILLTEST_REPEAT repeats each point, and
// VETTED_KILLTEST_ROUNDS sets the random rounds (20 mails each), to measure.
//
// Not parallel: it borrows Redis database 11 before the parallel tests of
// this package start (see asynqtest).
func TestMailSurvivesAKilledWorker(t *testing.T) {
	// The verdicts below add up what the subtests saw: without Redis every
	// subtest would skip and the sums would compare zeros, so the whole
	// test skips (or, under CI=true, fails) here, before any subtest.
	asynqtest.BaseURL(t)
	repeat := envInt(t, "VETTED_KILLTEST_REPEAT", 1)
	rounds := envInt(t, "VETTED_KILLTEST_ROUNDS", 2)
	var report []string
	for _, p := range []struct {
		point string
		each  int // mails delivered per mail
	}{
		{atJobStart, 1}, {atClaimed, 1}, {"smtp-data", 2}, {atSent, 2}, {atJobDone, 1},
	} {
		var sum tally
		t.Run(p.point, func(t *testing.T) {
			for i := range repeat {
				t.Run(strconv.Itoa(i), func(t *testing.T) { sum.add(killAt(t, p.point)) })
			}
			want := tally{runs: repeat, mails: repeat}
			if p.each == 1 {
				want.once = repeat
			} else {
				want.duplicated = repeat
			}
			if sum != want {
				t.Errorf("killed at %s: %v; want %v", p.point, sum, want)
			}
		})
		report = append(report, fmt.Sprintf("%-10s %v", p.point, sum))
	}
	var random tally
	t.Run("random", func(t *testing.T) {
		seed := uint64(time.Now().UnixNano())
		t.Logf("seed %d", seed)
		rng := rand.New(rand.NewPCG(seed, seed))
		for i := range rounds {
			t.Run(strconv.Itoa(i), func(t *testing.T) { random.add(killAnywhere(t, rng, 20)) })
		}
		if random.lost != 0 {
			t.Errorf("random kills: %v", random)
		}
	})
	report = append(report, fmt.Sprintf("%-10s %v", "random", random))
	t.Logf("worker killed with SIGKILL, then restarted:\n%s", strings.Join(report, "\n"))
}
