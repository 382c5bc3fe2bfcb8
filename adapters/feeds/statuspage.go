package feeds

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vetted-dev/vetted/adapters/enrich"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

// StatusPageSource is the Source of incidents read from status pages.
const StatusPageSource = "statuspage"

// StatusURLFunc returns the status page URL of a vendor, or "" when it has
// none. IncidentSource only passes the vendor, so the page URL (kept in
// the profile's security.status_page_url) is looked up through this.
type StatusURLFunc func(ctx context.Context, v vendors.Vendor) (string, error)

// ProfileStatusURL looks the status page up in the vendor's stored profile;
// a vendor without a profile has none.
func ProfileStatusURL(store stores.Store) StatusURLFunc {
	return func(ctx context.Context, v vendors.Vendor) (string, error) {
		var u string
		err := store.View(ctx, func(ctx context.Context, tx stores.Tx) error {
			p, err := tx.Profiles().Get(ctx, v.ID)
			if errors.Is(err, core.ErrNotFound) {
				return nil
			}
			u = p.Security.StatusPageURL
			return err
		})
		return u, err
	}
}

// StatusPage reads incidents from an Atlassian Statuspage-style page. It
// tries, in order, /api/v2/incidents.json, /history.atom and /history.rss
// under the page URL (or the URL itself if it already names one of them)
// and uses the first that answers.
type StatusPage struct {
	fetch  *enrich.Fetcher
	lookup StatusURLFunc
}

var _ vendors.IncidentSource = (*StatusPage)(nil)

// NewStatusPage builds a StatusPage source.
func NewStatusPage(f *enrich.Fetcher, lookup StatusURLFunc) (*StatusPage, error) {
	if f == nil || lookup == nil {
		return nil, errors.New("feeds: NewStatusPage needs a fetcher and a lookup")
	}
	return &StatusPage{fetch: f, lookup: lookup}, nil
}

// Fetch implements vendors.IncidentSource. A vendor without a status page
// has no incidents here.
func (s *StatusPage) Fetch(ctx context.Context, v vendors.Vendor, since time.Time) ([]vendors.Incident, error) {
	base, err := s.lookup(ctx, v)
	if err != nil {
		return nil, fmt.Errorf("status page of %s: %w", v.Name, err)
	}
	base = strings.TrimSpace(base)
	if base == "" {
		return nil, nil
	}
	candidates := []string{base}
	lower := strings.ToLower(base)
	if !strings.HasSuffix(lower, ".json") && !strings.HasSuffix(lower, ".atom") && !strings.HasSuffix(lower, ".rss") {
		root := strings.TrimRight(base, "/")
		candidates = []string{root + "/api/v2/incidents.json", root + "/history.atom", root + "/history.rss"}
	}
	var errs []error
	for _, u := range candidates {
		p, err := getFeed(ctx, s.fetch, u)
		if errors.Is(err, enrich.ErrRefused) {
			return nil, fmt.Errorf("status page of %s: %w", v.Name, err)
		}
		if err == nil {
			var ins []vendors.Incident
			ins, err = parseStatusFeed(p.Body)
			if err == nil {
				return filter(ins, since), nil
			}
			err = fmt.Errorf("%s: %w", u, err)
		}
		errs = append(errs, err)
	}
	return nil, fmt.Errorf("status page of %s: %w", v.Name, errors.Join(errs...))
}

func filter(ins []vendors.Incident, since time.Time) []vendors.Incident {
	out := ins[:0]
	for _, in := range ins {
		if in.ExternalID != "" && keep(in.PublishedAt, since) {
			in.Source = StatusPageSource
			out = append(out, in)
		}
	}
	return out
}

// parseStatusFeed reads Statuspage JSON, Atom or RSS, whichever body is.
func parseStatusFeed(body []byte) ([]vendors.Incident, error) {
	trimmed := strings.TrimSpace(string(body))
	if strings.HasPrefix(trimmed, "{") {
		return parseStatusJSON(body)
	}
	if strings.HasPrefix(trimmed, "<") {
		return parseXMLFeed(body)
	}
	return nil, errors.New("not a JSON, Atom or RSS feed")
}

