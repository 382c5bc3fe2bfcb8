package api_test

import (
	"fmt"
	"net/http"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// listState renders every list of an account with its vendors, products
// and alerts, to compare states.
func listState(t *testing.T, env *apitest.Env, acct, tok string) string {
	t.Helper()
	var b strings.Builder
	ls := apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+acct, tok, nil), 200).Map(t)["lists"].([]any)
	for _, l := range ls {
		lm := l.(map[string]any)
		fmt.Fprintf(&b, "list %s (%v)\n", lm["name"], lm["vendor_count"])
		one := apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+acct+"&vendor-list-id="+lm["id"].(string), tok, nil), 200).Map(t)
		for _, v := range one["vendors"].([]any) {
			vm := v.(map[string]any)
			var ps []string
			for _, p := range vm["products"].([]any) {
				ps = append(ps, p.(map[string]any)["product_name"].(string))
			}
			sort.Strings(ps)
			fmt.Fprintf(&b, "  %s %s alerts=%v products=%v\n", vm["vendor_name"], vm["website_url"], vm["alerts_enabled"], ps)
		}
	}
	as := env.Do(t, "GET", "/vendor-assessments?account-id="+acct+"&vendor-list=master-list", tok, nil)
	if as.Status == 200 {
		var body struct {
			Assessments []map[string]any `json:"assessments"`
		}
		as.JSON(t, &body)
		var rows []string
		for _, a := range body.Assessments {
			rows = append(rows, fmt.Sprintf("  assessment %v %v %v %v", a["vendor_name"], a["compliance_approval_status"], a["use_case"], a["data_collected"]))
		}
		sort.Strings(rows)
		b.WriteString(strings.Join(rows, "\n"))
	}
	return b.String()
}

func names(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(map[string]any)["vendor_name"].(string))
	}
	sort.Strings(out)
	return out
}

func TestSaveVendorsReplacesMembership(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	acct := env.NewAccount(t, "Acme", "o@a.test")
	tok := env.Token("o@a.test")
	r := env.SaveVendors(t, tok, acct, "Slack", "Zoom, Inc.", "Notion")
	if got := names(r["added"]); strings.Join(got, ",") != "Notion,Slack,Zoom" {
		t.Fatalf("added %v (Zoom, Inc. canonicalises to Zoom)", got)
	}
	oe := r["org_enrichment"].(map[string]any)
	if oe["queued"].(float64) != 3 || oe["quota"].(map[string]any)["used"].(float64) != 3 || oe["quota"].(map[string]any)["remaining"].(float64) != 497 {
		t.Fatalf("org_enrichment %v", oe)
	}
	// Omitted vendors are removed; objects with website_url are accepted.
	r = apitest.Must(t, env.Do(t, "POST", "/vendor-lists?operation=save-vendors&account-id="+acct, tok, map[string]any{
		"vendors": []any{"slack", map[string]string{"vendor_name": "Figma", "website_url": "https://www.figma.com"}}}), 200).Map(t)
	if got := names(r["removed"]); strings.Join(got, ",") != "Notion,Zoom" {
		t.Fatalf("removed %v", got)
	}
	if got := names(r["added"]); strings.Join(got, ",") != "Figma" {
		t.Fatalf("added %v", got)
	}
	if r["unchanged"].(float64) != 1 {
		t.Fatalf("unchanged %v", r["unchanged"])
	}
	oe = r["org_enrichment"].(map[string]any)
	if oe["queued"].(float64) != 1 || oe["quota"].(map[string]any)["used"].(float64) != 4 {
		t.Fatalf("org_enrichment %v", oe)
	}
	// Re-adding a vendor the account already had enriched is already known.
	r = env.SaveVendors(t, tok, acct, "Slack", "Figma", "Zoom")
	oe = r["org_enrichment"].(map[string]any)
	if oe["queued"].(float64) != 0 || oe["already_known"].(float64) != 1 || oe["quota"].(map[string]any)["used"].(float64) != 4 {
		t.Fatalf("org_enrichment on re-add %v", oe)
	}
	// Newly queued custom vendors are enriched by the worker.
	env.Drain(t)
	if env.Enricher.Calls("Figma") != 1 {
		t.Fatalf("Figma enriched %d times, want 1", env.Enricher.Calls("Figma"))
	}
	v := apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+acct+"&vendor-list=master-list", tok, nil), 200).Map(t)["vendors"].([]any)
	if len(v) != 3 {
		t.Fatalf("%d vendors on the list, want 3", len(v))
	}
	for _, e := range v {
		if e.(map[string]any)["is_custom"] == true {
			t.Fatalf("vendor still custom after enrichment: %v", e)
		}
	}
	// Save to a named list.
	apitest.Must(t, env.Do(t, "POST", "/vendor-lists?account-id="+acct+"&vendor-list=Critical", tok, nil), 201)
	apitest.Must(t, env.Do(t, "POST", "/vendor-lists?operation=save-vendors&vendor-list=Critical&account-id="+acct, tok, map[string]any{"vendors": []string{"Okta"}}), 200)
	if s := listState(t, env, acct, tok); !strings.Contains(s, "list Critical (1)\n  Okta") {
		t.Fatalf("named list state:\n%s", s)
	}
}

