package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// TestConcurrentWritersOnSQLite sends 20 writes to one list at once on the
// embedded default's store. SQLite has one writer: the units of work must
// take turns, so every request succeeds and no "database is locked" (or any
// 5xx) reaches a client, and no write is lost.
func TestConcurrentWritersOnSQLite(t *testing.T) {
	t.Parallel()
	const writers = 20
	for _, c := range []struct {
		name string
		// write is what writer i sends to master-list.
		write func(i int) (op string, body map[string]any)
		// want is how many vendors the list holds after all of them.
		want int
	}{
		{"save-vendors", func(i int) (string, map[string]any) {
			return "save-vendors", map[string]any{"vendors": []string{"Shared Vendor", fmt.Sprintf("Vendor %02d", i)}}
		}, 2},
		{"import-csv", func(i int) (string, map[string]any) {
			return "import-csv", map[string]any{"csv": fmt.Sprintf("vendor_name,product_name\nVendor %02d,Product %02d\n", i, i)}
		}, writers},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			env := apitest.New(t, apitest.OnSQLite())
			acct := env.NewAccount(t, "Acme", "o@acme.test")
			tok := env.Token("o@acme.test")
			var wg sync.WaitGroup
			answers := make([]*apitest.Resp, writers)
			for i := range writers {
				wg.Go(func() {
					op, body := c.write(i)
					answers[i] = env.Do(t, http.MethodPost, "/vendor-lists?operation="+op+"&vendor-list=master-list&account-id="+acct, tok, body)
				})
			}
			wg.Wait()
			for i, r := range answers {
				if r.Status != http.StatusOK || strings.Contains(strings.ToLower(r.String()), "locked") {
					t.Errorf("writer %d: %d %s", i, r.Status, r.Body)
				}
			}
			env.Drain(t)
			var list struct {
				Vendors []struct {
					Name string `json:"vendor_name"`
				} `json:"vendors"`
			}
			apitest.Must(t, env.Do(t, http.MethodGet, "/vendor-lists?vendor-list=master-list&account-id="+acct, tok, nil), http.StatusOK).JSON(t, &list)
			if len(list.Vendors) != c.want {
				t.Fatalf("the list holds %d vendors, want %d: %+v", len(list.Vendors), c.want, list.Vendors)
			}
		})
	}
}
