package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/sqlstore/pgtest"
	"github.com/vetted-dev/vetted/apps/api"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/memstore"
	"github.com/vetted-dev/vetted/ports/stores"
)

// seedWholeList creates the list name on the account and puts n vendors on
// it straight through the store (the directory's vendors named after the
// list, so that lists of one app do not share them): every third with a
// website, every fourth with products, every fifth with alerts off, every
// seventh with a profile (a rating, its sections done or queued), and names
// that JSON escapes or that HTML escaping would (quotes, <, >, &,
// non-ASCII, U+2028). It returns the list's id.
func seedWholeList(t testing.TB, env *apitest.Env, acct, owner, name string, n int) string {
	t.Helper()
	list := apitest.Must(t, env.Do(t, http.MethodPost, "/vendor-lists?account-id="+acct+"&vendor-list="+url.QueryEscape(name), owner, nil), 201).Map(t)["id"].(string)
	listID := uuid.MustParse(list)
	if n == 0 {
		return list
	}
	now := env.Clock.Now()
	odd := []string{`"Quoted" %s`, "%s <b> & Co", "Zürich %s", "%s \u2028 line", "%s ☃"}
	err := env.Store.InTx(context.Background(), func(ctx context.Context, tx stores.Tx) error {
		vs := make([]vendors.Vendor, 0, n)
		for i := range n {
			raw := fmt.Sprintf("%s Vendor %05d", name, i)
			if i%11 == 0 {
				raw = fmt.Sprintf(odd[(i/11)%len(odd)], raw)
			}
			website := ""
			if i%3 == 0 {
				website = fmt.Sprintf("https://vendor%d.example/?a=1&b=<2>", i)
			}
			v, err := vendors.New(uuid.Must(uuid.NewV7()), raw, website, now)
			if err != nil {
				return fmt.Errorf("vendor %q: %w", raw, err)
			}
			vs = append(vs, v)
		}
		vs, err := tx.Vendors().Ensure(ctx, vs)
		if err != nil {
			return err
		}
		ids := make([]uuid.UUID, len(vs))
		for i, v := range vs {
			ids[i] = v.ID
		}
		if err := tx.Lists().AddEntries(ctx, listID, ids, now); err != nil {
			return err
		}
		var ps []lists.Product
		for i, v := range vs {
			if i%4 == 0 {
				for j := range 1 + i%3 {
					ps = append(ps, lists.Product{ID: uuid.Must(uuid.NewV7()), ListID: listID, VendorID: v.ID,
						Name: fmt.Sprintf("Product %d <%d>", i, j), CreatedAt: now.Add(time.Duration(j) * time.Second)})
				}
			}
			if i%5 == 0 {
				if err := tx.Lists().SetAlerts(ctx, listID, v.ID, false); err != nil {
					return err
				}
			}
			if i%7 == 0 {
				p := vendors.NewProfile(uuid.Must(uuid.NewV7()), v.ID, now)
				rating := i % 101
				p.Scores.SecurityRating = &rating
				status := "done"
				if i%2 == 0 {
					status = "queued"
				}
				p.Enrichment = map[vendors.Section]vendors.SectionStatus{vendors.SectionBasic: {Status: status, UpdatedAt: now}}
				if err := tx.Profiles().Save(ctx, p); err != nil {
					return err
				}
			}
		}
		_, err = tx.Lists().MergeProducts(ctx, ps)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// wholeListStores are the stores the whole-list tests run on: the one
// VETTED_TEST_STORE names (memory when unset), SQLite, and PostgreSQL
// (VETTED_TEST_DATABASE_URL; pgtest skips it when there is none) unless it
// is the first.
func wholeListStores() []struct {
	name string
	opts []apitest.Option
} {
	cases := []struct {
		name string
		opts []apitest.Option
	}{{"store of VETTED_TEST_STORE", nil}, {"sqlite", []apitest.Option{apitest.OnSQLite()}}}
	if os.Getenv("VETTED_TEST_STORE") != "postgres" {
		cases = append(cases, struct {
			name string
			opts []apitest.Option
		}{"postgres", []apitest.Option{apitest.WithStore(func(t testing.TB) stores.Store { return pgtest.NewStore(t) })}})
	}
	return cases
}

// oldWholeListAnswer reads the list and all its entries in one read of the
// store, as get-vendor-lists did before it streamed, and encodes them as it
// did.
func oldWholeListAnswer(t *testing.T, env *apitest.Env, acct, list string) []byte {
	t.Helper()
	var (
		l  lists.List
		es []lists.Entry
	)
	err := env.Store.View(context.Background(), func(ctx context.Context, tx stores.Tx) error {
		var err error
		if l, err = tx.Lists().Get(ctx, uuid.MustParse(acct), uuid.MustParse(list)); err != nil {
			return err
		}
		es, err = tx.Lists().Entries(ctx, l.ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := api.OldWholeListAnswer(l, es)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// firstDifference shows where two answers part.
func firstDifference(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-80)
	return fmt.Sprintf("%d bytes, want %d; from byte %d:\n got %q\nwant %q", len(got), len(want), from,
		got[from:min(len(got), i+80)], want[from:min(len(want), i+80)])
}

// TestWholeListStreamsTheSameBytes: a list read whole (no shape
// parameters), by id or by name, answers byte for byte what the whole body
// encoded at once answered (same fields, order, escaping and final
// newline), with the same status and headers, for lists of none, one,
// several, exactly one page and more than one page of vendors, on every
// store; its refusals are the problem answers they were.
func TestWholeListStreamsTheSameBytes(t *testing.T) {
	t.Parallel()
	for _, st := range wholeListStores() {
		t.Run(st.name, func(t *testing.T) {
			t.Parallel()
			env := apitest.New(t, st.opts...)
			acct := env.NewAccount(t, "Acme", "owner@acme.test")
			owner := env.Token("owner@acme.test", apitest.Verified())
			for _, n := range []int{0, 1, 12, lists.WholeListPage, lists.WholeListPage + 1, 2*lists.WholeListPage + 203} {
				name := fmt.Sprintf("List %d", n)
				list := seedWholeList(t, env, acct, owner, name, n)
				want := oldWholeListAnswer(t, env, acct, list)
				for _, q := range []string{"vendor-list-id=" + list, "vendor-list=" + url.QueryEscape(name)} {
					r := apitest.Must(t, env.Do(t, http.MethodGet, "/vendor-lists?account-id="+acct+"&"+q, owner, nil), http.StatusOK)
					if !bytes.Equal(r.Body, want) {
						t.Fatalf("%s, %s: %s", name, q, firstDifference(r.Body, want))
					}
					if ct, cc := r.Header.Get("Content-Type"), r.Header.Get("Cache-Control"); ct != "application/json" || cc != "no-store" {
						t.Fatalf("%s: Content-Type %q, Cache-Control %q", name, ct, cc)
					}
				}
				var body struct {
					List struct {
						VendorCount int `json:"vendor_count"`
					} `json:"list"`
					Vendors []json.RawMessage `json:"vendors"`
				}
				if err := json.Unmarshal(want, &body); err != nil || len(body.Vendors) != n || body.List.VendorCount != n {
					t.Fatalf("%s: the expected answer holds %d vendors (count %d): %v", name, len(body.Vendors), body.List.VendorCount, err)
				}
			}

			// Refused before anything is written: problem answers.
			outsider := env.Token("out@other.test", apitest.Verified())
			for _, c := range []struct {
				token, query string
				status       int
			}{
				{"", "vendor-list=master-list", http.StatusUnauthorized},
				{outsider, "vendor-list=master-list", http.StatusForbidden},
				{owner, "vendor-list=Nowhere", http.StatusNotFound},
				{owner, "vendor-list-id=" + uuid.NewString(), http.StatusNotFound},
				{owner, "vendor-list-id=not-a-uuid", http.StatusUnprocessableEntity},
			} {
				r := env.Do(t, http.MethodGet, "/vendor-lists?account-id="+acct+"&"+c.query, c.token, nil)
				var p struct{ Status int }
				if r.Status != c.status || r.Header.Get("Content-Type") != "application/problem+json" || json.Unmarshal(r.Body, &p) != nil || p.Status != c.status {
					t.Fatalf("%s: %d %s %s, want a %d problem", c.query, r.Status, r.Header.Get("Content-Type"), r.Body, c.status)
				}
			}
		})
	}
}

// TestWholeListAnswerCache: a list read whole in one read of the store (at
// most a page of vendors) is remembered as before, so a change made behind
// the service's back does not show at once; a longer list, streamed a page
// at a time, is never remembered, so it does.
func TestWholeListAnswerCache(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	acct := env.NewAccount(t, "Acme", "owner@acme.test")
	owner := env.Token("owner@acme.test", apitest.Verified())
	for _, c := range []struct {
		n          int
		remembered bool
	}{{lists.WholeListPage, true}, {lists.WholeListPage + 1, false}} {
		list := seedWholeList(t, env, acct, owner, fmt.Sprintf("List %d", c.n), c.n)
		path := "/vendor-lists?account-id=" + acct + "&vendor-list-id=" + list
		first := apitest.Must(t, env.Do(t, http.MethodGet, path, owner, nil), http.StatusOK).Body
		// Behind the service's back: the first vendor's alerts turned on
		// (seedWholeList turns them off for every fifth, the first too).
		err := env.Store.InTx(context.Background(), func(ctx context.Context, tx stores.Tx) error {
			es, err := tx.Lists().EntriesAfter(ctx, uuid.MustParse(list), lists.EntryKey{}, 1)
			if err != nil {
				return err
			}
			return tx.Lists().SetAlerts(ctx, uuid.MustParse(list), es[0].VendorID, true)
		})
		if err != nil {
			t.Fatal(err)
		}
		again := apitest.Must(t, env.Do(t, http.MethodGet, path, owner, nil), http.StatusOK).Body
		if remembered := bytes.Equal(again, first); remembered != c.remembered {
			t.Fatalf("a list of %d: remembered %v, want %v", c.n, remembered, c.remembered)
		}
		if !bytes.Equal(again, oldWholeListAnswer(t, env, acct, list)) != c.remembered {
			t.Fatalf("a list of %d: the second answer is not the store's", c.n)
		}
	}
}

// pagesFail is a memory store whose reads of some entries of a list by
// vendor fail when they are fewer than a page: the last page of a long list
// (a list of one page is read otherwise).
// Reading the order of the list keysDown names fails as an outage.
type pagesFail struct {
	*memstore.Store
	keysDown *atomic.Pointer[uuid.UUID]
}

func (s pagesFail) View(ctx context.Context, fn func(context.Context, stores.Tx) error) error {
	return s.Store.View(ctx, func(ctx context.Context, tx stores.Tx) error { return fn(ctx, pagesFailTx{tx, s.keysDown}) })
}

type pagesFailTx struct {
	stores.Tx
	keysDown *atomic.Pointer[uuid.UUID]
}

func (t pagesFailTx) Lists() lists.ListRepo { return pagesFailLists{t.Tx.Lists(), t.keysDown} }

type pagesFailLists struct {
	lists.ListRepo
	keysDown *atomic.Pointer[uuid.UUID]
}

func (r pagesFailLists) EntryKeys(ctx context.Context, id uuid.UUID) ([]lists.EntryKey, error) {
	if down := r.keysDown.Load(); down != nil && id == *down {
		return nil, fmt.Errorf("keys: %w", core.ErrUnavailable)
	}
	return r.ListRepo.EntryKeys(ctx, id)
}

func (r pagesFailLists) EntriesOf(ctx context.Context, id uuid.UUID, vendorIDs []uuid.UUID) ([]lists.Entry, error) {
	if len(vendorIDs) < lists.WholeListPage {
		return nil, errors.New("the store went away")
	}
	return r.ListRepo.EntriesOf(ctx, id, vendorIDs)
}

// TestWholeListAbortsWhenTheStoreFails: a store that fails once the answer
// has begun aborts it, so that the client gets an error, not a short list
// that parses; one that fails before the first page is answered with its
// problem (503); a list of one page is still answered.
func TestWholeListAbortsWhenTheStoreFails(t *testing.T) {
	t.Parallel()
	keysDown := new(atomic.Pointer[uuid.UUID])
	env := apitest.New(t, apitest.WithStore(func(testing.TB) stores.Store { return pagesFail{memstore.New(), keysDown} }))
	acct := env.NewAccount(t, "Acme", "owner@acme.test")
	owner := env.Token("owner@acme.test", apitest.Verified())
	short := seedWholeList(t, env, acct, owner, "Short", lists.WholeListPage)
	long := seedWholeList(t, env, acct, owner, "Long", lists.WholeListPage+1)
	get := func(list string) (int, []byte, error) {
		req, err := http.NewRequest(http.MethodGet, env.URL+"/vendor-lists?account-id="+acct+"&vendor-list-id="+list, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+owner)
		res, err := env.Client.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		return res.StatusCode, b, err
	}
	if status, b, err := get(short); err != nil || status != http.StatusOK || !json.Valid(b) {
		t.Fatalf("a list of one page: %d, %v, %d bytes", status, err, len(b))
	}
	status, b, err := get(long)
	if err == nil {
		t.Fatalf("a list whose second page failed: %d and %d bytes, no error (valid JSON: %v)", status, len(b), json.Valid(b))
	}
	down := seedWholeList(t, env, acct, owner, "Down", lists.WholeListPage+1)
	downID := uuid.MustParse(down)
	keysDown.Store(&downID)
	r := env.Do(t, http.MethodGet, "/vendor-lists?account-id="+acct+"&vendor-list-id="+down, owner, nil)
	if r.Status != http.StatusServiceUnavailable || r.Header.Get("Content-Type") != "application/problem+json" || r.Header.Get("Retry-After") == "" {
		t.Fatalf("a list whose order could not be read: %d %v %s", r.Status, r.Header, r.Body)
	}
}

// BenchmarkWholeListRead reads a list of 5,000 vendors whole
// (GET /vendor-lists?vendor-list-id=, no shape parameters) through HTTP,
// the body read and dropped by the client, by one client and by 64 at once;
// besides B/op it reports the peak of the process's heap (objects, live or
// not yet swept) above what it was before the reads: what the answers hold
// in memory while they are made. The answer is over 1 MB, so that the API
// does not remember it and every read is made. On the store VETTED_TEST_STORE
// names (memory when unset); see bench/read.sh for the server's RSS.
func BenchmarkWholeListRead(b *testing.B) {
	env := apitest.New(b)
	acct := env.NewAccount(b, "Bench", "o@bench.test")
	tok := env.Token("o@bench.test")
	list := seedWholeList(b, env, acct, tok, "Whole", 5000)
	env.Drain(b)
	url := env.URL + "/vendor-lists?account-id=" + acct + "&vendor-list-id=" + list
	read := func() int64 {
		req, err := http.NewRequest(http.MethodGet, url, nil)
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		res, err := env.Client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer res.Body.Close()
		n, err := io.Copy(io.Discard, res.Body)
		if err != nil || res.StatusCode != http.StatusOK {
			b.Fatalf("status %d, %d bytes, %v", res.StatusCode, n, err)
		}
		return n
	}
	if n := read(); n <= 1<<20 {
		b.Fatalf("the answer is %d bytes: the API would remember it", n)
	}
	for _, clients := range []int{1, 64} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			peak := heapPeak(b)
			b.ReportAllocs()
			b.ResetTimer()
			if clients == 1 {
				for range b.N {
					read()
				}
			} else {
				b.SetParallelism((clients + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						read()
					}
				})
			}
			b.StopTimer()
			b.ReportMetric(peak()/(1<<20), "peak-heap-MB")
		})
	}
}

// heapPeak samples the heap's objects every millisecond from now until the
// function it returns is called, which gives the peak above the heap as it
// was at first (after a collection), in bytes.
func heapPeak(b *testing.B) func() float64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	var peak atomic.Uint64
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		s := []metrics.Sample{{Name: sample[0].Name}}
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				metrics.Read(s)
				if v := s[0].Value.Uint64(); v > peak.Load() {
					peak.Store(v)
				}
			}
		}
	}()
	return func() float64 {
		close(done)
		<-stopped
		return float64(max(peak.Load(), base) - base)
	}
}
