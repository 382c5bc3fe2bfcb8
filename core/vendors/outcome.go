package vendors

import (
	"cmp"
	"slices"
	"strings"
)

// Outcomes of one vendor's enrichment, as EnrichmentOutcome sums it up:
// the job's status, the log line and the vetted_enrichments_total label
// all say the same.
const (
	// OutcomeOK: some requested sections are done, none failed.
	OutcomeOK = "ok"
	// OutcomePartial: some requested sections are done, others failed.
	OutcomePartial = "partial"
	// OutcomeFailed: no requested section is done and at least one
	// failed: nothing was found (a vendor with no website, a site that
	// does not answer).
	OutcomeFailed = "failed"
	// OutcomeSkipped: none is done or failed: every requested section
	// was skipped (no source for it), or none was requested.
	OutcomeSkipped = "skipped"
)

// EnrichmentOutcome sums up the states of the requested sections after an
// enrichment, with its reason: the failed sections grouped by their error,
// in the order requested ("basic, logo, security, privacy: no website
// known"); for an enrichment that is skipped, the skipped ones likewise.
// Sections not requested are not looked at: their state is from an
// earlier run.
func EnrichmentOutcome(requested []Section, states map[Section]SectionStatus) (outcome, reason string) {
	var done bool
	var failed, skipped sectionErrors
	for _, sec := range requested {
		st, ok := states[sec]
		switch {
		case !ok:
		case st.Status == "done":
			done = true
		case st.Status == "failed":
			failed.add(sec, cmp.Or(st.Error, "failed"))
		case st.Status == "skipped":
			skipped.add(sec, cmp.Or(st.Error, "skipped"))
		}
	}
	switch {
	case len(failed.errs) > 0 && done:
		return OutcomePartial, failed.String()
	case len(failed.errs) > 0:
		return OutcomeFailed, failed.String()
	case done:
		return OutcomeOK, ""
	}
	return OutcomeSkipped, skipped.String()
}

// sectionErrors groups sections by their error, in order of appearance.
type sectionErrors struct {
	errs []string
	secs map[string][]string
}

func (e *sectionErrors) add(sec Section, err string) {
	if e.secs == nil {
		e.secs = map[string][]string{}
	}
	if _, seen := e.secs[err]; !seen {
		e.errs = append(e.errs, err)
	}
	if !slices.Contains(e.secs[err], string(sec)) {
		e.secs[err] = append(e.secs[err], string(sec))
	}
}

func (e sectionErrors) String() string {
	parts := make([]string, 0, len(e.errs))
	for _, err := range e.errs {
		parts = append(parts, strings.Join(e.secs[err], ", ")+": "+err)
	}
	return strings.Join(parts, "; ")
}
