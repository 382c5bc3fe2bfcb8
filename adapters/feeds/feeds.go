// Package feeds implements vendors.IncidentSource from public incident
// feeds: a vendor's Atlassian-Statuspage-style status page (StatusPage),
// a JSON feed behind a URL template (JSONFeed), and Multi, which combines
// sources. Every fetch goes through the SSRF-safe enrich.Fetcher.
//
// Mapping to vendors.Incident: Source names the feed, ExternalID is the
// feed's own id (Statuspage incident id, Atom id, RSS guid, JSON id),
// PublishedAt its publication time; Severity defaults to "medium" when the
// feed has none the core accepts. Only incidents published at or after
// since are returned; an incident without a date is returned only when
// since is zero. The core assigns ids and vendor ids.
package feeds

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vetted-dev/vetted/adapters/enrich"
	"github.com/vetted-dev/vetted/adapters/internal/htmltext"
	"github.com/vetted-dev/vetted/core/vendors"
)

// maxSummary bounds an incident summary, in bytes.
const maxSummary = 4000

// getFeed fetches a feed and wants a complete 2xx body.
func getFeed(ctx context.Context, f *enrich.Fetcher, rawURL string) (*enrich.Page, error) {
	p, err := f.Get(ctx, rawURL)
	if err != nil {
		return nil, err
	}
	if p.Status < 200 || p.Status > 299 {
		return nil, fmt.Errorf("%s: HTTP %d", rawURL, p.Status)
	}
	if p.Truncated {
		return nil, fmt.Errorf("%s: feed larger than the fetch limit", rawURL)
	}
	return p, nil
}

// keep reports whether an incident published at t passes the since filter.
func keep(t, since time.Time) bool {
	if t.IsZero() {
		return since.IsZero()
	}
	return !t.Before(since)
}

// severity maps a feed value to a core severity, "medium" by default.
func severity(s string) string {
	switch s = strings.ToLower(strings.TrimSpace(s)); s {
	case "critical", "high", "medium", "low", "info":
		return s
	}
	return "medium"
}

// plainText turns an HTML fragment into collapsed text, cut to maxSummary.
func plainText(s string) string { return htmltext.Text(s, maxSummary) }

// parseTime reads the date formats feeds use.
func parseTime(s string) time.Time {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, time.RFC1123Z, time.RFC1123, "Mon, 2 Jan 2006 15:04:05 -0700", "Mon, 2 Jan 2006 15:04:05 MST", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// Multi asks every source and returns all their incidents, without
// duplicates (same source and external id). A source that fails is
// reported to OnError and skipped; Fetch fails only when every source
// failed, so one broken feed does not hide the others.
type Multi struct {
	Sources []vendors.IncidentSource
	// OnError, when set, hears about each failing source (for logging).
	OnError func(err error)
}

var _ vendors.IncidentSource = (*Multi)(nil)

// NewMulti combines sources; nil sources are refused.
func NewMulti(onError func(error), sources ...vendors.IncidentSource) (*Multi, error) {
	for i, s := range sources {
		if s == nil {
			return nil, fmt.Errorf("feeds: source %d is nil", i)
		}
	}
	return &Multi{Sources: sources, OnError: onError}, nil
}

// Fetch implements vendors.IncidentSource.
func (m *Multi) Fetch(ctx context.Context, v vendors.Vendor, since time.Time) ([]vendors.Incident, error) {
	var out []vendors.Incident
	var errs []error
	seen := map[string]bool{}
	for _, s := range m.Sources {
		got, err := s.Fetch(ctx, v, since)
		if err != nil {
			errs = append(errs, err)
			if m.OnError != nil {
				m.OnError(err)
			}
			continue
		}
		for _, in := range got {
			k := in.Source + "\x00" + in.ExternalID
			if !seen[k] {
				seen[k] = true
				out = append(out, in)
			}
		}
	}
	if len(errs) > 0 && len(errs) == len(m.Sources) {
		return nil, fmt.Errorf("incident feeds: %w", errors.Join(errs...))
	}
	return out, nil
}
