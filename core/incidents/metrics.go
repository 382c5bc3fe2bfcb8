package incidents

// Metrics is the driven port that counts the reads of the sources: one
// call per source per poll, with the source's kind and the result (ok,
// not_modified, error). An adapter exports it as
// vetted_incident_source_fetch_total{source,result}.
type Metrics interface {
	SourceFetched(source Source, result string)
}

// The results of reading a source.
const (
	FetchOK          = "ok"
	FetchNotModified = "not_modified"
	FetchError       = "error"
)

// noMetrics counts nothing, when Deps.Metrics is not given.
type noMetrics struct{}

func (noMetrics) SourceFetched(Source, string) {}
