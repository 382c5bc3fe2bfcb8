package memstore

import (
	"time"

	"maps"
	"slices"

	"github.com/vetted-dev/vetted/core/alerts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/internal/outboxjson"
)

// The clone functions deep-copy values crossing the store's boundary: every
// slice, map and pointer is copied, so neither the caller nor the store sees
// the other's later mutations. Types without references are copied by value.

func same[V any](v V) V { return v }

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// cloneStrings copies s; a nil s becomes empty, as a database array reads back.
func cloneStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return slices.Clone(s)
}

func cloneVendor(v vendors.Vendor) vendors.Vendor {
	v.Aliases = cloneStrings(v.Aliases)
	return v
}

func cloneProfile(p vendors.Profile) vendors.Profile {
	c := &p.Company
	c.FoundedYear, c.EmployeeCount = clonePtr(c.FoundedYear), clonePtr(c.EmployeeCount)
	c.Alias = slices.Clone(c.Alias)
	s := &p.Security
	s.ComplianceCertifications = slices.Clone(s.ComplianceCertifications)
	s.PublishedSubprocessors = slices.Clone(s.PublishedSubprocessors)
	e := &s.ExternalSignals
	e.TLS, e.HSTS, e.SecurityHeaders = clonePtr(e.TLS), clonePtr(e.HSTS), clonePtr(e.SecurityHeaders)
	e.SPF, e.DMARC, e.DNSSEC = clonePtr(e.SPF), clonePtr(e.DMARC), clonePtr(e.DNSSEC)
	e.CAA, e.MTASTS, e.SecurityTxt = clonePtr(e.CAA), clonePtr(e.MTASTS), clonePtr(e.SecurityTxt)
	pr := &p.Privacy
	pr.DataCollected = slices.Clone(pr.DataCollected)
	pr.SupportsDataSubjectRequests = clonePtr(pr.SupportsDataSubjectRequests)
	pr.GDPRCompliant = clonePtr(pr.GDPRCompliant)
	pr.DataReturnedAfterTermination = clonePtr(pr.DataReturnedAfterTermination)
	m := &p.Maturity
	m.HasEnterpriseCustomers, m.PopularityIndex = clonePtr(m.HasEnterpriseCustomers), clonePtr(m.PopularityIndex)
	sc := &p.Scores
	sc.SecurityRating, sc.RiskScore = clonePtr(sc.SecurityRating), clonePtr(sc.RiskScore)
	sc.RiskCategories = slices.Clone(sc.RiskCategories)
	sc.BreachHistory = slices.Clone(sc.BreachHistory)
	p.Enrichment = maps.Clone(p.Enrichment)
	if p.Enrichment == nil {
		p.Enrichment = map[vendors.Section]vendors.SectionStatus{}
	}
	p.LatestGRC = p.LatestGRC.Clone()
	p.Discovery = p.Discovery.Clone()
	return p
}

func cloneRating(r vendors.RatingRecord) vendors.RatingRecord {
	r.Rating, r.CertExpiresAt = clonePtr(r.Rating), clonePtr(r.CertExpiresAt)
	r.ChecksRun, r.ChecksTotal = clonePtr(r.ChecksRun), clonePtr(r.ChecksTotal)
	r.Findings, r.Changes = slices.Clone(r.Findings), slices.Clone(r.Changes)
	return r
}

func cloneGRC(g vendors.GRCAssessment) vendors.GRCAssessment { return *g.Clone() }

func cloneAssessment(a assessments.Assessment) assessments.Assessment {
	a.VendorProfileID = clonePtr(a.VendorProfileID)
	a.DataCollected = slices.Clone(a.DataCollected)
	return a
}

func cloneEvent(e assessments.AuditEvent) assessments.AuditEvent {
	e.Changes = slices.Clone(e.Changes)
	return e
}

func cloneSubscriber(s alerts.Subscriber) alerts.Subscriber {
	s.ConfirmedAt = clonePtr(s.ConfirmedAt)
	return s
}

func cloneIncident(in vendors.Incident) vendors.Incident {
	in.PotentiallyImpactedData = cloneStrings(in.PotentiallyImpactedData)
	in.Sources = slices.Clone(in.Sources)
	in.Keys = cloneStrings(in.Keys)
	if in.Match != nil {
		m := *in.Match
		in.Match = &m
	}
	return in
}

func cloneRun(r vendors.Run) vendors.Run {
	r.Sections = slices.Clone(r.Sections)
	r.Jobs = slices.Clone(r.Jobs)
	return r
}

// newOutboxRow is the row of m, its payload encoded.
func newOutboxRow(m outbox.Message) (outboxRow, error) {
	b, err := outboxjson.Encode(m.Kind, m.Payload)
	if err != nil {
		return outboxRow{}, err
	}
	m.Payload = nil
	// A message due later waits until DueAt, as available_at does in SQL.
	var next time.Time
	if !m.DueAt.IsZero() {
		next = m.DueAt
	}
	return outboxRow{msg: m, payload: b, nextAttempt: next}, nil
}

// message rebuilds the message of a row, with a payload of its own.
func (r outboxRow) message() outbox.Message {
	m := r.msg
	m.Payload = outboxjson.Decode(m.Kind, r.payload)
	return m
}
