package vendors

import (
	"context"
	"fmt"
	"slices"
)

// Why a vendor needs a website, in its web sections' state.
const errNeedsWebsite = "needs a website: discovery found no site naming the vendor with enough confidence"

// findWebsite is the enrichment step that runs before the scan: for a
// vendor known by name only (NeedsDiscovery) whose run asks for
// a section read from its website, it asks the WebsiteFinder and keeps its
// evidence on the profile cur. A website found becomes the vendor's, with
// the source "discovered", and is returned (the vendor to enrich); none
// found marks the requested web sections needs_website and takes them out
// of secs, so the enricher is not asked for what it cannot read.
//
// A candidate whose DNS timed out counts as not found: the vendor reads
// needs_website with the timeout in its evidence, and is tried again by
// the next enrichment (the periodic re-enrichment of stale profiles or an
// admin's run), rather than retried at once: a retry would hold the worker
// for another full budget per vendor during a large import, for a name
// server that is rarely back within seconds.
//
// A website a user or an admin gave is never replaced: discovery only runs
// for a vendor without one, and a profile that has one without a source
// is marked "given".
func (s *Service) findWebsite(ctx context.Context, view View, cur *Profile, secs []Section) (
	v Vendor, rest []Section, found bool, needsWebsite bool, err error) {
	v, rest = view.Vendor, secs
	if !NeedsDiscovery(v, view.Profile) {
		if cur.WebsiteSource == "" && (v.WebsiteURL != "" || v.Domain != "" || cur.Company.WebsiteURL != "") {
			cur.WebsiteSource = WebsiteGiven
		}
		return v, rest, false, false, nil
	}
	if s.d.Websites == nil || !slices.ContainsFunc(secs, IsWebSection) {
		return v, rest, false, false, nil
	}
	d, err := s.d.Websites.FindWebsite(ctx, v.Name)
	if err != nil {
		return v, rest, false, false, fmt.Errorf("website discovery of %s: %w", v.Name, err)
	}
	now := s.d.Now()
	d.At = now
	cur.Discovery = &d
	if d.Found() {
		website, domain, nerr := NormalizeWebsite(d.Website)
		if nerr == nil {
			v.WebsiteURL, v.Domain = website, domain
			cur.WebsiteSource, cur.Company.WebsiteURL = WebsiteDiscovered, website
			return v, rest, true, false, nil
		}
		// A finder's website the directory does not accept is no website.
		d.Website, d.Domain = "", ""
	}
	if cur.Enrichment == nil {
		cur.Enrichment = map[Section]SectionStatus{}
	}
	for _, sec := range secs {
		if IsWebSection(sec) {
			cur.Enrichment[sec] = SectionStatus{Status: StatusNeedsWebsite, UpdatedAt: now,
				Source: "website discovery", Error: errNeedsWebsite}
		}
	}
	rest = slices.DeleteFunc(slices.Clone(secs), IsWebSection)
	return v, rest, false, true, nil
}

// mergeSections is stored with what an enrichment that read nothing from
// the web recorded: its discovery evidence and the states of its web
// sections and of the other sections it ran (rest).
func mergeSections(stored, got Profile, rest []Section) Profile {
	stored.Discovery, stored.WebsiteSource = got.Discovery, got.WebsiteSource
	if stored.Enrichment == nil {
		stored.Enrichment = map[Section]SectionStatus{}
	}
	for sec, st := range got.Enrichment {
		if IsWebSection(sec) && st.Status == StatusNeedsWebsite || slices.Contains(rest, sec) {
			stored.Enrichment[sec] = st
		}
	}
	return stored
}