func TestEnrichmentQuota(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	acct := env.NewAccount(t, "Acme", "o@a.test")
	tok := env.Token("o@a.test")
	var vs []string
	for i := 0; i < 500; i++ {
		vs = append(vs, fmt.Sprintf("Custom Vendor %03d", i))
	}
	r := env.SaveVendors(t, tok, acct, vs...)
	oe := r["org_enrichment"].(map[string]any)
	if oe["queued"].(float64) != 500 || oe["quota"].(map[string]any)["remaining"].(float64) != 0 {
		t.Fatalf("first 500: %v", oe["quota"])
	}
	r = env.SaveVendors(t, tok, acct, append(vs, "Custom Vendor 500")...)
	oe = r["org_enrichment"].(map[string]any)
	errs := oe["errors"].([]any)
	if oe["queued"].(float64) != 0 || len(errs) != 1 || errs[0].(map[string]any)["vendor_name"] != "Custom Vendor 500" || errs[0].(map[string]any)["code"] != "quota_exceeded" {
		t.Fatalf("501st: %v", oe)
	}
	if r["list"].(map[string]any)["vendor_count"].(float64) != 501 {
		t.Fatalf("the 501st vendor was not saved: %v", r["list"])
	}
	// The quota is per organization: another account starts at zero.
	b := env.NewAccount(t, "Beta", "o@b.test")
	r = env.SaveVendors(t, env.Token("o@b.test"), b, "Custom Vendor 500")
	if r["org_enrichment"].(map[string]any)["queued"].(float64) != 1 {
		t.Fatalf("other account: %v", r["org_enrichment"])
	}
}

func csvRows(n int) string {
	var b strings.Builder
	b.WriteString("vendor_name,website_url,product_name,compliance_approval_status,use_case,data_collected\n")
	for i := 0; i < n; i++ {
		// Every tenth vendor appears twice with a second product.
		v := i
		if i%10 == 9 {
			v = i - 1
		}
		fmt.Fprintf(&b, "Vendor %03d,https://vendor%03d.example,Product %d,in-progress,Use %d,email;name\n", v, v, i, v)
	}
	return b.String()
}

func importCSV(t *testing.T, env *apitest.Env, tok, acct string, body map[string]any) *apitest.Resp {
	t.Helper()
	return env.Do(t, "POST", "/vendor-lists?operation=import-csv&account-id="+acct, tok, body)
}

