// Package incidentfeeds implements incidents.SourceReader: it reads the
// platform-wide security sources (news feeds, CISA's KEV catalog, a breach
// list in Have I Been Pwned's shape, EDGAR's Atom feed of current 8-K
// filings) into the core's typed items.
//
// Every read goes through the SSRF-safe enrich.Fetcher with a conditional
// GET (If-None-Match / If-Modified-Since from the previous read's
// validators; a 304 is NotModified and costs no parse), a size bound and a
// time bound. News feeds and filings are parsed with
// github.com/mmcdole/gofeed (RSS 2.0, Atom, JSON Feed); the KEV catalog and
// the breach list are JSON read entry by entry, so a malformed entry is
// skipped and counted, not fatal. HTML in titles, summaries and
// descriptions is reduced to text.
package incidentfeeds

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/mmcdole/gofeed"
	"github.com/vetted-dev/vetted/adapters/enrich"
	"github.com/vetted-dev/vetted/adapters/internal/htmltext"
	"github.com/vetted-dev/vetted/core/incidents"
)

// Defaults of Config.
const (
	// DefaultMaxBytes bounds a source's body: CISA's catalog and HIBP's
	// breach list are each a few MiB and grow.
	DefaultMaxBytes = 16 << 20
	// DefaultTimeout bounds one read, body included.
	DefaultTimeout = 30 * time.Second
)

// Bounds of the text kept from an entry, in bytes.
const (
	maxTitle   = 500
	maxSummary = 4000
)

// Config bounds each read.
type Config struct {
	// MaxBytes is the largest body read; a longer one fails the read.
	// DefaultMaxBytes when zero.
	MaxBytes int64
	// Timeout bounds a read; DefaultTimeout when zero. The fetcher's own
	// timeout (FetcherConfig.Timeout) applies too: the shorter wins.
	Timeout time.Duration
}

// Reader reads the sources through an enrich.Fetcher.
type Reader struct {
	fetch *enrich.Fetcher
	cfg   Config
}

var _ incidents.SourceReader = (*Reader)(nil)

