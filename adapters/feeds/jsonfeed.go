package feeds

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/vetted-dev/vetted/adapters/enrich"
	"github.com/vetted-dev/vetted/core/vendors"
)

// JSONFeed reads incidents from a JSON endpoint addressed by a URL
// template. The placeholders {domain}, {name}, {vendor_id} and {since}
// (RFC 3339) are replaced, query-escaped. The endpoint answers an array of
// incidents, or an object holding it under "incidents":
//
//	[{"id": "...", "title": "...", "summary": "...", "url": "...",
//	  "published_at": "2026-11-02T10:00:00Z", "severity": "high",
//	  "status": "open", "incident_type": "breach", "affected_service": "...",
//	  "potentially_impacted_data": ["email"]}]
//
// A template that uses {domain} asks nothing for a vendor without one.
type JSONFeed struct {
	fetch  *enrich.Fetcher
	tmpl   string
	source string
}

var _ vendors.IncidentSource = (*JSONFeed)(nil)

// NewJSONFeed builds a JSONFeed. source is the Source of its incidents
// (keep it stable: incidents are unique per vendor, source and external
// id); "" means "feed:" plus the template's host.
func NewJSONFeed(f *enrich.Fetcher, urlTemplate, source string) (*JSONFeed, error) {
	if f == nil {
		return nil, errors.New("feeds: NewJSONFeed needs a fetcher")
	}
	u, err := url.Parse(strings.NewReplacer("{", "", "}", "").Replace(urlTemplate))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("feeds: %q is not an http(s) URL template", urlTemplate)
	}
	if source == "" {
		source = "feed:" + u.Hostname()
	}
	return &JSONFeed{fetch: f, tmpl: urlTemplate, source: source}, nil
}

type jsonIncident struct {
	ID              string   `json:"id"`
	Title           string   `json:"title"`
	Summary         string   `json:"summary"`
	URL             string   `json:"url"`
	PublishedAt     string   `json:"published_at"`
	Severity        string   `json:"severity"`
	Status          string   `json:"status"`
	IncidentType    string   `json:"incident_type"`
	AffectedService string   `json:"affected_service"`
	ImpactedData    []string `json:"potentially_impacted_data"`
}

// Fetch implements vendors.IncidentSource.
func (j *JSONFeed) Fetch(ctx context.Context, v vendors.Vendor, since time.Time) ([]vendors.Incident, error) {
	if strings.Contains(j.tmpl, "{domain}") && v.Domain == "" {
		return nil, nil
	}
	sinceText := ""
	if !since.IsZero() {
		sinceText = since.UTC().Format(time.RFC3339)
	}
	target := strings.NewReplacer(
		"{domain}", url.QueryEscape(v.Domain),
		"{name}", url.QueryEscape(v.Name.String()),
		"{vendor_id}", url.QueryEscape(v.ID.String()),
		"{since}", url.QueryEscape(sinceText),
	).Replace(j.tmpl)
	p, err := getFeed(ctx, j.fetch, target)
	if err != nil {
		return nil, fmt.Errorf("incident feed for %s: %w", v.Name, err)
	}
	items, err := decodeItems(p.Body)
	if err != nil {
		return nil, fmt.Errorf("incident feed for %s: %w", v.Name, err)
	}
	var out []vendors.Incident
	for _, it := range items {
		in := vendors.Incident{
			Source: j.source, ExternalID: strings.TrimSpace(it.ID), Title: strings.TrimSpace(it.Title),
			Summary: plainText(it.Summary), URL: strings.TrimSpace(it.URL), PublishedAt: parseTime(it.PublishedAt),
			Severity: severity(it.Severity), Status: strings.TrimSpace(it.Status), IncidentType: strings.TrimSpace(it.IncidentType),
			AffectedService: strings.TrimSpace(it.AffectedService), PotentiallyImpactedData: it.ImpactedData,
		}
		if in.ExternalID == "" || !keep(in.PublishedAt, since) {
			continue // without an id an incident cannot be de-duplicated
		}
		out = append(out, in)
	}
	return out, nil
}

func decodeItems(body []byte) ([]jsonIncident, error) {
	var items []jsonIncident
	if err := json.Unmarshal(body, &items); err == nil {
		return items, nil
	}
	var wrapped struct {
		Incidents *[]jsonIncident `json:"incidents"`
	}
	if err := json.Unmarshal(body, &wrapped); err != nil || wrapped.Incidents == nil {
		return nil, errors.New("answer is neither an array of incidents nor {\"incidents\": [...]}")
	}
	return *wrapped.Incidents, nil
}