func TestImportCSVBatches(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	tok := env.Token("o@a.test")
	one := env.NewAccount(t, "One", "o@a.test")
	many := env.NewAccount(t, "Many", "o@a.test")
	csv := csvRows(500)

	r := apitest.Must(t, importCSV(t, env, tok, one, map[string]any{"csv": csv, "row_limit": 500}), 200).Map(t)
	if r["has_more"] != false || r["rows_processed"].(float64) != 500 || r["next_row_offset"].(float64) != 500 {
		t.Fatalf("one batch: %v", r)
	}
	if r["vendors_added"].(float64) != 450 || r["products_added"].(float64) != 500 || r["assessments_upserted"].(float64) != 450 {
		t.Fatalf("one batch counts: added %v products %v assessments %v", r["vendors_added"], r["products_added"], r["assessments_upserted"])
	}
	offset, batches := 0, 0
	for {
		r := apitest.Must(t, importCSV(t, env, tok, many, map[string]any{"csv": csv, "row_offset": offset, "row_limit": 100}), 200).Map(t)
		batches++
		if r["row_offset"].(float64) != float64(offset) {
			t.Fatalf("row_offset %v, want %d", r["row_offset"], offset)
		}
		if r["has_more"] == false {
			break
		}
		offset = int(r["next_row_offset"].(float64))
		if batches > 10 {
			t.Fatal("has_more never turned false")
		}
	}
	if batches != 5 {
		t.Fatalf("%d batches, want 5", batches)
	}
	if a, b := listState(t, env, one, tok), listState(t, env, many, tok); a != b {
		t.Fatalf("batched import differs from one batch:\n%s\n---\n%s", a, b)
	}
	// Re-running a batch changes nothing.
	before := listState(t, env, many, tok)
	r = apitest.Must(t, importCSV(t, env, tok, many, map[string]any{"csv": csv, "row_offset": 100, "row_limit": 100}), 200).Map(t)
	if r["vendors_added"].(float64) != 0 || r["products_added"].(float64) != 0 || r["assessments_upserted"].(float64) != 0 {
		t.Fatalf("re-run wrote: %v", r)
	}
	if after := listState(t, env, many, tok); after != before {
		t.Fatalf("re-run changed state:\n%s\n---\n%s", before, after)
	}
}

func TestImportCSVDryRunAndLimits(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	acct := env.NewAccount(t, "Acme", "o@a.test")
	tok := env.Token("o@a.test")
	env.SaveVendors(t, tok, acct, "Slack")
	env.Drain(t) // Slack gets a profile: not custom any more
	before := listState(t, env, acct, tok)
	pendingBefore := env.Pending(t)

	r := apitest.Must(t, importCSV(t, env, tok, acct, map[string]any{"dry_run": true,
		"csv": "vendor_name,product_name\nSlack,Huddles\nBrand New Labs,Thing\nbad row url,\n"}), 200).Map(t)
	if r["dry_run"] != true || r["vendors_added"].(float64) != 2 || r["products_added"].(float64) != 2 {
		t.Fatalf("dry run report %v", r)
	}
	if cv := r["custom_vendors"].([]any); len(cv) != 2 || cv[0] != "Brand New Labs" {
		t.Fatalf("custom_vendors %v", cv)
	}
	if after := listState(t, env, acct, tok); after != before {
		t.Fatalf("dry run wrote:\n%s\n---\n%s", before, after)
	}
	if env.Pending(t) != pendingBefore {
		t.Fatal("dry run queued side effects")
	}
	// Dry run reports bad cells; a real run refuses the whole batch.
	bad := "vendor_name,website_url,compliance_approval_status\nGood One,,approved\n,https://x.example,\nBad Url,ftp://x,\nBad Status,,maybe\n"
	r = apitest.Must(t, importCSV(t, env, tok, acct, map[string]any{"dry_run": true, "csv": bad}), 200).Map(t)
	if n := len(r["errors"].([]any)); n != 3 {
		t.Fatalf("dry run errors %v, want 3", r["errors"])
	}
	res := apitest.Must(t, importCSV(t, env, tok, acct, map[string]any{"csv": bad}), 422)
	detail, cells := problemCells(t, res)
	want := []string{"body.csv row 2 vendor_name", "body.csv row 3 website_url", "body.csv row 4 compliance_approval_status"}
	if !reflect.DeepEqual(cells, want) {
		t.Fatalf("422 cells = %q, want %q: %s", cells, want, res.Body)
	}
	if strings.Count(detail, "the batch was not imported") != 1 {
		t.Fatalf("detail repeats itself: %q", detail)
	}
	if after := listState(t, env, acct, tok); after != before {
		t.Fatal("a refused batch wrote")
	}
	// Conditional approval needs a condition, also in CSV.
	apitest.Must(t, importCSV(t, env, tok, acct, map[string]any{"csv": "vendor_name,compliance_approval_status\nSlack,conditional approval\n"}), 422)

	// Limits: 1 MB + 1 byte is 413; 501 data rows is 422; both write nothing.
	big := "vendor_name\n" + strings.Repeat("x", 1<<20-len("vendor_name\n")+1)
	if len(big) != 1<<20+1 {
		t.Fatalf("test CSV is %d bytes", len(big))
	}
	apitest.Must(t, importCSV(t, env, tok, acct, map[string]any{"csv": big}), http.StatusRequestEntityTooLarge)
	exact := "vendor_name\n" + strings.Repeat("x", 1<<20-len("vendor_name\n"))
	apitest.Must(t, importCSV(t, env, tok, acct, map[string]any{"csv": exact, "dry_run": true}), 200)
	apitest.Must(t, importCSV(t, env, tok, acct, map[string]any{"csv": csvRows(501), "row_limit": 10}), 422)
	apitest.Must(t, importCSV(t, env, tok, acct, map[string]any{"csv": "vendor_name,colour\nSlack,red\n"}), 422)
	apitest.Must(t, importCSV(t, env, tok, acct, map[string]any{"csv": "website_url\nhttps://x.example\n"}), 422)
	apitest.Must(t, importCSV(t, env, tok, acct, map[string]any{"csv": csvRows(10), "row_offset": 11}), 422)
	apitest.Must(t, importCSV(t, env, tok, acct, map[string]any{"csv": csvRows(10), "row_limit": 501}), 422)
	if after := listState(t, env, acct, tok); after != before {
		t.Fatal("a refused import wrote")
	}
}