// New builds a Reader over f, which decides which addresses are reachable
// (loopback and private ones only with FetcherConfig.AllowPrivate).
func New(f *enrich.Fetcher, cfg Config) (*Reader, error) {
	if f == nil {
		return nil, errors.New("incidentfeeds: nil fetcher")
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = DefaultMaxBytes
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	return &Reader{fetch: f, cfg: cfg}, nil
}

// Read implements incidents.SourceReader.
func (r *Reader) Read(ctx context.Context, src incidents.Endpoint, prev incidents.Validators) (incidents.Batch, error) {
	if !src.Kind.Valid() {
		return incidents.Batch{}, fmt.Errorf("%s: unknown source kind %q", src, src.Kind)
	}
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	p, err := r.fetch.GetConditional(ctx, src.URL, enrich.Validators(prev), r.cfg.MaxBytes)
	if err != nil {
		return incidents.Batch{}, fmt.Errorf("%s: %w", src, err)
	}
	if p.Status == http.StatusNotModified {
		return incidents.Batch{NotModified: true, Validators: validators(p.Header, prev)}, nil
	}
	if p.Status < 200 || p.Status > 299 {
		return incidents.Batch{}, fmt.Errorf("%s: HTTP %d", src, p.Status)
	}
	if p.Truncated {
		return incidents.Batch{}, fmt.Errorf("%s: body larger than %d bytes", src, r.cfg.MaxBytes)
	}
	b := incidents.Batch{Validators: validators(p.Header, incidents.Validators{})}
	switch src.Kind {
	case incidents.SourceNews:
		err = parseNews(p.Body, p.URL, &b)
	case incidents.SourceKEV:
		err = parseKEV(p.Body, &b)
	case incidents.SourceBreach:
		err = parseBreaches(p.Body, &b)
	case incidents.SourceFiling:
		err = parseFilings(p.Body, p.URL, &b)
	}
	if err != nil {
		return incidents.Batch{}, fmt.Errorf("%s: %w", src, err)
	}
	return b, nil
}

// validators are the answer's ETag and Last-Modified, each kept from prev
// when the answer has none (a 304 need not repeat them).
func validators(h http.Header, prev incidents.Validators) incidents.Validators {
	v := prev
	if e := h.Get("ETag"); e != "" {
		v.ETag = e
	}
	if lm := h.Get("Last-Modified"); lm != "" {
		v.LastModified = lm
	}
	return v
}

// parseFeed parses an RSS 2.0, Atom or JSON Feed document into its items;
// an item the parser left empty is counted in b.Skipped.
func parseFeed(body []byte, b *incidents.Batch) ([]*gofeed.Item, error) {
	feed, err := gofeed.NewParser().Parse(bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("not a feed: %w", err)
	}
	items := slices.DeleteFunc(feed.Items, func(it *gofeed.Item) bool { return it == nil })
	b.Skipped += len(feed.Items) - len(items)
	return items, nil
}

// link is an item's link resolved against the feed's URL, or "" when it
// is not an http or https URL (a "javascript:" link must not reach a page).
func link(base *url.URL, raw string) string {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.String()
}

// when is an item's publication time, else its update time, in UTC.
func when(it *gofeed.Item) time.Time {
	for _, t := range []*time.Time{it.PublishedParsed, it.UpdatedParsed} {
		if t != nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// parseNews reads a news feed; an item with neither title nor summary is
// skipped.
func parseNews(body []byte, base *url.URL, b *incidents.Batch) error {
	items, err := parseFeed(body, b)
	if err != nil {
		return err
	}
	for _, it := range items {
		summary := htmltext.Text(it.Description, maxSummary)
		if summary == "" {
			summary = htmltext.Text(it.Content, maxSummary)
		}
		n := incidents.NewsItem{
			Title:     htmltext.Text(it.Title, maxTitle),
			Summary:   summary,
			URL:       link(base, it.Link),
			Published: when(it),
		}
		if n.Title == "" && n.Summary == "" {
			b.Skipped++
			continue
		}
		b.News = append(b.News, n)
	}
	return nil
}

// parseKEV reads CISA's catalog: {"vulnerabilities": [...]}. An entry
// that does not decode, or has no cveID or vendorProject, is skipped.
func parseKEV(body []byte, b *incidents.Batch) error {
	var doc struct {
		Vulnerabilities *[]json.RawMessage `json:"vulnerabilities"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return fmt.Errorf("not a KEV catalog: %w", err)
	}
	if doc.Vulnerabilities == nil {
		return errors.New("not a KEV catalog: no vulnerabilities")
	}
	for _, raw := range *doc.Vulnerabilities {
		var e incidents.KEVEntry
		if json.Unmarshal(raw, &e) != nil {
			b.Skipped++
			continue
		}
		e.CVEID = strings.TrimSpace(e.CVEID)
		e.VendorProject = strings.TrimSpace(e.VendorProject)
		e.Product = strings.TrimSpace(e.Product)
		e.VulnerabilityName = htmltext.Text(e.VulnerabilityName, maxTitle)
		e.ShortDescription = htmltext.Text(e.ShortDescription, maxSummary)
		if e.CVEID == "" || e.VendorProject == "" {
			b.Skipped++
			continue
		}
		b.KEV = append(b.KEV, e)
	}
	return nil
}

// parseBreaches reads a breach list in HIBP's shape: a JSON array. An
// entry that does not decode, or has no Name, is skipped; one without a
// Domain is kept (the matcher gives it to nobody).
func parseBreaches(body []byte, b *incidents.Batch) error {
	var raws []json.RawMessage
	if err := json.Unmarshal(body, &raws); err != nil {
		return fmt.Errorf("not a breach list: %w", err)
	}
	for _, raw := range raws {
		var e incidents.Breach
		if json.Unmarshal(raw, &e) != nil {
			b.Skipped++
			continue
		}
		e.Name = strings.TrimSpace(e.Name)
		e.Title = htmltext.Text(e.Title, maxTitle)
		e.Domain = strings.TrimSpace(e.Domain)
		e.Description = htmltext.Text(e.Description, maxSummary)
		if e.Name == "" {
			b.Skipped++
			continue
		}
		b.Breaches = append(b.Breaches, e)
	}
	return nil
}

// filingTitle is EDGAR's entry title: "8-K - PROGRESS SOFTWARE CORP /MA
// (0000876167) (Filer)": the form, the filer, its CIK and its role.
var filingTitle = regexp.MustCompile(`^\s*(\S+)\s+-\s+(.+?)\s*\(\d+\)\s*\([^()]*\)\s*$`)

// filingItem is an 8-K item number in the entry's summary: "Item 1.05:
// Material Cybersecurity Incidents".
var filingItem = regexp.MustCompile(`(?i)\bitem\s+(\d{1,2}\.\d{2})\b`)

// parseFilings reads EDGAR's Atom feed of current filings. An entry whose
// title is not EDGAR's, or whose form is not an 8-K (or 8-K/A), is
// skipped. Every filing is kept whatever its items: the matcher decides
// which count.
func parseFilings(body []byte, base *url.URL, b *incidents.Batch) error {
	items, err := parseFeed(body, b)
	if err != nil {
		return err
	}
	for _, it := range items {
		m := filingTitle.FindStringSubmatch(htmltext.Text(it.Title, maxTitle))
		if m == nil || !strings.HasPrefix(strings.ToUpper(m[1]), "8-K") {
			b.Skipped++
			continue
		}
		f := incidents.Filing{FilerName: m[2], URL: link(base, it.Link), Filed: when(it)}
		text := htmltext.Text(it.Description, 0) + " " + htmltext.Text(it.Content, 0)
		for _, im := range filingItem.FindAllStringSubmatch(text, -1) {
			if !slices.Contains(f.Items, im[1]) {
				f.Items = append(f.Items, im[1])
			}
		}
		b.Filings = append(b.Filings, f)
	}
	return nil
}
