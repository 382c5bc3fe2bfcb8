package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/asynq/asynqtest"
	"github.com/vetted-dev/vetted/adapters/auth"
	"github.com/vetted-dev/vetted/adapters/sqlstore"
	"github.com/vetted-dev/vetted/adapters/sqlstore/pgtest"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/internal/tcpproxy"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/stores"
)

// The replica tests run two `vetted serve` processes on one PostgreSQL (and
// one Redis): a platform admin's PATCH on one is read on the other as soon
// as the other logged the change notice, in every one of replicaTries tries,
// although the reader had the old view in memory (younger than its TTL); and a replica whose notification connection is
// cut listens again and forgets what it remembered (the catch-up).
const (
	replicaTries = 100
	replicaToken = "replicas-dev-secret-0123456789abcdef"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// TestMain removes the binary vettedBinary built, if it did.
func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		_ = os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// vettedBinary builds this command once per test binary, when a test
// first needs it.
func vettedBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "vetted-replicas-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "vetted")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// replica is one `vetted serve` process.
type replica struct {
	name string
	url  string
	log  *syncBuffer
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startReplica runs `vetted serve` with env until the test ends.
func startReplica(t *testing.T, name string, env map[string]string) *replica {
	t.Helper()
	addr := freeAddr(t)
	r := &replica{name: name, url: "http://" + addr, log: &syncBuffer{}}
	cmd := exec.Command(vettedBinary(t), "serve")
	cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}
	vars := map[string]string{"VETTED_HTTP_ADDR": addr, "VETTED_DATA_DIR": t.TempDir(), "VETTED_AUTH_DEV_SECRET": replicaToken,
		"VETTED_SIGNING_KEY": "replicas-signing-key-0123456789", "VETTED_RATE_LIMIT": "-1", "VETTED_LOG_LEVEL": "debug",
		"VETTED_MIGRATE_ON_START": "false"}
	for k, v := range env {
		vars[k] = v
	}
	for k, v := range vars {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdout, cmd.Stderr = r.log, r.log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("%s log:\n%s", name, r.log.String())
		}
	})
	return r
}

