package api_test

import (
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"testing"

	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// The enrichment quota holds when saves race: with 480 custom vendors
// claimed, 20 concurrent saves of 2 new vendors each (40 in all, on 20
// lists) queue exactly 20 more and the account ends at 500, never above.
// Run on every store of the HTTP suite (VETTED_TEST_STORE).
func TestQuotaHoldsUnderConcurrentSaves(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	acct := env.NewAccount(t, "Race Quota Inc", "owner@race.test")
	owner := env.Token("owner@race.test", apitest.Verified())
	q := "?account-id=" + url.QueryEscape(acct)
	first := make([]string, 480)
	for i := range first {
		first[i] = fmt.Sprintf("Quota Base %03d", i)
	}
	env.SaveVendors(t, owner, acct, first...)
	lists := make([]string, 20)
	for i := range lists {
		lists[i] = apitest.Must(t, env.Do(t, http.MethodPost, fmt.Sprintf("/vendor-lists%s&vendor-list=race-%02d", q, i), owner, nil), 201).Map(t)["id"].(string)
	}

	queued := make([]int, len(lists))
	var wg sync.WaitGroup
	for i, l := range lists {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := map[string]any{"vendors": []string{fmt.Sprintf("Race A %02d", i), fmt.Sprintf("Race B %02d", i)}}
			res := env.Do(t, http.MethodPost, "/vendor-lists"+q+"&operation=save-vendors&vendor-list-id="+l, owner, body)
			if res.Status != 200 {
				t.Errorf("save %d: %d %s", i, res.Status, res.Body)
				return
			}
			queued[i] = int(res.Map(t)["org_enrichment"].(map[string]any)["queued"].(float64))
		}()
	}
	wg.Wait()
	total := 0
	for _, n := range queued {
		total += n
	}
	if total != 20 {
		t.Fatalf("queued %d new custom vendors in all (%v); the quota leaves room for 20", total, queued)
	}
	// A save that adds nothing reports the quota as it stands.
	res := apitest.Must(t, env.Do(t, http.MethodPost, "/vendor-lists"+q+"&operation=save-vendors&vendor-list-id="+lists[0], owner,
		map[string]any{"vendors": []string{"Race A 00", "Race B 00", "Quota Base 000"}}), 200).Map(t)
	quota := res["org_enrichment"].(map[string]any)["quota"].(map[string]any)
	if quota["used"].(float64) != 500 || quota["remaining"].(float64) != 0 {
		t.Fatalf("quota after the race = %v, want used 500", quota)
	}
}

// A vendor saved into two lists at the same time is one directory entry,
// on both lists under the same id.
func TestConcurrentSavesShareOneDirectoryEntry(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	acct := env.NewAccount(t, "Shared Entry Inc", "owner@shared.test")
	owner := env.Token("owner@shared.test", apitest.Verified())
	q := "?account-id=" + url.QueryEscape(acct)
	lists := make([]string, 10)
	for i := range lists {
		lists[i] = apitest.Must(t, env.Do(t, http.MethodPost, fmt.Sprintf("/vendor-lists%s&vendor-list=shared-%d", q, i), owner, nil), 201).Map(t)["id"].(string)
	}
	var wg sync.WaitGroup
	for _, l := range lists {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := env.Do(t, http.MethodPost, "/vendor-lists"+q+"&operation=save-vendors&vendor-list-id="+l, owner,
				map[string]any{"vendors": []any{"Twice Saved Corp", map[string]string{"vendor_name": "twice saved", "website_url": "https://twice.example"}}})
			if res.Status != 200 {
				t.Errorf("save: %d %s", res.Status, res.Body)
			}
		}()
	}
	wg.Wait()
	var all struct {
		Vendors []struct{ ID, Name string } `json:"vendors"`
	}
	apitest.Must(t, env.Do(t, http.MethodGet, "/vendors/all", owner, nil), 200).JSON(t, &all)
	var ids []string
	for _, v := range all.Vendors {
		if v.Name == "Twice Saved" {
			ids = append(ids, v.ID)
		}
	}
	if len(ids) != 1 {
		t.Fatalf("directory entries named Twice Saved: %v", ids)
	}
	for _, l := range lists {
		vs := apitest.Must(t, env.Do(t, http.MethodGet, "/vendor-lists"+q+"&vendor-list-id="+l, owner, nil), 200).Map(t)["vendors"].([]any)
		if len(vs) != 1 || vs[0].(map[string]any)["vendor_id"] != ids[0] {
			t.Fatalf("list %s: %v", l, vs)
		}
	}
}

// The batches of one CSV sent at the same time leave the list exactly as
// the same batches sent one after the other.
func TestConcurrentCSVBatchesEqualSequential(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	tok := env.Token("o@csvrace.test")
	seq := env.NewAccount(t, "CSV Sequential", "o@csvrace.test")
	par := env.NewAccount(t, "CSV Concurrent", "o@csvrace.test")
	csv := csvRows(500)
	const batch = 50
	for off := 0; off < 500; off += batch {
		apitest.Must(t, importCSV(t, env, tok, seq, map[string]any{"csv": csv, "row_offset": off, "row_limit": batch}), 200)
	}
	var wg sync.WaitGroup
	for off := 0; off < 500; off += batch {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if res := importCSV(t, env, tok, par, map[string]any{"csv": csv, "row_offset": off, "row_limit": batch}); res.Status != 200 {
				t.Errorf("batch at %d: %d %s", off, res.Status, res.Body)
			}
		}()
	}
	wg.Wait()
	if a, b := listState(t, env, seq, tok), listState(t, env, par, tok); a != b {
		t.Fatalf("concurrent batches differ from sequential ones:\n%s\n---\n%s", a, b)
	}
}
