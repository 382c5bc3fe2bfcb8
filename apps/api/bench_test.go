package api_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/core/alerts"
	"github.com/vetted-dev/vetted/ports/stores"
)

// Run on PostgreSQL with VETTED_TEST_STORE=postgres and VETTED_TEST_DATABASE_URL:
//   go test ./api -run '^$' -bench . -benchtime 20x

// BenchmarkSaveVendors500 replaces a list's membership with 500 vendors, half
// of them new each time, through HTTP.
func BenchmarkSaveVendors500(b *testing.B) {
	env := apitest.New(b)
	acct := env.NewAccount(b, "Bench", "o@bench.test")
	tok := env.Token("o@bench.test")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		vs := make([]string, 500)
		for j := range vs {
			if j%2 == 0 {
				vs[j] = fmt.Sprintf("Stable Vendor %03d", j)
			} else {
				vs[j] = fmt.Sprintf("Vendor %d-%03d", i, j)
			}
		}
		r := env.Do(b, http.MethodPost, "/vendor-lists?operation=save-vendors&account-id="+acct, tok, map[string]any{"vendors": vs})
		if r.Status != http.StatusOK {
			b.Fatalf("status %d: %s", r.Status, r.Body)
		}
	}
}

// BenchmarkImportCSV500 imports a fresh 500-row CSV (vendors, products and
// assessment columns) in one batch, through HTTP.
func BenchmarkImportCSV500(b *testing.B) {
	env := apitest.New(b)
	tok := env.Token("o@bench.test")
	accts := make([]string, b.N)
	for i := range accts {
		accts[i] = env.NewAccount(b, fmt.Sprintf("Bench %d", i), "o@bench.test")
	}
	csv := csvRows(500)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := env.Do(b, http.MethodPost, "/vendor-lists?operation=import-csv&account-id="+accts[i], tok, map[string]any{"csv": csv, "row_limit": 500})
		if r.Status != http.StatusOK {
			b.Fatalf("status %d: %s", r.Status, r.Body)
		}
	}
}

// BenchmarkAlertFanout10k records one live incident for a vendor whose list
// has 10,000 confirmed subscribers and waits until every mail is in the
// mailbox sink (relay, fan-out job, 10,000 mail jobs with delivery keys).
func BenchmarkAlertFanout10k(b *testing.B) {
	const n = 10000
	env := apitest.New(b)
	acct := env.NewAccount(b, "Bench", "o@bench.test")
	tok := env.Token("o@bench.test")
	res := env.SaveVendors(b, tok, acct, "Fanout Vendor")
	listID := uuid.MustParse(res["list"].(map[string]any)["id"].(string))
	accID := uuid.MustParse(acct)
	err := env.Store.InTx(context.Background(), func(ctx context.Context, tx stores.Tx) error {
		now := env.Clock.Now()
		for i := 0; i < n; i++ {
			s := alerts.Subscriber{ID: uuid.Must(uuid.NewV7()), AccountID: accID, ListID: listID,
				Email: fmt.Sprintf("s%05d@bench.test", i), Status: alerts.SubscriberConfirmed, CreatedAt: now, ConfirmedAt: &now}
			if err := tx.Subscribers().Save(ctx, s); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	env.Drain(b)
	admin := env.Token("ops@bench.test", apitest.Admin())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		env.Mail.Reset()
		r := env.Do(b, http.MethodPost, "/vendor/Fanout%20Vendor/incidents", admin, map[string]any{"title": fmt.Sprintf("Incident %d", i), "severity": "high"})
		if r.Status != http.StatusCreated {
			b.Fatalf("status %d: %s", r.Status, r.Body)
		}
		env.Drain(b)
		if got := len(env.Mail.Sent()); got != n {
			b.Fatalf("%d mails, want %d", got, n)
		}
	}
}

// BenchmarkGetVendor reads one vendor with its profile by name, the API's
// hot read, through HTTP: after the first read it comes from the vendor-view
// cache (adapters/dircache) and the encoded answer the API keeps.
func BenchmarkGetVendor(b *testing.B) {
	env := apitest.New(b)
	acct := env.NewAccount(b, "Bench", "o@bench.test")
	tok := env.Token("o@bench.test")
	env.SaveVendors(b, tok, acct, "Read Vendor")
	admin := env.Token("ops@bench.test", apitest.Admin())
	if r := env.Do(b, http.MethodPatch, "/vendor/Read%20Vendor", admin, map[string]any{"company": map[string]any{"industry": "Chat"}}); r.Status != http.StatusOK {
		b.Fatalf("patch: status %d: %s", r.Status, r.Body)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if r := env.Do(b, http.MethodGet, "/vendor/Read%20Vendor", tok, nil); r.Status != http.StatusOK {
			b.Fatalf("status %d: %s", r.Status, r.Body)
		}
	}
}
