package api_test

import (
	"encoding/csv"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// TestExportRoundTrip: the register export answers text/csv with the
// issue's columns, and importing it into an empty list gives the same
// vendors, products, tiers and statuses; on the store VETTED_TEST_STORE
// names and on SQLite.
func TestExportRoundTrip(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		opts []apitest.Option
	}{{"default store", nil}, {"sqlite", []apitest.Option{apitest.OnSQLite()}}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			env := apitest.New(t, c.opts...)
			acct := env.NewAccount(t, "Acme", "owner@acme.test")
			owner := env.Token("owner@acme.test", apitest.Verified())
			master := env.SaveVendors(t, owner, acct, "Slack")["list"].(map[string]any)["id"].(string)
			importCSV := func(list, text string) {
				t.Helper()
				apitest.Must(t, env.Do(t, "POST", "/vendor-lists?operation=import-csv&account-id="+acct+"&vendor-list-id="+list, owner,
					map[string]any{"csv": text}), 200)
			}
			importCSV(master, "vendor_name,website_url,product_name,tier,compliance_approval_status,conditional_approval_condition,sponsor_contact\n"+
				"Slack,https://slack.com,Slack Enterprise,critical,approved,,it@acme.test\n"+
				"Slack,,\"Slack Connect, EU\",,,,\n"+
				"Zoom,,,,,,\n"+
				"Asana,,Asana Pro,low,conditional approval,\"SOC 2 report by June\",\n"+
				"Box,,,medium,in-progress,,\n")
			export := func(list string) [][]string {
				t.Helper()
				r := apitest.Must(t, env.Do(t, "GET", "/vendor-lists/export?format=csv&account-id="+acct+"&vendor-list-id="+list, owner, nil), 200)
				if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
					t.Fatalf("Content-Type %q", ct)
				}
				recs, err := csv.NewReader(strings.NewReader(r.String())).ReadAll()
				if err != nil {
					t.Fatalf("export is not CSV: %v\n%s", err, r.String())
				}
				return recs
			}
			first := export(master)
			want := []string{"vendor_name", "website_url", "product_name", "tier", "compliance_approval_status", "next_review_at",
				"review_state", "rating", "grade", "sponsor", "alerts_enabled", "conditional_approval_condition"}
			if !slices.Equal(first[0], want) {
				t.Fatalf("header %v", first[0])
			}
			if len(first) != 6 { // header + Asana, Box, Slack x2, Zoom
				t.Fatalf("%d records:\n%v", len(first), first)
			}
			byProduct := map[string][]string{}
			for _, r := range first[1:] {
				byProduct[r[0]+"/"+r[2]] = r
			}
			if r := byProduct["Slack/Slack Enterprise"]; r == nil || r[3] != "critical" || r[4] != "approved" ||
				r[5] != env.Clock.Date(0, 6, 0).Format(time.RFC3339) || r[6] != "current" || r[9] != "it@acme.test" || r[10] != "true" {
				t.Fatalf("Slack row %v", r)
			}
			if r := byProduct["Zoom/"]; r == nil || r[4] != "" || r[6] != "" {
				t.Fatalf("Zoom row (no assessment) %v", r)
			}
			if r := byProduct["Box/"]; r == nil || r[6] != "never_reviewed" || r[5] != "" {
				t.Fatalf("Box row %v", r)
			}

			copyList := apitest.Must(t, env.Do(t, "POST", "/vendor-lists?account-id="+acct+"&vendor-list=Copy", owner, nil), 201).Map(t)["id"].(string)
			var b strings.Builder
			w := csv.NewWriter(&b)
			_ = w.WriteAll(first)
			importCSV(copyList, b.String())
			second := export(copyList)
			key := func(recs [][]string) []string {
				var out []string
				for _, r := range recs[1:] {
					out = append(out, fmt.Sprint(r[0], "|", r[1], "|", r[2], "|", r[3], "|", r[4], "|", r[9], "|", r[11]))
				}
				slices.Sort(out)
				return out
			}
			if a, b := key(first), key(second); !slices.Equal(a, b) {
				t.Fatalf("round trip changed the register:\n%v\n%v", a, b)
			}
			// An unknown format is 422 naming the parameter.
			r := apitest.Must(t, env.Do(t, "GET", "/vendor-lists/export?format=pdf&account-id="+acct+"&vendor-list-id="+master, owner, nil), 422)
			if !containsLocation(t, r, "query.format") {
				t.Fatalf("format=pdf: %s", r.String())
			}
		})
	}
}