type spIncident struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Status     string `json:"status"`
	Impact     string `json:"impact"`
	Shortlink  string `json:"shortlink"`
	CreatedAt  string `json:"created_at"`
	StartedAt  string `json:"started_at"`
	Components []struct {
		Name string `json:"name"`
	} `json:"components"`
	Updates []struct {
		Body      string `json:"body"`
		CreatedAt string `json:"created_at"`
	} `json:"incident_updates"`
}

func parseStatusJSON(body []byte) ([]vendors.Incident, error) {
	var doc struct {
		Incidents *[]spIncident `json:"incidents"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, err
	}
	if doc.Incidents == nil {
		return nil, errors.New("no incidents key")
	}
	out := make([]vendors.Incident, 0, len(*doc.Incidents))
	for _, sp := range *doc.Incidents {
		in := vendors.Incident{
			ExternalID:   sp.ID,
			Title:        sp.Name,
			URL:          sp.Shortlink,
			IncidentType: "availability",
			Status:       "open",
			Severity:     impactSeverity(sp.Impact),
			PublishedAt:  parseTime(sp.CreatedAt),
		}
		if in.PublishedAt.IsZero() {
			in.PublishedAt = parseTime(sp.StartedAt)
		}
		if sp.Status == "resolved" || sp.Status == "postmortem" {
			in.Status = "resolved"
		}
		if len(sp.Updates) > 0 {
			in.Summary = plainText(sp.Updates[0].Body) // newest first
		}
		var comps []string
		for _, c := range sp.Components {
			comps = append(comps, c.Name)
		}
		in.AffectedService = strings.Join(comps, ", ")
		out = append(out, in)
	}
	return out, nil
}

// impactSeverity maps Statuspage impact levels.
func impactSeverity(impact string) string {
	switch impact {
	case "critical":
		return "critical"
	case "major":
		return "high"
	case "minor":
		return "low"
	case "none":
		return "info"
	}
	return "medium"
}

type atomFeed struct {
	XMLName xml.Name `xml:"feed"`
	Entries []struct {
		ID        string `xml:"id"`
		Title     string `xml:"title"`
		Published string `xml:"published"`
		Updated   string `xml:"updated"`
		Content   string `xml:"content"`
		Summary   string `xml:"summary"`
		Links     []struct {
			Href string `xml:"href,attr"`
			Rel  string `xml:"rel,attr"`
		} `xml:"link"`
	} `xml:"entry"`
}

type rssFeed struct {
	XMLName xml.Name `xml:"rss"`
	Items   []struct {
		GUID        string `xml:"guid"`
		Title       string `xml:"title"`
		Description string `xml:"description"`
		PubDate     string `xml:"pubDate"`
		Link        string `xml:"link"`
	} `xml:"channel>item"`
}

func parseXMLFeed(body []byte) ([]vendors.Incident, error) {
	var a atomFeed
	if err := xml.Unmarshal(body, &a); err == nil {
		out := make([]vendors.Incident, 0, len(a.Entries))
		for _, e := range a.Entries {
			in := vendors.Incident{ExternalID: strings.TrimSpace(e.ID), Title: strings.TrimSpace(e.Title), Summary: plainText(e.Content + " " + e.Summary),
				IncidentType: "availability", Severity: "medium", PublishedAt: parseTime(e.Published)}
			if in.PublishedAt.IsZero() {
				in.PublishedAt = parseTime(e.Updated)
			}
			for _, l := range e.Links {
				if l.Rel == "" || l.Rel == "alternate" {
					in.URL = l.Href
					break
				}
			}
			out = append(out, in)
		}
		return out, nil
	}
	var r rssFeed
	if err := xml.Unmarshal(body, &r); err != nil {
		return nil, errors.New("not an Atom or RSS feed")
	}
	out := make([]vendors.Incident, 0, len(r.Items))
	for _, it := range r.Items {
		id := strings.TrimSpace(it.GUID)
		if id == "" {
			id = strings.TrimSpace(it.Link)
		}
		out = append(out, vendors.Incident{ExternalID: id, Title: strings.TrimSpace(it.Title), Summary: plainText(it.Description),
			URL: strings.TrimSpace(it.Link), IncidentType: "availability", Severity: "medium", PublishedAt: parseTime(it.PubDate)})
	}
	return out, nil
}
