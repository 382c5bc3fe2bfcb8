// Package incidents is the matching of platform-wide security sources to
// the vendor directory: the items the sources give (items.go: news items,
// CISA known-exploited-vulnerability entries, breach-list entries and 8-K
// filings), the vendor as the matcher sees it (Candidate), the folding of
// names and text for comparison (fold.go), the words that decide a news
// story (terms.go: the security-event terms, the names that are ordinary
// words, the cues of a vendor used in an attack or quoted as a source), and
// the rule that makes an item a match of a vendor only with evidence
// (match.go: Match{Rule, MatchedText, Confidence}), with near misses kept
// apart as possible matches.
//
// Finding vendor names in text goes through the driven port NameIndex
// (nameindex.go), built from the folded names; adapters/nameindex
// implements it with an Aho-Corasick automaton, so this package imports no
// third-party module. The labelled corpus under testdata measures the rule's
// precision and recall (corpus_test.go); incidentstest scores it, for this
// package's tests and the adapter's.
//
// Reading a source into those items is the driven port SourceReader
// (sources.go: an Endpoint of a kind and URL, the conditional-GET
// Validators of the previous read, a Batch of items or NotModified);
// adapters/incidentfeeds implements it over the SSRF-safe fetcher.
//
// The service (service.go) polls the configured sources (poll.go): each
// item becomes a draft incident of its source (item.go), matched vendors
// get it with its evidence, merged into the incident of the same event
// when there is one (merge.go), rated by the severity table (severity.go)
// and alerted unless it came from a source's first poll; near misses wait
// as possible matches for a platform admin (possible.go). An account reads
// the incidents of the vendors it follows (account.go). The store it needs
// is store.go.
package incidents