func TestProductsAlertsAndListLifecycle(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	acct := env.NewAccount(t, "Acme", "o@a.test")
	tok := env.Token("o@a.test")
	r := env.SaveVendors(t, tok, acct, "Slack")
	list := r["list"].(map[string]any)["id"].(string)
	vendorID := r["added"].([]any)[0].(map[string]any)["vendor_id"].(string)
	products := "/vendor-lists/" + list + "/vendors/" + vendorID + "/products?account-id=" + acct

	p := apitest.Must(t, env.Do(t, "POST", products, tok, map[string]any{"product_name": "Huddles"}), 201).Map(t)
	if p["product_name"] != "Huddles" || p["id"] == "" {
		t.Fatalf("product %v", p)
	}
	apitest.Must(t, env.Do(t, "POST", products, tok, map[string]any{"product_name": "huddles"}), 409)
	apitest.Must(t, env.Do(t, "POST", products, tok, map[string]any{"product_name": ""}), 422)
	// A vendor not on the list, and a list of another account, are not found.
	other := env.SaveVendors(t, tok, acct, "Slack", "Zoom")["added"].([]any)[0].(map[string]any)["vendor_id"].(string)
	env.SaveVendors(t, tok, acct, "Slack")
	apitest.Must(t, env.Do(t, "POST", "/vendor-lists/"+list+"/vendors/"+other+"/products?account-id="+acct, tok, map[string]any{"product_name": "X"}), 404)

	alerts := "/vendor-lists?operation=alerts-enabled&account-id=" + acct + "&vendor-list=" + list
	e := apitest.Must(t, env.Do(t, "PATCH", alerts, tok, map[string]any{"vendor-id": vendorID, "alerts_enabled": false}), 200).Map(t)
	if e["alerts_enabled"] != false || len(e["products"].([]any)) != 1 {
		t.Fatalf("alerts answer %v", e)
	}
	apitest.Must(t, env.Do(t, "PATCH", alerts, tok, map[string]any{"vendor-id": other, "alerts_enabled": false}), 404)
	apitest.Must(t, env.Do(t, "PATCH", alerts, tok, map[string]any{"vendor-id": vendorID}), 422)

	// Lists: duplicate name 409, master-list cannot be deleted, delete by id.
	apitest.Must(t, env.Do(t, "POST", "/vendor-lists?account-id="+acct+"&vendor-list=Critical", tok, nil), 201)
	apitest.Must(t, env.Do(t, "POST", "/vendor-lists?account-id="+acct+"&vendor-list=Critical", tok, nil), 409)
	apitest.Must(t, env.Do(t, "DELETE", "/vendor-lists?account-id="+acct+"&vendor-list-id="+list, tok, nil), 422)
	d := apitest.Must(t, env.Do(t, "DELETE", "/vendor-lists?account-id="+acct+"&vendor-list=Critical", tok, nil), 200).Map(t)
	if d["deleted"].(map[string]any)["name"] != "Critical" {
		t.Fatalf("delete answer %v", d)
	}
	apitest.Must(t, env.Do(t, "DELETE", "/vendor-lists?account-id="+acct+"&vendor-list=Critical", tok, nil), 404)
}