// admin is a platform admin's token for the replicas' dev secret.
func admin(t *testing.T) string {
	t.Helper()
	dev, err := auth.NewDev([]byte(replicaToken), auth.DevOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := dev.Mint(auth.Claims{Subject: "sub-root", Email: "root@replicas.test", EmailVerified: true,
		Groups: []string{ports.PlatformAdminGroup}})
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

var client = &http.Client{Timeout: 10 * time.Second}

func (r *replica) do(t *testing.T, method, path, token, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, r.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/merge-patch+json")
	}
	res, err := client.Do(req)
	if err != nil {
		return 0, []byte(err.Error())
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// invalidation is what /readyz tells an admin of the replica's change feed
// (nil while it is not ready).
func (r *replica) invalidation(t *testing.T, token string) map[string]any {
	t.Helper()
	status, body := r.do(t, http.MethodGet, "/readyz", token, "")
	if status != http.StatusOK {
		return nil
	}
	var out struct{ Invalidation map[string]any }
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatalf("%s /readyz: %s", r.name, body)
	}
	return out.Invalidation
}

// waitListening waits until the replica's feed of mode listens, and returns
// how long that took.
func (r *replica) waitListening(t *testing.T, token, mode string) time.Duration {
	t.Helper()
	start := time.Now()
	for deadline := start.Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		inv := r.invalidation(t, token)
		if inv != nil && inv["connected"] == true {
			if inv["mode"] != mode {
				t.Fatalf("%s: invalidation %v, want mode %s", r.name, inv, mode)
			}
			return time.Since(start)
		}
	}
	t.Fatalf("%s: the change feed does not listen: %v", r.name, r.invalidation(t, token))
	return 0
}

// industry is the company industry r answers for the vendor.
func (r *replica) industry(t *testing.T, token, id string) string {
	t.Helper()
	status, body := r.do(t, http.MethodGet, "/vendor/"+id, token, "")
	if status != http.StatusOK {
		t.Fatalf("%s GET /vendor: %d %s", r.name, status, body)
	}
	var v struct{ Company struct{ Industry string } }
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	return v.Company.Industry
}

func (r *replica) setIndustry(t *testing.T, token, id, industry string) {
	t.Helper()
	status, body := r.do(t, http.MethodPatch, "/vendor/"+id, token, fmt.Sprintf(`{"company":{"industry":%q}}`, industry))
	if status != http.StatusOK {
		t.Fatalf("%s PATCH /vendor: %d %s", r.name, status, body)
	}
}

// seedVendor puts a vendor in the directory of the database at dbURL.
func seedVendor(t *testing.T, dbURL string) string {
	t.Helper()
	ctx := t.Context()
	st, err := sqlstore.OpenPostgres(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	v, err := vendors.New(uuid.New(), "Replica Corp", "https://replica.example", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	err = st.InTx(ctx, func(ctx context.Context, tx stores.Tx) error {
		_, err := tx.Vendors().Ensure(ctx, []vendors.Vendor{v})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return v.ID.String()
}

// replicaSetup is two replicas, b's connections to the notification
// server going through cut.
type replicaSetup struct {
	a, b   *replica
	cut    *tcpproxy.Proxy
	mode   string
	dbURL  string
	token  string
	vendor string
}

func newReplicas(t *testing.T, withRedis bool) *replicaSetup {
	t.Helper()
	dbURL := pgtest.NewMigratedDatabase(t)
	s := &replicaSetup{dbURL: dbURL, token: admin(t), vendor: seedVendor(t, dbURL), mode: "postgres"}
	envA := map[string]string{"VETTED_DATABASE_URL": dbURL}
	envB := map[string]string{"VETTED_DATABASE_URL": dbURL}
	target := dbURL
	if withRedis {
		// Pub/sub channels are not per database and a PATCH writes no key,
		// so the replicas use the test Redis without claiming a database.
		target = asynqtest.BaseURL(t)
		envA["VETTED_REDIS_URL"], envB["VETTED_REDIS_URL"] = target, target
		s.mode = "redis"
	}
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	s.cut = tcpproxy.Start(t, u.Host)
	u.Host = s.cut.Addr()
	if withRedis {
		envB["VETTED_REDIS_URL"] = u.String()
	} else {
		envB["VETTED_DATABASE_URL"] = u.String()
	}
	s.a, s.b = startReplica(t, "A", envA), startReplica(t, "B", envB)
	s.a.waitListening(t, s.token, s.mode)
	s.b.waitListening(t, s.token, s.mode)
	return s
}

// TestReplicasSeeEachOthersWrites: the directory edits of one replica are
// read on the other once the notice arrived, PostgreSQL LISTEN/NOTIFY or Redis
// pub/sub carrying the notice; then the notification connection is cut and
// the replica catches up once it listens again.
func TestReplicasSeeEachOthersWrites(t *testing.T) {
	for _, withRedis := range []bool{false, true} {
		name := "postgres"
		if withRedis {
			name = "redis"
		}
		t.Run(name, func(t *testing.T) {
			s := newReplicas(t, withRedis)
			var delays []time.Duration
			for i := range replicaTries {
				writer, reader := s.a, s.b
				if i%2 == 1 {
					writer, reader = s.b, s.a
				}
				want := fmt.Sprintf("industry %d", i)
				// The reader remembers the view as it is before the write.
				if got := reader.industry(t, s.token, s.vendor); got == want {
					t.Fatalf("try %d: %s read %q before the write", i, reader.name, got)
				}
				notices := strings.Count(reader.log.String(), noticeLogged)
				writer.setIndustry(t, s.token, s.vendor, want)
				written := time.Now()
				// The notice reaches the reader (PostgreSQL LISTEN/NOTIFY or
				// Redis pub/sub) and it forgets the vendor: the next read
				// shows the write, though the view it remembered is younger
				// than dircache.TTL. How long the notice took is reported,
				// not asserted (the machine may be small and busy).
				var got string
				if !reader.readsAfterNotice(t, notices, func() bool { got = reader.industry(t, s.token, s.vendor); return got == want }) {
					t.Fatalf("try %d: %s wrote %q, %s read %q after its change notices; %s's last notices:\n%s",
						i, writer.name, want, reader.name, got, reader.name, reader.lastNotices(3))
				}
				delays = append(delays, time.Since(written))
			}
			slices.Sort(delays)
			t.Logf("%s: %d writes read on the other replica after its change notice; notice delay median %v, p90 %v, max %v", name, replicaTries,
				pick(delays, 0.5), pick(delays, 0.9), pick(delays, 1))
			accountReadsSeeWrites(t, s)

			// Cut B's connections to the notification server: B misses the
			// notice of a write on A, serves the view it remembers, and once
			// it listens again forgets it (catch-up).
			before := s.b.industry(t, s.token, s.vendor)
			s.cut.Cut()
			s.b.waitLog(t, feedLost, 1)
			s.a.setIndustry(t, s.token, s.vendor, "written while B was cut off")
			// B serves what it remembers, or 503 when that is due and its
			// store is behind the cut too (PostgreSQL).
			if status, body := s.b.do(t, http.MethodGet, "/vendor/"+s.vendor, s.token, ""); status == http.StatusOK && strings.Contains(string(body), "written while B was cut off") {
				t.Logf("B read the write while cut off (its view was due and read again)")
			}
			restored := time.Now()
			s.cut.Restore()
			s.b.waitLog(t, feedBack, 1)
			took := time.Since(restored)
			s.b.waitListening(t, s.token, s.mode)
			if got := s.b.industry(t, s.token, s.vendor); got != "written while B was cut off" {
				t.Fatalf("after listening again B read %q (before the cut %q)", got, before)
			}
			t.Logf("%s: B listened again and caught up %v after its connection was restored", name, took)

			if !withRedis {
				// The server ends every LISTEN session (an administrator,
				// a failover): both replicas listen again and catch up.
				start := time.Now()
				n := terminateListeners(t, s.dbURL)
				s.a.waitLog(t, feedBack, 1)
				s.b.waitLog(t, feedBack, 2)
				t.Logf("%s: %d LISTEN sessions terminated; both replicas listened again and caught up within %v", name, n, time.Since(start))
				notices := strings.Count(s.b.log.String(), noticeLogged)
				s.a.setIndustry(t, s.token, s.vendor, "after the terminate")
				var got string
				if !s.b.readsAfterNotice(t, notices, func() bool { got = s.b.industry(t, s.token, s.vendor); return got == "after the terminate" }) {
					t.Fatalf("after the terminate B read %q after its change notices of A's write", got)
				}
			}
		})
	}
}

// What serve logs when its change feed is lost, and when it listens again
// and forgets every remembered view.
const (
	feedLost     = "change feed lost"
	noticeLogged = "change notice"
	feedBack     = "catch-up"
)

// lastNotices is the last n change notices the replica logged (at debug).
func (r *replica) lastNotices(n int) string {
	var lines []string
	for line := range strings.Lines(r.log.String()) {
		if strings.Contains(line, "change notice") {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines[max(0, len(lines)-n):], "")
}

// readsAfterNotice reports whether read sees a write once the replica
// logged a change notice after before (the count of notices it had logged
// when the write was sent). A replica is told of its own writes too, and
// the notice of the one before may come after that count was taken, so a
// stale read is tried once more after one more notice; a replica that
// forgets nothing on a notice fails both reads.
func (r *replica) readsAfterNotice(t *testing.T, before int, read func() bool) bool {
	t.Helper()
	r.waitLog(t, noticeLogged, before+1)
	if read() {
		return true
	}
	if !r.logged(noticeLogged, before+2, 10*time.Second) {
		return false
	}
	return read()
}

// logged reports whether the replica's log holds what at least n times
// within d.
func (r *replica) logged(what string, n int, d time.Duration) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if strings.Count(r.log.String(), what) >= n {
			return true
		}
	}
	return false
}

// waitLog waits until the replica's log holds what at least n times.
func (r *replica) waitLog(t *testing.T, what string, n int) {
	t.Helper()
	if !r.logged(what, n, 30*time.Second) {
		t.Fatalf("%s did not log %q %d times", r.name, what, n)
	}
}

func pick(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(q*float64(len(sorted))))]
}

// terminateListeners ends the LISTEN sessions on the database at dbURL.
func terminateListeners(t *testing.T, dbURL string) int {
	t.Helper()
	st, err := sqlstore.OpenPostgres(t.Context(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var n int
	err = st.SQLDB().QueryRowContext(t.Context(), `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()`).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no LISTEN session to terminate")
	}
	return n
}

// accountReadsSeeWrites: the members of an account, an answer each replica
// remembers (apps/api answers.go), show a member added on the other replica
// once its change notice arrived, in each of accountTries tries.
func accountReadsSeeWrites(t *testing.T, s *replicaSetup) {
	t.Helper()
	const accountTries = 20
	status, body := s.a.do(t, http.MethodPost, "/accounts", s.token, `{"account":"Replica Org","users":["root@replicas.test"]}`)
	if status != http.StatusCreated {
		t.Fatalf("POST /accounts: %d %s", status, body)
	}
	var acc struct{ ID string }
	if err := json.Unmarshal(body, &acc); err != nil {
		t.Fatal(err)
	}
	members := "/users?account-id=" + acc.ID
	for i := range accountTries {
		writer, reader := s.a, s.b
		if i%2 == 1 {
			writer, reader = s.b, s.a
		}
		email := fmt.Sprintf("member%d@replicas.test", i)
		// The reader remembers the members as they are before the write.
		if status, body := reader.do(t, http.MethodGet, members, s.token, ""); status != http.StatusOK || strings.Contains(string(body), email) {
			t.Fatalf("try %d: %s read %d %s before the write", i, reader.name, status, body)
		}
		notices := strings.Count(reader.log.String(), noticeLogged)
		if status, body := writer.do(t, http.MethodPost, members, s.token, `{"users":[{"email":"`+email+`","role":"member"}]}`); status != http.StatusCreated {
			t.Fatalf("try %d: %s POST /users: %d %s", i, writer.name, status, body)
		}
		var body []byte
		if !reader.readsAfterNotice(t, notices, func() bool {
			_, body = reader.do(t, http.MethodGet, members, s.token, "")
			return strings.Contains(string(body), email)
		}) {
			t.Fatalf("try %d: %s did not read the member added on %s after its change notices: %s", i, reader.name, writer.name, body)
		}
	}
}
