package api_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/apps/api/apitest"
)

type feedItem struct {
	ID              string    `json:"id"`
	Title           string    `json:"title"`
	Vendor          string    `json:"vendor"`
	VendorID        string    `json:"vendor_id"`
	VendorName      string    `json:"vendor_name"`
	Product         string    `json:"product"`
	Published       time.Time `json:"published"`
	IncidentType    string    `json:"incident_type"`
	PotentiallyData string    `json:"potentially_impacted_data"`
	Img             *string   `json:"img"`
}

// The three reads of the original web client's home page answer with the
// fields that page reads, count only the account's own lists, and follow
// the alerts switch of each vendor.
func TestDashboard(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.Token("admin@vetted.test", apitest.Admin(), apitest.Verified())
	acct := env.NewAccount(t, "Dash Inc", "owner@dash.test")
	owner := env.Token("owner@dash.test", apitest.Verified())
	env.AddMember(t, acct, owner, "viewer@dash.test", "viewer")
	viewer := env.Token("viewer@dash.test", apitest.Verified())
	q := "?account-id=" + url.QueryEscape(acct)

	env.SaveVendors(t, owner, acct, "Slack", "Zoom", "Figma")
	master := apitest.Must(t, env.Do(t, http.MethodGet, "/vendor-lists"+q+"&vendor-list=master-list", owner, nil), 200).Map(t)
	masterID := master["list"].(map[string]any)["id"].(string)
	ids := map[string]string{}
	for _, v := range master["vendors"].([]any) {
		e := v.(map[string]any)
		ids[e["vendor_name"].(string)] = e["vendor_id"].(string)
	}
	crit := apitest.Must(t, env.Do(t, http.MethodPost, "/vendor-lists"+q+"&vendor-list=Critical", owner, nil), 201).Map(t)["id"].(string)
	apitest.Must(t, env.Do(t, http.MethodPost, "/vendor-lists"+q+"&operation=save-vendors&vendor-list-id="+crit, owner,
		map[string]any{"vendors": []string{"Zoom"}}), 200)
	apitest.Must(t, env.Do(t, http.MethodPost, "/vendor-lists/"+masterID+"/vendors/"+ids["Zoom"]+"/products"+q, owner,
		map[string]string{"product_name": "Meetings"}), 201)
	apitest.Must(t, env.Do(t, http.MethodPatch, "/vendor-lists"+q+"&operation=alerts-enabled&vendor-list-id="+masterID, owner,
		map[string]any{"vendor-id": ids["Figma"], "alerts_enabled": false}), 200)
	for name, status := range map[string]string{"Slack": "in-progress", "Zoom": "approved", "Figma": "on-hold"} {
		apitest.Must(t, env.Do(t, http.MethodPost, "/vendor-assessments"+q+"&vendor-list-id="+masterID, owner,
			map[string]string{"vendor_name": name, "compliance_approval_status": status}), 201)
	}
	incident := func(vendorName, title string, at time.Time) string {
		return apitest.Must(t, env.Do(t, http.MethodPost, "/vendor/"+vendorName+"/incidents", admin, map[string]any{
			"title": title, "published_at": at, "backfilled": true, "incident_type": "breach",
			"potentially_impacted_data": []string{"email", "names"}}), 201).Map(t)["id"].(string)
	}
	t0 := env.Clock.Date(0, 0, -21) // three weeks before the clock's start
	slackOld := incident("Slack", "Slack token leak", t0)
	zoomNew := incident("Zoom", "Zoom outage", t0.Add(48*time.Hour))
	figma := incident("Figma", "Figma breach", t0.Add(72*time.Hour)) // alerts off: not followed
	slackNew := incident("Slack", "Slack phishing", t0.Add(24*time.Hour))

	// Another account with its own vendor and incident sees none of the above.
	other := env.NewAccount(t, "Other Dash", "owner@other.test")
	otherTok := env.Token("owner@other.test", apitest.Verified())
	env.SaveVendors(t, otherTok, other, "Secret Vendor")
	incident("Secret Vendor", "Not yours", t0.Add(96*time.Hour))

	type metrics struct {
		ActiveAssessments int `json:"activeAssessments"`
		TotalVendors      int `json:"totalVendors"`
		FollowedVendors   int `json:"followedVendors"`
	}
	var m metrics
	apitest.Must(t, env.Do(t, http.MethodGet, "/metrics/dashboard"+q, owner, nil), 200).JSON(t, &m)
	if m != (metrics{ActiveAssessments: 2, TotalVendors: 3, FollowedVendors: 2}) {
		t.Fatalf("metrics over all lists = %+v", m)
	}
	apitest.Must(t, env.Do(t, http.MethodGet, "/metrics/dashboard"+q+"&vendor-list-id="+crit, owner, nil), 200).JSON(t, &m)
	if m != (metrics{ActiveAssessments: 0, TotalVendors: 1, FollowedVendors: 1}) {
		t.Fatalf("metrics of Critical = %+v", m)
	}

	var feed []feedItem
	apitest.Must(t, env.Do(t, http.MethodGet, "/metrics/recent-incidents"+q+"&limit=5", owner, nil), 200).JSON(t, &feed)
	var got []string
	for _, f := range feed {
		got = append(got, f.ID)
	}
	want := []string{zoomNew, slackNew, slackOld}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("recent incidents = %v, want %v (Figma %s is not followed)", got, want, figma)
	}
	z := feed[0]
	if z.VendorName != "Zoom" || z.Vendor != "Zoom" || z.Product != "Meetings" || z.Title != "Zoom outage" || !z.Published.Equal(t0.Add(48*time.Hour)) ||
		z.IncidentType != "breach" || z.PotentiallyData != "email, names" || z.Img != nil || z.VendorID != ids["Zoom"] {
		t.Fatalf("feed item = %+v", z)
	}
	apitest.Must(t, env.Do(t, http.MethodGet, "/metrics/recent-incidents"+q+"&limit=1&vendor-list-id="+crit, owner, nil), 200).JSON(t, &feed)
	if len(feed) != 1 || feed[0].ID != zoomNew {
		t.Fatalf("recent incidents of Critical, limit 1 = %+v", feed)
	}
	apitest.Must(t, env.Do(t, http.MethodGet, "/metrics/recent-incidents"+q+"&limit=51", owner, nil), 422)

	var vendors []struct {
		ID             string    `json:"id"`
		Vendor         string    `json:"vendor"`
		Logo           string    `json:"logo"`
		WebsiteURL     string    `json:"website_url"`
		LatestIncident *feedItem `json:"latest_incident"`
	}
	apitest.Must(t, env.Do(t, http.MethodGet, "/metrics/vendors-from-list"+q+"&vendor-list=master-list", owner, nil), 200).JSON(t, &vendors)
	latest := map[string]string{}
	for _, v := range vendors {
		if v.ID != ids[v.Vendor] || v.LatestIncident == nil {
			t.Fatalf("vendor overview %+v", v)
		}
		latest[v.Vendor] = v.LatestIncident.ID
	}
	if len(vendors) != 3 || latest["Slack"] != slackNew || latest["Zoom"] != zoomNew || latest["Figma"] != figma {
		t.Fatalf("latest incidents = %v", latest)
	}
	apitest.Must(t, env.Do(t, http.MethodGet, "/metrics/vendors-from-list"+q, owner, nil), 200).JSON(t, &vendors)
	if len(vendors) != 3 {
		t.Fatalf("default list is master-list: %d vendors", len(vendors))
	}

	// Viewer role or above (a read like any other), tenant-isolated.
	for _, path := range []string{"/metrics/dashboard" + q, "/metrics/recent-incidents" + q, "/metrics/vendors-from-list" + q} {
		apitest.Must(t, env.Do(t, http.MethodGet, path, viewer, nil), 200)
		apitest.Must(t, env.Do(t, http.MethodGet, path, otherTok, nil), 403)
		apitest.Must(t, env.Do(t, http.MethodGet, path, "", nil), 401)
	}
	apitest.Must(t, env.Do(t, http.MethodGet, "/metrics/dashboard"+q+"&vendor-list-id="+crit, otherTok, nil), 403)
	apitest.Must(t, env.Do(t, http.MethodGet, "/metrics/dashboard?account-id="+other+"&vendor-list-id="+crit, otherTok, nil), 404)
}
