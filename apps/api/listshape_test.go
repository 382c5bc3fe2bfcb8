package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/ports/stores"
)

type shapedPage struct {
	Vendors []struct {
		VendorName  string `json:"vendor_name"`
		VendorID    string `json:"vendor_id"`
		ReviewState string `json:"review_state"`
		Tier        string `json:"tier"`
	} `json:"vendors"`
	NextCursor string `json:"next_cursor"`
}

// TestListReadShaped: q searches vendor and product names, filters and
// sorts apply, the whole list is answered without any new parameter, and
// unknown values are 422 naming the parameter.
func TestListReadShaped(t *testing.T) {
	t.Parallel()
	o := newOrg(t) // Slack, Zoom on master-list
	env := o.env
	apitest.Must(t, env.Do(t, "POST", "/vendor-lists?operation=import-csv&account-id="+o.acct+"&vendor-list-id="+o.master, o.owner,
		map[string]any{"csv": "vendor_name,product_name,tier,compliance_approval_status\nAsana,Work Graph,high,approved\nBox,Zoom Rooms Connector,,\nSlack,,critical,rejected\n"}), 200)
	read := func(extra string) shapedPage {
		t.Helper()
		var p shapedPage
		apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+o.acct+"&vendor-list-id="+o.master+extra, o.owner, nil), 200).JSON(t, &p)
		return p
	}
	names := func(p shapedPage) string {
		var out []string
		for _, v := range p.Vendors {
			out = append(out, v.VendorName)
		}
		return fmt.Sprint(out)
	}
	for _, c := range []struct{ extra, want string }{
		{"", "[Asana Box Slack Zoom]"},
		{"&q=ZOOM", "[Box Zoom]"},
		{"&q=graph", "[Asana]"},
		{"&review-state=never_reviewed", "[Box Zoom]"},
		{"&review-state=current&sort=next_review_at", "[Slack Asana]"},
		{"&sort=status", "[Asana Slack Box Zoom]"},
		{"&alerts=false", "[]"},
		{"&enrichment-state=none,done,queued,running,failed", "[Asana Box Slack Zoom]"},
	} {
		if got := names(read(c.extra)); got != c.want {
			t.Fatalf("%q: %s, want %s", c.extra, got, c.want)
		}
	}
	if p := read("&sort=next_review_at"); p.Vendors[0].Tier != "critical" || p.Vendors[0].ReviewState != "current" {
		t.Fatalf("shaped entries carry the review: %+v", p.Vendors[0])
	}
	for _, bad := range []struct{ extra, loc string }{
		{"&sort=size", "query.sort"},
		{"&review-state=late", "query.review-state"},
		{"&enrichment-state=stale", "query.enrichment-state"},
		{"&alerts=maybe", "query.alerts"},
		{"&limit=501", "query.limit"},
		{"&limit=2&cursor=nonsense", "query.cursor"},
	} {
		r := apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+o.acct+"&vendor-list-id="+o.master+bad.extra, o.owner, nil), 422)
		if !containsLocation(t, r, bad.loc) {
			t.Fatalf("%s: 422 without %s: %s", bad.extra, bad.loc, r.String())
		}
	}
	// A cursor of one sort is refused with another.
	c := read("&limit=1").NextCursor
	r := apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+o.acct+"&vendor-list-id="+o.master+"&limit=1&sort=status&cursor="+c, o.owner, nil), 422)
	if !containsLocation(t, r, "query.cursor") {
		t.Fatalf("cursor of another sort: %s", r.String())
	}
}

