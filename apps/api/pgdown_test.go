package api_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/sqlstore"
	"github.com/vetted-dev/vetted/adapters/sqlstore/pgtest"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/core/alerts"
	"github.com/vetted-dev/vetted/core/platform/signedlink"
	"github.com/vetted-dev/vetted/internal/tcpproxy"
	"github.com/vetted-dev/vetted/ports/stores"
)

// The PostgreSQL fault tests put a TCP proxy the test starts on loopback
// between the app and a database of their own (from pgtest), and cut it:
// for the app, PostgreSQL is down, while the test still reads the database
// directly to see what was written.

// onceOnly skips the repeated passes of this package (make test runs it again
// with VETTED_TEST_STORE set): these tests choose their store themselves.
func onceOnly(t *testing.T) {
	if os.Getenv("VETTED_TEST_STORE") != "" {
		t.Skip("runs in the default pass only: it brings its own PostgreSQL store")
	}
}

// pgBehindProxy returns the app's store, connected through a proxy the test
// can cut, and a store connected directly, for the test's own reads.
func pgBehindProxy(t *testing.T) (*tcpproxy.Proxy, stores.Store, *sqlstore.Store) {
	t.Helper()
	dbURL := pgtest.NewMigratedDatabase(t)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := tcpproxy.Start(t, u.Host)
	u.Host = proxy.Addr()
	open := func(dsn string) *sqlstore.Store {
		s, err := sqlstore.OpenPostgres(context.Background(), dsn, sqlstore.WithMaxOpenConns(8), sqlstore.WithApplicationName("pgdown"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s
	}
	return proxy, open(u.String()), open(dbURL)
}

// snapshot fingerprints every table of the database (row count and a hash
// of the rows in a fixed order), so two snapshots are equal exactly when
// nothing was written in between.
func snapshot(t *testing.T, db *sqlstore.Store) map[string]string {
	t.Helper()
	ctx := context.Background()
	rows, err := db.SQLDB().QueryContext(ctx,
		`SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename NOT LIKE 'vetted_migration%' ORDER BY tablename`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, name := range tables {
		var fp string
		q := fmt.Sprintf(`SELECT count(*) || ' rows ' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') FROM %q AS t`, name)
		if err := db.SQLDB().QueryRowContext(ctx, q).Scan(&fp); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = fp
	}
	return out
}

// TestPostgresDown runs every operation of the API (as the authorization
// matrix builds them, by a caller who may) and the mail-link routes while
// PostgreSQL is unreachable: each answers 503 with Retry-After, except the
// liveness probe, which does not depend on the database. Once PostgreSQL is
// back, no table holds a row more or less than before, and the app answers
// again without a restart.
func TestPostgresDown(t *testing.T) {
	t.Parallel()
	onceOnly(t)
	proxy, store, direct := pgBehindProxy(t)
	w := newMatrixWorld(t, apitest.WithStore(func(testing.TB) stores.Store { return store }))
	calls := everyCall(t, w)
	before := snapshot(t, direct)

	proxy.Cut()
	for _, c := range calls {
		res := w.env.Do(t, c.method, c.path, c.token, c.body)
		if c.name == "healthz" {
			if res.Status != http.StatusOK {
				t.Errorf("healthz with PostgreSQL down = %d, want 200: the process is up", res.Status)
			}
			continue
		}
		if res.Status != http.StatusServiceUnavailable {
			t.Errorf("%s %s with PostgreSQL down = %d, want 503: %s", c.method, c.path, res.Status, res.Body)
			continue
		}
		if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || s <= 0 {
			t.Errorf("%s %s: 503 with Retry-After %q, want seconds", c.method, c.path, res.Header.Get("Retry-After"))
		}
		if strings.Contains(strings.ToLower(string(res.Body)), "connection") || strings.Contains(string(res.Body), "EOF") {
			t.Errorf("%s %s: the answer shows the driver's error: %s", c.method, c.path, res.Body)
		}
	}
	proxy.Restore()

	after := snapshot(t, direct)
	for table, fp := range before {
		if after[table] != fp {
			t.Errorf("table %s changed during the outage: %s -> %s", table, fp, after[table])
		}
	}
	apitest.Must(t, w.env.Do(t, "GET", "/readyz", "", nil), 200)
	apitest.Must(t, w.env.Do(t, "GET", q("/vendor-lists", "account-id", w.a.id), w.a.owner, nil), 200)
	t.Logf("%d routes answered 503 with Retry-After while PostgreSQL was down", len(calls)-1)
}

// outageCall is one request of TestPostgresDown, named for the report.
type outageCall struct {
	name string
	request
	token string
}

// everyCall is a valid request for every operation of the API's OpenAPI
// document, as the authorization matrix builds them, by a caller who may
// make it (the owner of account A, a platform admin, or nobody for a public
// operation), then the mail-link routes.
func everyCall(t *testing.T, w *matrixWorld) []outageCall {
	t.Helper()
	var calls []outageCall
	rows := matrixRows()
	for _, id := range operationIDs(w.env) {
		row, ok := rows[id]
		if !ok {
			t.Fatalf("operation %q has no row in the authorization matrix", id)
		}
		token := w.a.owner
		switch row.policy {
		case public:
			token = ""
		case platformOnly:
			token = w.admin
		}
		calls = append(calls, outageCall{id, row.build(t, w, w.a, w.b, false), token})
	}
	return append(calls, linkCalls(t, w)...)
}

// linkCalls are the mail-link routes (not in the OpenAPI document) with a
// valid token for a subscriber of A.
func linkCalls(t *testing.T, w *matrixWorld) []outageCall {
	t.Helper()
	email := w.unique("linked") + "@s.test"
	apitest.Must(t, w.env.Do(t, "POST", q("/subscribers", "account-id", w.a.id, "vendor-list-id", w.a.master), w.a.owner,
		map[string]any{"subscriber-email": email}), 201)
	var id string
	if err := w.env.Store.View(context.Background(), func(ctx context.Context, tx stores.Tx) error {
		subs, err := tx.Subscribers().List(ctx, uuid.MustParse(w.a.master))
		for _, s := range subs {
			if s.Email == email {
				id = s.ID.String()
			}
		}
		return err
	}); err != nil || id == "" {
		t.Fatalf("subscriber %s: %q, %v", email, id, err)
	}
	signer, err := signedlink.New([]byte(apitest.SigningKey))
	if err != nil {
		t.Fatal(err)
	}
	exp := w.env.Clock.Now().Add(time.Hour) // the app judges the link by its clock
	confirm := "/subscribers/confirm?token=" + url.QueryEscape(signer.Sign(alerts.PurposeConfirm, id, exp))
	unsubscribe := "/unsubscribe?token=" + url.QueryEscape(signer.Sign(alerts.PurposeUnsubscribe, id, exp))
	var out []outageCall
	for _, r := range []request{{"GET", confirm, nil}, {"POST", confirm, nil}, {"GET", unsubscribe, nil}, {"POST", unsubscribe, nil}} {
		out = append(out, outageCall{"link", r, ""})
	}
	return out
}

// TestPostgresCutMidWrite cuts PostgreSQL while CSV batches are being
// imported from several clients at once: every answer is 2xx or 503, never
// 500, and each batch, which is all-or-nothing, is either wholly there or
// not at all (a batch whose answer was lost with the connection may be
// there though it answered 503).
func TestPostgresCutMidWrite(t *testing.T) {
	t.Parallel()
	onceOnly(t)
	proxy, store, _ := pgBehindProxy(t)
	env := apitest.New(t, apitest.WithStore(func(testing.TB) stores.Store { return store }))
	acct := env.NewAccount(t, "Cut Org", "owner@cut.test")
	tok := env.Token("owner@cut.test", apitest.Verified())
	const clients, batches, rowsPerBatch = 6, 8, 40

	var mu sync.Mutex
	statuses := map[int]int{}
	var wg sync.WaitGroup
	started := make(chan struct{}, clients*batches)
	for c := range clients {
		wg.Go(func() {
			for b := range batches {
				var csv strings.Builder
				csv.WriteString("vendor_name,product_name\n")
				for r := range rowsPerBatch {
					fmt.Fprintf(&csv, "Cut Vendor %d-%d,P%d-%d-%d\n", c, r, c, b, r)
				}
				started <- struct{}{}
				res := env.Do(t, "POST", q("/vendor-lists", "account-id", acct, "operation", "import-csv"), tok,
					map[string]any{"csv": csv.String(), "row_limit": rowsPerBatch})
				mu.Lock()
				statuses[res.Status]++
				mu.Unlock()
			}
		})
	}
	for range clients * batches / 3 { // a third of the batches under way
		<-started
	}
	proxy.Cut()
	time.Sleep(300 * time.Millisecond)
	proxy.Restore()
	wg.Wait()

	for status, n := range statuses {
		if status/100 != 2 && status != http.StatusServiceUnavailable {
			t.Errorf("%d answers %d", n, status)
		}
	}
	var list struct {
		Vendors []struct {
			Products []struct {
				ProductName string `json:"product_name"`
			} `json:"products"`
		} `json:"vendors"`
	}
	apitest.Must(t, env.Do(t, "GET", q("/vendor-lists", "account-id", acct, "vendor-list", "master-list"), tok, nil), 200).JSON(t, &list)
	perBatch := map[string]int{}
	for _, v := range list.Vendors {
		for _, p := range v.Products {
			parts := strings.Split(strings.TrimPrefix(p.ProductName, "P"), "-")
			perBatch[parts[0]+"-"+parts[1]]++
		}
	}
	whole := 0
	for batch, n := range perBatch {
		if n != rowsPerBatch {
			t.Errorf("batch %s is half-written: %d of %d rows", batch, n, rowsPerBatch)
		}
		whole++
	}
	t.Logf("answers by status %v; %d of %d batches written whole, none in part", statuses, whole, clients*batches)
	if statuses[http.StatusServiceUnavailable] == 0 {
		t.Log("no batch met the cut (the machine was fast): the outage was not exercised mid-write")
	}
}