// TestExportNeutralizesFormulaCells: a register whose cells would run as
// formulas in a spreadsheet (vendor names, products, sponsors, conditions
// starting with =, +, -, @) is exported with a single quote before each of
// those cells (lists.NeutralizeCell), and the exported file imports
// back to the same values (lists.RestoreCell).
func TestExportNeutralizesFormulaCells(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	acct := env.NewAccount(t, "Acme", "owner@acme.test")
	owner := env.Token("owner@acme.test", apitest.Verified())
	master := env.SaveVendors(t, owner, acct, "Slack")["list"].(map[string]any)["id"].(string)
	importCSV := func(list string, recs [][]string) {
		t.Helper()
		var b strings.Builder
		w := csv.NewWriter(&b)
		_ = w.WriteAll(recs)
		apitest.Must(t, env.Do(t, "POST", "/vendor-lists?operation=import-csv&account-id="+acct+"&vendor-list-id="+list, owner,
			map[string]any{"csv": b.String()}), 200)
	}
	export := func(list string) [][]string {
		t.Helper()
		r := apitest.Must(t, env.Do(t, "GET", "/vendor-lists/export?format=csv&account-id="+acct+"&vendor-list-id="+list, owner, nil), 200)
		recs, err := csv.NewReader(strings.NewReader(r.String())).ReadAll()
		if err != nil {
			t.Fatalf("export is not CSV: %v\n%s", err, r.String())
		}
		return recs
	}
	hyperlink := `=HYPERLINK("http://evil.test","click")`
	importCSV(master, [][]string{
		{"vendor_name", "product_name", "sponsor_contact", "compliance_approval_status", "conditional_approval_condition"},
		{hyperlink, "", "", "", ""},
		{"+cmd", "@SUM(1)", "-sales@acme.test", "conditional approval", "=1+1"},
		{"@SUM(1)", "", "", "", ""},
		{"-1", "", "", "", ""},
		{"Plain", "'tis", "", "", ""},
	})
	first := export(master)
	cells := map[string]bool{}
	for _, r := range first[1:] {
		for _, c := range r {
			if c != "" && strings.ContainsRune("=+-@\t\r", rune(c[0])) {
				t.Errorf("exported cell %q starts with a formula character (row %q)", c, r)
			}
			cells[c] = true
		}
	}
	for _, want := range []string{"'" + hyperlink, "'+cmd", "'@SUM(1)", "'-1", "'-sales@acme.test", "'=1+1", "'tis", "Plain", "Slack"} {
		if !cells[want] {
			t.Errorf("export has no cell %q:\n%q", want, first)
		}
	}

	// The export imports back to the original values: the vendors of the
	// copy are named as those of master, and its export is the same file.
	copyList := apitest.Must(t, env.Do(t, "POST", "/vendor-lists?account-id="+acct+"&vendor-list=Copy", owner, nil), 201).Map(t)["id"].(string)
	importCSV(copyList, first)
	var got struct {
		Vendors []struct {
			VendorName string `json:"vendor_name"`
		} `json:"vendors"`
	}
	apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+acct+"&vendor-list-id="+copyList, owner, nil), 200).JSON(t, &got)
	var names []string
	for _, v := range got.Vendors {
		names = append(names, v.VendorName)
	}
	slices.Sort(names)
	if want := []string{"+cmd", "-1", hyperlink, "@SUM(1)", "Plain", "Slack"}; !slices.Equal(names, want) {
		t.Errorf("vendors imported from the export = %q, want %q", names, want)
	}
	sorted := func(recs [][]string) []string {
		var out []string
		for _, r := range recs[1:] {
			out = append(out, strings.Join(slices.Concat(r[:5], r[9:]), "|"))
		}
		slices.Sort(out)
		return out
	}
	if a, b := sorted(first), sorted(export(copyList)); !slices.Equal(a, b) {
		t.Errorf("round trip changed the register:\n%q\n%q", a, b)
	}
}
