package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/adapters/sqlstore"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/ports/stores"
)

// The job tests run `vetted serve` as built, on SQLite in a data
// directory, with vendors whose websites are a loopback fixture site that
// holds every request until the test lets it answer: so the enrichment jobs
// are running or queued when the test kills or stops the process. No
// request leaves loopback: the scanner's DNS server is a closed loopback
// port.

// site is the vendors' websites: while held, a request waits (until the
// client gives up); then it answers a small page.
type site struct {
	*httptest.Server
	held     atomic.Bool
	requests atomic.Int64 // requests that arrived while held
}

func newSite(t *testing.T) *site {
	t.Helper()
	s := &site{}
	s.held.Store(true)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.held.Load() {
			s.requests.Add(1)
			for s.held.Load() && r.Context().Err() == nil {
				time.Sleep(10 * time.Millisecond)
			}
			return // the client is gone or the site was let go: no answer to this one
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html><head><title>Vendor</title><meta name="description" content="A vendor."></head><body><h1>Vendor</h1></body></html>`)
	}))
	t.Cleanup(func() { s.held.Store(false); s.Close() })
	return s
}

// serveProc is one `vetted serve` process.
type serveProc struct {
	url  string
	cmd  *exec.Cmd
	log  *syncBuffer
	done chan struct{}
}

// jobsEnv is the environment of the job tests' server on dataDir.
func jobsEnv(t *testing.T, dataDir string, extra map[string]string) map[string]string {
	t.Helper()
	closed := freeAddr(t) // nothing listens there: every DNS query fails at once
	env := map[string]string{"VETTED_DATA_DIR": dataDir, "VETTED_AUTH_DEV_SECRET": replicaToken,
		"VETTED_SIGNING_KEY": "jobs-signing-key-0123456789", "VETTED_RATE_LIMIT": "-1", "VETTED_LOG_LEVEL": "debug",
		"VETTED_FETCH_ALLOW_PRIVATE": "true", "VETTED_SCAN_RESOLVER": closed, "VETTED_SCAN_DNS_TIMEOUT": "1s",
		"VETTED_WORKER_CONCURRENCY": "2", "VETTED_REMINDER_INTERVAL": "0"}
	for k, v := range extra {
		env[k] = v
	}
	return env
}

// startServe starts `vetted serve` with env and waits until it answers.
func startServe(t *testing.T, env map[string]string) *serveProc {
	t.Helper()
	addr := freeAddr(t)
	p := &serveProc{url: "http://" + addr, log: &syncBuffer{}, done: make(chan struct{})}
	p.cmd = exec.Command(vettedBinary(t), "serve")
	p.cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"), "VETTED_HTTP_ADDR=" + addr}
	for k, v := range env {
		p.cmd.Env = append(p.cmd.Env, k+"="+v)
	}
	p.cmd.Stdout, p.cmd.Stderr = p.log, p.log
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.done
		if t.Failed() {
			t.Logf("serve log:\n%s", p.log.String())
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		if res, err := http.Get(p.url + "/healthz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return p
			}
		}
		select {
		case <-p.done:
			t.Fatalf("serve exited at start:\n%s", p.log.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not answer:\n%s", p.log.String())
		}
	}
}

// call sends a JSON request and decodes the answer into a map.
func (p *serveProc) call(t *testing.T, method, path, token string, body any, want int) map[string]any {
	t.Helper()
	status, raw := request(t, method, p.url+path, token, body)
	if status != want {
		t.Fatalf("%s %s: %d %s; want %d", method, path, status, raw, want)
	}
	out := map[string]any{}
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		t.Fatalf("%s %s: %v: %s", method, path, err, raw)
	}
	return out
}

// waitFor polls cond until it holds, or fails the test after a bound far
// above what it needs (a failure, not a speed, is what it detects).
func waitFor(t *testing.T, what string, bound time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(bound)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, bound)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// saveVendors creates an account and saves n vendors on its master list,
// their websites on s; it answers the account id and the admin token.
func saveVendors(t *testing.T, p *serveProc, s *site, n int) (string, string) {
	t.Helper()
	tok := admin(t)
	acct := p.call(t, http.MethodPost, "/accounts", tok, map[string]any{"account": "Acme", "users": []string{"root@replicas.test"}}, http.StatusCreated)["id"].(string)
	var vs []map[string]string
	for i := range n {
		vs = append(vs, map[string]string{"vendor_name": fmt.Sprintf("Vendor %03d", i), "website_url": fmt.Sprintf("%s/v%03d", s.URL, i)})
	}
	ans := p.call(t, http.MethodPost, "/vendor-lists?account-id="+acct+"&operation=save-vendors", tok, map[string]any{"vendors": vs}, http.StatusOK)
	if q := ans["org_enrichment"].(map[string]any)["queued"].(float64); int(q) != n {
		t.Fatalf("queued %v vendors, want %d: %v", q, n, ans)
	}
	return acct, tok
}

// statuses are the enrichment statuses of the master list's vendors.
func (p *serveProc) statuses(t *testing.T, acct, tok string) map[string]string {
	t.Helper()
	ans := p.call(t, http.MethodGet, "/vendor-lists?account-id="+acct+"&vendor-list=master-list", tok, nil, http.StatusOK)
	out := map[string]string{}
	for _, v := range ans["vendors"].([]any) {
		v := v.(map[string]any)
		out[v["vendor_name"].(string)], _ = v["enrichment_status"].(string)
	}
	return out
}

// outboxOf opens the data directory's database (the server being down) and
// answers how many messages are undelivered, how many of those a relay
// could claim now, and how many of these are enrichment jobs.
func outboxOf(t *testing.T, dataDir string) (pending, due, dueEnrich int) {
	t.Helper()
	st, err := sqlstore.OpenSQLite(t.Context(), filepath.Join(dataDir, app.DatabaseFile))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.View(t.Context(), func(ctx context.Context, tx stores.Tx) (err error) {
		pending, err = tx.Outbox().Pending(ctx)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	errRollback := fmt.Errorf("look only")
	err = st.InTx(t.Context(), func(ctx context.Context, tx stores.Tx) error {
		ms, err := tx.Outbox().Claim(ctx, 10000, time.Now())
		if err != nil {
			return err
		}
		due = len(ms)
		for _, m := range ms {
			if m.Kind == outbox.KindEnrich {
				dueEnrich++
			}
		}
		return errRollback
	})
	if err != errRollback {
		t.Fatal(err)
	}
	return pending, due, dueEnrich
}

// TestKilledServeRunsItsJobsAfterRestart is issue 31's kill -9 of the
// embedded default: vendors saved, their enrichment running or queued in
// the in-process runner, the process killed. After a restart every vendor
// is enriched (none left at enrichment_status ""), and the account's quota
// holds each vendor once. A member added while every worker is held by an
// enrichment is mailed meanwhile: mail does not wait behind enrichment.
func TestKilledServeRunsItsJobsAfterRestart(t *testing.T) {
	const vendors = 30
	dataDir, s := t.TempDir(), newSite(t)
	first := startServe(t, jobsEnv(t, dataDir, map[string]string{"VETTED_SCAN_TIMEOUT": "10m"}))
	acct, tok := saveVendors(t, first, s, vendors)
	waitFor(t, "both workers held by an enrichment", time.Minute, func() bool { return s.requests.Load() >= 2 })

	first.call(t, http.MethodPost, "/users?account-id="+acct, tok, map[string]any{"users": []map[string]string{{"email": "erin@acme.test"}}}, http.StatusCreated)
	waitFor(t, "the new member's mail, while the enrichment is held", time.Minute, func() bool {
		return len(first.log.Lines("msg=mail", "erin@acme.test")) > 0
	})
	for name, st := range first.statuses(t, acct, tok) {
		if st != "" {
			t.Fatalf("%s is %q before the kill, want it not enriched yet", name, st)
		}
	}

	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-first.done
	pending, _, _ := outboxOf(t, dataDir)
	t.Logf("after the kill: %d outbox messages undelivered", pending)
	if pending < vendors {
		t.Fatalf("%d outbox messages undelivered after the kill, want the %d enrichment jobs that did not run", pending, vendors)
	}

	s.held.Store(false)
	second := startServe(t, jobsEnv(t, dataDir, nil))
	waitFor(t, "every vendor enriched after the restart", 3*time.Minute, func() bool {
		for _, st := range second.statuses(t, acct, tok) {
			if st == "" {
				return false
			}
		}
		return true
	})
	got := second.statuses(t, acct, tok)
	t.Logf("after the restart: %d vendors, statuses %v", len(got), countValues(got))
	// A job that ran before the kill and runs again (its end was not yet
	// recorded) mails once: the mail's delivery key was marked sent.
	if n := len(second.log.Lines("msg=mail", "erin@acme.test")); n != 0 {
		t.Errorf("the new member was mailed again after the restart (%d mails)", n)
	}

	// Saving the same vendors again queues none: the quota holds each once.
	var vs []string
	for name := range got {
		vs = append(vs, name)
	}
	ans := second.call(t, http.MethodPost, "/vendor-lists?account-id="+acct+"&operation=save-vendors", tok, map[string]any{"vendors": vs}, http.StatusOK)
	oe := ans["org_enrichment"].(map[string]any)
	if used := oe["quota"].(map[string]any)["used"].(float64); int(used) != vendors || oe["queued"].(float64) != 0 {
		t.Fatalf("org_enrichment after the restart = %v; want %d used and nothing queued", oe, vendors)
	}
}

func countValues(m map[string]string) map[string]int {
	out := map[string]int{}
	for _, v := range m {
		out[v]++
	}
	return out
}

// TestServeStopsWithinTheShutdownTimeout: SIGTERM with enrichment jobs
// running and queued; the process exits once VETTED_SHUTDOWN_TIMEOUT has
// passed (it does not run the queue down), and every job not done is in the
// outbox, due at once for the next start.
func TestServeStopsWithinTheShutdownTimeout(t *testing.T) {
	const vendors = 10
	dataDir, s := t.TempDir(), newSite(t)
	p := startServe(t, jobsEnv(t, dataDir, map[string]string{"VETTED_SCAN_TIMEOUT": "10m", "VETTED_SHUTDOWN_TIMEOUT": "2s"}))
	saveVendors(t, p, s, vendors)
	waitFor(t, "both workers held by an enrichment", time.Minute, func() bool { return s.requests.Load() >= 2 })
	start := time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.done:
	case <-time.After(time.Minute): // far above the 2 s timeout: a stop that waits for the jobs never comes
		t.Fatal("serve did not stop within a minute of SIGTERM with VETTED_SHUTDOWN_TIMEOUT=2s")
	}
	t.Logf("stopped %s after SIGTERM; exit %v", time.Since(start).Round(time.Millisecond), p.cmd.ProcessState)
	if !p.cmd.ProcessState.Success() {
		t.Errorf("exit status %v, want 0 after a graceful stop", p.cmd.ProcessState)
	}
	pending, due, dueEnrich := outboxOf(t, dataDir)
	t.Logf("after the stop: %d undelivered, %d due now, %d of them enrichment jobs", pending, due, dueEnrich)
	if dueEnrich != vendors || due != pending {
		t.Fatalf("after the stop: %d undelivered, %d due now, %d enrichment jobs; want the %d enrichment jobs due at once, and all undelivered due",
			pending, due, dueEnrich, vendors)
	}
}

// TestSecondSignalStopsServeAtOnce: a second signal during a graceful stop
// that would wait (VETTED_SHUTDOWN_TIMEOUT=10m, jobs held) ends the process.
func TestSecondSignalStopsServeAtOnce(t *testing.T) {
	dataDir, s := t.TempDir(), newSite(t)
	p := startServe(t, jobsEnv(t, dataDir, map[string]string{"VETTED_SCAN_TIMEOUT": "10m", "VETTED_SHUTDOWN_TIMEOUT": "10m"}))
	saveVendors(t, p, s, 4)
	waitFor(t, "both workers held by an enrichment", time.Minute, func() bool { return s.requests.Load() >= 2 })
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the graceful stop begun", time.Minute, func() bool { return strings.Contains(p.log.String(), "vetted stopping") })
	deadline := time.Now().Add(time.Minute) // far below the 10 minutes the first signal would wait
	for {
		// Again until it ends: the signal may come before the process
		// has given the signals their default action back.
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
			ws, _ := p.cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
				t.Fatalf("exit %v, want the process ended by the second SIGTERM", p.cmd.ProcessState)
			}
			return
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("a second SIGTERM did not end the process")
		}
	}
}
