package api

import (
	"context"
	"strings"
	"time"

	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
)

// The dashboard reads of the original web client's home page
// (GET /metrics/dashboard, /metrics/recent-incidents and
// /metrics/vendors-from-list), with the shapes that page reads: the counts
// are camelCase and the two lists are bare arrays, as the original service
// answered them. They need the viewer role or above, like every read.

// DashboardMetricsJSON are the counts of the dashboard.
type DashboardMetricsJSON struct {
	ActiveAssessments int `json:"activeAssessments" doc:"Assessments in progress or on hold"`
	TotalVendors      int `json:"totalVendors" doc:"Distinct vendors on the lists in scope"`
	FollowedVendors   int `json:"followedVendors" doc:"Of those, vendors with incident alerts on, on at least one list"`
	ReviewsDueSoon    int `json:"reviewsDueSoon" doc:"Assessments whose review is due soon (review_state due_soon)"`
	ReviewsOverdue    int `json:"reviewsOverdue" doc:"Assessments whose review is overdue (review_state overdue)"`
}

// IncidentFeedJSON is an incident as the dashboard's incident feed shows it.
type IncidentFeedJSON struct {
	ID                      string    `json:"id" format:"uuid"`
	Title                   string    `json:"title"`
	Vendor                  string    `json:"vendor" doc:"The vendor's canonical name"`
	VendorID                string    `json:"vendor_id" format:"uuid"`
	VendorName              string    `json:"vendor_name"`
	Product                 string    `json:"product" doc:"The vendor's product rows on the lists in scope, comma-separated"`
	Published               time.Time `json:"published"`
	Exploits                string    `json:"exploits" doc:"Exploits or CVEs named by the source (empty when none)"`
	Summary                 string    `json:"summary"`
	URL                     string    `json:"url"`
	Img                     *string   `json:"img" doc:"Always null: no image source yet"`
	IncidentType            string    `json:"incident_type"`
	AffectedService         string    `json:"affected_service"`
	PotentiallyImpactedData string    `json:"potentially_impacted_data" doc:"Comma-separated"`
	Status                  string    `json:"status"`
	Severity                string    `json:"severity"`
	Source                  string    `json:"source"`
}

// VendorOverviewJSON is a vendor of a list on the dashboard.
type VendorOverviewJSON struct {
	ID             string            `json:"id" format:"uuid" doc:"The vendor's id"`
	Vendor         string            `json:"vendor" doc:"The vendor's canonical name"`
	Logo           string            `json:"logo" doc:"Logo URL from the profile (empty when none)"`
	WebsiteURL     string            `json:"website_url"`
	IsCustom       bool              `json:"is_custom"`
	AlertsEnabled  bool              `json:"alerts_enabled"`
	LatestIncident *IncidentFeedJSON `json:"latest_incident" doc:"The vendor's newest incident, or null"`
}

func incidentFeedJSON(in vendors.Incident, vendorName string, products []string) IncidentFeedJSON {
	return IncidentFeedJSON{ID: in.ID.String(), Title: in.Title, Vendor: vendorName, VendorID: in.VendorID.String(), VendorName: vendorName,
		Product: strings.Join(products, ", "), Published: in.PublishedAt, Summary: in.Summary, URL: in.URL,
		IncidentType: in.IncidentType, AffectedService: in.AffectedService,
		PotentiallyImpactedData: strings.Join(in.PotentiallyImpactedData, ", "), Status: in.Status, Severity: in.Severity, Source: in.Source}
}

// ScopeParam narrows a dashboard read to one list.
type ScopeParam struct {
	ListID string `query:"vendor-list-id" doc:"Only this list; omitted: every list of the account"`
}

// listRef parses vendor-list-id; none names every list.
func (p ScopeParam) listRef() (lists.ListRef, error) { return lists.ParseListRef(p.ListID, "") }

type dashboardIn struct {
	AccountParam
	ScopeParam
}

type recentIncidentsIn struct {
	AccountParam
	ScopeParam
	Limit int `query:"limit" minimum:"0" limit:"incidents" doc:"At most this many incidents (default 5)"`
}

type vendorsFromListIn struct {
	AccountParam
	ListParams
}

type dashboardOut struct{ Body DashboardMetricsJSON }

type recentIncidentsOut struct{ Body []IncidentFeedJSON }

type vendorsFromListOut struct{ Body []VendorOverviewJSON }

// dashboardMetrics answers get-dashboard-metrics.
func (h assessmentsHandler) dashboardMetrics(ctx context.Context, in *dashboardIn) (*dashboardOut, error) {
	acc, lr, err := accountAnd(in.AccountParam, in.listRef)
	if err != nil {
		return nil, err
	}
	m, err := h.assessments.DashboardMetrics(ctx, actor(ctx), acc, lr)
	if err != nil {
		return nil, err
	}
	return &dashboardOut{Body: DashboardMetricsJSON{ActiveAssessments: m.ActiveAssessments, TotalVendors: m.TotalVendors,
		FollowedVendors: m.FollowedVendors, ReviewsDueSoon: m.DueSoon, ReviewsOverdue: m.Overdue}}, nil
}

// recentIncidents answers get-recent-incidents.
func (h assessmentsHandler) recentIncidents(ctx context.Context, in *recentIncidentsIn) (*recentIncidentsOut, error) {
	acc, lr, err := accountAnd(in.AccountParam, in.listRef)
	if err != nil {
		return nil, err
	}
	ins, err := h.assessments.RecentIncidents(ctx, actor(ctx), acc, lr, in.Limit)
	if err != nil {
		return nil, err
	}
	out := &recentIncidentsOut{Body: make([]IncidentFeedJSON, 0, len(ins))}
	for _, v := range ins {
		out.Body = append(out.Body, incidentFeedJSON(v.Incident, v.VendorName, v.Products))
	}
	return out, nil
}

// vendorsFromList answers get-vendors-from-list.
func (h assessmentsHandler) vendorsFromList(ctx context.Context, in *vendorsFromListIn) (*vendorsFromListOut, error) {
	acc, lr, err := refs(in.AccountParam, in.ListParams)
	if err != nil {
		return nil, err
	}
	vs, err := h.assessments.VendorsOverview(ctx, actor(ctx), acc, lr)
	if err != nil {
		return nil, err
	}
	out := &vendorsFromListOut{Body: make([]VendorOverviewJSON, 0, len(vs))}
	for _, v := range vs {
		o := VendorOverviewJSON{ID: v.Entry.VendorID.String(), Vendor: v.Entry.VendorName, Logo: v.Logo, WebsiteURL: v.Entry.WebsiteURL,
			IsCustom: v.Entry.IsCustom, AlertsEnabled: v.Entry.AlertsEnabled}
		if v.Latest != nil {
			feed := incidentFeedJSON(*v.Latest, v.Entry.VendorName, nil)
			o.LatestIncident = &feed
		}
		out.Body = append(out.Body, o)
	}
	return out, nil
}