// TestListPagingUnderWrites: while another client adds vendors of its own
// (import-csv) and takes them off the list again (in the store), a walk in pages of 7 sees every vendor present throughout
// exactly once, in every sort.
func TestListPagingUnderWrites(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	var csv = "vendor_name,tier,compliance_approval_status\n"
	for i := range 60 {
		tier, status := []string{"critical", "high", "", "low"}[i%4], []string{"approved", "", "in-progress"}[i%3]
		csv += fmt.Sprintf("Stable %02d,%s,%s\n", i, tier, status)
	}
	apitest.Must(t, env.Do(t, "POST", "/vendor-lists?operation=import-csv&account-id="+o.acct+"&vendor-list-id="+o.master, o.owner,
		map[string]any{"csv": csv}), 200)
	list := uuid.MustParse(o.master)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var writes atomic.Int64
	wg.Add(1)
	go func() { // the other client: adds a vendor, then takes it off again
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			name := fmt.Sprintf("Churn %03d", i%40)
			env.Do(t, "POST", "/vendor-lists?operation=import-csv&account-id="+o.acct+"&vendor-list-id="+o.master, o.owner,
				map[string]any{"csv": "vendor_name,tier,compliance_approval_status\n" + name + ",high,approved\n"})
			_ = env.Store.InTx(context.Background(), func(ctx context.Context, tx stores.Tx) error {
				es, err := tx.Lists().Entries(ctx, list)
				for _, e := range es {
					if e.VendorName == name {
						return tx.Lists().RemoveEntries(ctx, list, []uuid.UUID{e.VendorID})
					}
				}
				return err
			})
			writes.Add(1)
		}
	}()
	defer func() { close(stop); wg.Wait() }()
	for _, sort := range []string{"name", "-rating", "next_review_at", "status"} {
		seen := map[string]int{}
		cursor := ""
		for pages := 0; ; pages++ {
			if pages > 100 {
				t.Fatalf("sort=%s: the walk does not end", sort)
			}
			var p shapedPage
			apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+o.acct+"&vendor-list-id="+o.master+"&limit=7&sort="+sort+"&cursor="+cursor, o.owner, nil), 200).JSON(t, &p)
			for _, v := range p.Vendors {
				seen[v.VendorName]++
			}
			if p.NextCursor == "" {
				break
			}
			cursor = p.NextCursor
			// The other client writes between every two pages (the walk
			// may otherwise outrun it: pages can be answered from memory).
			for before, deadline := writes.Load(), time.Now().Add(10*time.Second); writes.Load() == before; {
				if time.Now().After(deadline) {
					t.Fatalf("the other client wrote nothing for 10 s")
				}
				time.Sleep(time.Millisecond)
			}
		}
		for i := range 60 {
			if n := seen[fmt.Sprintf("Stable %02d", i)]; n != 1 {
				t.Fatalf("sort=%s: Stable %02d seen %d times", sort, i, n)
			}
		}
		for name, n := range seen {
			if n != 1 {
				t.Fatalf("sort=%s: %s seen %d times", sort, name, n)
			}
		}
	}
	if writes.Load() == 0 {
		t.Fatalf("the other client wrote nothing during the walk")
	}
}

// TestListPageByNameAsWholeRead: pages by name with nothing filtered are
// chosen from the entries' keys alone (the store reads whole entries for
// the page only); walked to the end they give what the whole read by name
// gives, vendor for vendor and field for field, names of mixed case
// included, and the same as a walk the filtering path makes (alerts=true
// keeps every vendor here but takes the path that reads every entry).
func TestListPageByNameAsWholeRead(t *testing.T) {
	t.Parallel()
	o := newOrg(t) // Slack, Zoom on master-list
	env := o.env
	apitest.Must(t, env.Do(t, "POST", "/vendor-lists?operation=import-csv&account-id="+o.acct+"&vendor-list-id="+o.master, o.owner,
		map[string]any{"csv": "vendor_name,product_name,tier,compliance_approval_status\nasana,Work Graph,high,approved\nBox,,,\n" +
			"zendesk,,low,rejected\nAtlassian,Jira,critical,in-progress\nbrex,,,\nÉclair Labs,,,\nadobe,,medium,\n"}), 200)
	whole := func(extra string) []byte {
		t.Helper()
		return apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+o.acct+"&vendor-list-id="+o.master+"&sort=name"+extra, o.owner, nil), 200).Body
	}
	walk := func(extra string) (rows []json.RawMessage, pages int) {
		t.Helper()
		cursor := ""
		for {
			var p struct {
				Vendors    []json.RawMessage `json:"vendors"`
				NextCursor string            `json:"next_cursor"`
			}
			apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+o.acct+"&vendor-list-id="+o.master+"&sort=name&limit=3"+extra+"&cursor="+cursor, o.owner, nil), 200).JSON(t, &p)
			rows, pages = append(rows, p.Vendors...), pages+1
			if p.NextCursor == "" {
				return rows, pages
			}
			cursor = p.NextCursor
		}
	}
	var all struct {
		Vendors []json.RawMessage `json:"vendors"`
	}
	if err := json.Unmarshal(whole(""), &all); err != nil {
		t.Fatal(err)
	}
	if len(all.Vendors) != 9 {
		t.Fatalf("whole read: %d vendors, want 9", len(all.Vendors))
	}
	byKeys, pages := walk("")
	filtered, _ := walk("&alerts=true")
	if pages != 3 {
		t.Fatalf("9 vendors in pages of 3: %d pages, want 3", pages)
	}
	for i := range all.Vendors {
		if i >= len(byKeys) || i >= len(filtered) {
			t.Fatalf("walks gave %d and %d rows, want %d", len(byKeys), len(filtered), len(all.Vendors))
		}
		if string(byKeys[i]) != string(all.Vendors[i]) || string(filtered[i]) != string(all.Vendors[i]) {
			t.Fatalf("row %d:\n by keys  %s\n filtered %s\n whole    %s", i, byKeys[i], filtered[i], all.Vendors[i])
		}
	}
}
