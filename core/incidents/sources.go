package incidents

import (
	"context"
	"fmt"
)

// SourceReader is the driven port that reads one platform-wide source into
// typed items: a news feed (RSS 2.0, Atom or JSON Feed) into NewsItems,
// CISA's KEV catalog into KEVEntries, a breach list in Have I Been Pwned's
// shape into Breaches, an EDGAR Atom feed of current 8-K filings into
// Filings. prev are the validators kept from the previous read of the same
// endpoint (zero on the first); when the source answers that nothing
// changed the Batch is NotModified, holds no items and keeps prev.
//
// A source that cannot be read (refused, unreachable, timed out, a status
// other than 2xx or 304, a body over the size bound, a document that does
// not parse) is an error naming the endpoint; one malformed entry in an
// otherwise good document is skipped and counted in Batch.Skipped.
// adapters/incidentfeeds implements it over the SSRF-safe fetcher.
type SourceReader interface {
	Read(ctx context.Context, src Endpoint, prev Validators) (Batch, error)
}

// Endpoint is one configured source: what it gives and where it is.
type Endpoint struct {
	Kind Source
	URL  string
}

// String names the endpoint in errors and logs: "kev https://...".
func (e Endpoint) String() string { return fmt.Sprintf("%s %s", e.Kind, e.URL) }

// Valid reports a kind the sources give.
func (s Source) Valid() bool {
	switch s {
	case SourceNews, SourceKEV, SourceBreach, SourceFiling:
		return true
	}
	return false
}

// Validators are the conditional-GET validators of a source's last answer,
// sent back on the next read (If-None-Match, If-Modified-Since). Either may
// be empty.
type Validators struct {
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"last_modified,omitempty"`
}

// Batch is what one read of a source gave: the items of its kind (the other
// slices stay empty), the validators to send next time, and whether the
// source answered that nothing changed since prev.
type Batch struct {
	NotModified bool
	Validators  Validators
	News        []NewsItem
	KEV         []KEVEntry
	Breaches    []Breach
	Filings     []Filing
	// Skipped counts the entries left out as malformed.
	Skipped int
}

// Len is the number of items in b.
func (b Batch) Len() int { return len(b.News) + len(b.KEV) + len(b.Breaches) + len(b.Filings) }