func TestBadInputChangesNothing(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	acct := env.NewAccount(t, "Acme", "o@a.test")
	tok := env.Token("o@a.test")
	env.SaveVendors(t, tok, acct, "Slack", "Zoom")
	before := listState(t, env, acct, tok)
	cases := []struct {
		name, method, path string
		body               any
		want               int
	}{
		{"malformed json", "POST", "/vendor-lists?operation=save-vendors&account-id=" + acct, `{"vendors": [`, 400},
		{"unknown operation", "POST", "/vendor-lists?operation=drop-everything&account-id=" + acct, map[string]any{"vendors": []string{}}, 422},
		{"bad account uuid", "POST", "/vendor-lists?operation=save-vendors&account-id=not-a-uuid", map[string]any{"vendors": []string{}}, 422},
		{"missing account-id", "POST", "/vendor-lists?operation=save-vendors", map[string]any{"vendors": []string{}}, 422},
		{"bad list uuid", "POST", "/vendor-lists?operation=save-vendors&vendor-list-id=nope&account-id=" + acct, map[string]any{"vendors": []string{}}, 422},
		{"unknown list", "POST", "/vendor-lists?operation=save-vendors&vendor-list=Nope&account-id=" + acct, map[string]any{"vendors": []string{}}, 404},
		{"vendors missing", "POST", "/vendor-lists?operation=save-vendors&account-id=" + acct, map[string]any{}, 422},
		{"unknown body field", "POST", "/vendor-lists?operation=save-vendors&account-id=" + acct, map[string]any{"vendors": []string{}, "purge": true}, 422},
		{"bad vendor entry", "POST", "/vendor-lists?operation=save-vendors&account-id=" + acct, map[string]any{"vendors": []any{42}}, 422},
		{"bad website", "POST", "/vendor-lists?operation=save-vendors&account-id=" + acct, map[string]any{"vendors": []any{map[string]string{"vendor_name": "X", "website_url": "javascript:alert(1)"}}}, 422},
		{"blank vendor", "POST", "/vendor-lists?operation=save-vendors&account-id=" + acct, map[string]any{"vendors": []string{"Slack", "  "}}, 422},
		{"bad vendor-id", "PATCH", "/vendor-lists?operation=alerts-enabled&vendor-list=master-list&account-id=" + acct, map[string]any{"vendor-id": "x", "alerts_enabled": true}, 422},
		{"missing list name", "POST", "/vendor-lists?account-id=" + acct, nil, 422},
	}
	for _, c := range cases {
		r := env.Do(t, c.method, c.path, tok, c.body)
		if r.Status != c.want {
			t.Fatalf("%s: status %d, want %d: %s", c.name, r.Status, c.want, r.Body)
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/problem+json" {
			t.Fatalf("%s: content type %q", c.name, ct)
		}
		var prob struct {
			Title  string `json:"title"`
			Status int    `json:"status"`
			Detail string `json:"detail"`
		}
		r.JSON(t, &prob)
		if prob.Status != c.want || prob.Title == "" {
			t.Fatalf("%s: problem body %s", c.name, r.Body)
		}
	}
	if after := listState(t, env, acct, tok); after != before {
		t.Fatalf("bad input changed state:\n%s\n---\n%s", before, after)
	}
}
