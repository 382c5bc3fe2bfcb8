package api

import (
	"bufio"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"
	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/dircache"
	"github.com/vetted-dev/vetted/apps/obs"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/platform/ttlcache"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

// VendorJSON is a vendor directory entry.
type VendorJSON struct {
	ID         string    `json:"id" format:"uuid"`
	Name       string    `json:"name" doc:"Canonical name"`
	WebsiteURL string    `json:"website_url"`
	Domain     string    `json:"domain"`
	Aliases    []string  `json:"aliases"`
	IsCustom   bool      `json:"is_custom" doc:"True while the vendor has no profile"`
	CreatedAt  time.Time `json:"created_at"`
}

// SectionStatusJSON is the enrichment state of one profile section.
type SectionStatusJSON struct {
	Status    SectionState `json:"status"`
	UpdatedAt time.Time    `json:"updated_at"`
	Source    string       `json:"source"`
	Error     string       `json:"error,omitempty"`
}

// VendorViewJSON is a directory entry with its profile groups. A custom
// vendor (no profile, or a deleted one) has empty groups and no
// vendor_profile_id.
type VendorViewJSON struct {
	VendorJSON
	VendorProfileID     string                       `json:"vendor_profile_id,omitempty" format:"uuid"`
	Company             Company                      `json:"company"`
	Security            Security                     `json:"security"`
	Privacy             Privacy                      `json:"privacy"`
	Maturity            Maturity                     `json:"maturity"`
	Scores              Scores                       `json:"scores"`
	Enrichment          map[string]SectionStatusJSON `json:"enrichment" doc:"Per section: basic, additional, maturity, security, privacy, logo, scores"`
	LatestGRCAssessment *GRCAssessment               `json:"latest_grc_assessment,omitempty"`
	// WebsiteSource and WebsiteDiscovery say where website_url came from.
	WebsiteSource    WebsiteSource         `json:"website_source,omitempty" doc:"Where website_url came from; absent while none is known"`
	WebsiteDiscovery *WebsiteDiscoveryJSON `json:"website_discovery,omitempty" doc:"The evidence of the last website discovery; absent when none ran"`
	UpdatedAt        *time.Time            `json:"updated_at,omitempty"`

	raw []byte // this view as JSON, when already encoded
}

// MarshalJSON writes the view, or the JSON it was encoded to before.
func (v VendorViewJSON) MarshalJSON() ([]byte, error) {
	if v.raw != nil {
		return v.raw, nil
	}
	type fields VendorViewJSON // the same fields, without this method
	return json.Marshal(fields(v))
}

// encodedJSON is the JSON this view was encoded to before, if it was.
func (v *VendorViewJSON) encodedJSON() []byte { return v.raw }

// encodedView is the JSON of a vendor view the service remembers (see
// dircache.TTL): GET /vendor answers it as it is while the service
// serves the same view, so the hot read encodes each view once. It is
// remembered by vendor id with the version of the view it was encoded
// from (vendors.View.Version, given by the cache the directory reads
// through): a view read again that changed has a new version, one that did
// not keeps it, so its JSON is kept for as long as the service serves it,
// renewed at each dircache.MaxAge. An unversioned view (no cache) or one
// without a profile is encoded each time. ForgetVendors drops entries when
// another process announces a change.
func (s *Server) encodedView(view vendors.View) *VendorViewJSON {
	if view.Profile == nil || view.Version == 0 {
		out := vendorViewJSON(view)
		return &out
	}
	now := time.Now()
	if e, ok := s.views.Get(view.Vendor.ID, now); ok && e.version == view.Version {
		return e.json
	}
	out := vendorViewJSON(view)
	raw, err := out.MarshalJSON()
	if err != nil {
		return &out
	}
	enc := &VendorViewJSON{raw: raw}
	s.views.Put(view.Vendor.ID, encodedEntry{version: view.Version, json: enc}, now.Add(dircache.MaxAge), now)
	return enc
}

// viewMemo holds the encoded vendor views by vendor id (see encodedView).
type viewMemo = ttlcache.Map[uuid.UUID, encodedEntry]

// encodedEntry is a view's JSON with the version it was encoded from.
type encodedEntry struct {
	version uint64
	json    *VendorViewJSON
}

// ForgetVendors drops the encoded views of the vendors c names, or all of
// them; a change feed's subscriber calls it with the service's.
func (s *Server) ForgetVendors(c stores.Changed) {
	s.answers.forget(c) // see answers.go
	if c.All {
		s.views.Clear()
		return
	}
	for _, id := range c.Vendors {
		s.views.Delete(id)
	}
}

// SecurityInstanceJSON is a finding or signal about a vendor.
type SecurityInstanceJSON struct {
	ID         string       `json:"id" format:"uuid"`
	Kind       InstanceKind `json:"kind"`
	Category   string       `json:"category"`
	Code       string       `json:"code"`
	Title      string       `json:"title"`
	Severity   Severity     `json:"severity"`
	Evidence   string       `json:"evidence"`
	Source     string       `json:"source"`
	ObservedAt time.Time    `json:"observed_at"`
}

// IncidentJSON is a security incident at a vendor.
type IncidentJSON struct {
	ID                      string    `json:"id" format:"uuid"`
	VendorID                string    `json:"vendor_id" format:"uuid"`
	Title                   string    `json:"title"`
	Summary                 string    `json:"summary"`
	IncidentType            string    `json:"incident_type"`
	AffectedService         string    `json:"affected_service"`
	PotentiallyImpactedData []string  `json:"potentially_impacted_data"`
	Status                  string    `json:"status"`
	Severity                string    `json:"severity"`
	URL                     string    `json:"url"`
	Source                  string    `json:"source"`
	ExternalID              string    `json:"external_id"`
	PublishedAt             time.Time `json:"published_at"`
	Backfilled              bool      `json:"backfilled" doc:"Historical: never alerted"`
	// Match and Sources are the evidence of an incident of a platform-wide
	// source (incidents.go).
	Match   *IncidentMatchJSON   `json:"match" doc:"Why an item of a platform-wide source (news, kev, breach, filing) was matched to the vendor; null for status-page, feed and manual incidents"`
	Sources []IncidentSourceJSON `json:"sources" doc:"Every item merged into the incident, first seen first"`
}

// JobJSON is one vendor of an enrichment or backfill run.
type JobJSON struct {
	JobID      string    `json:"job_id" format:"uuid"`
	VendorID   string    `json:"vendor_id" format:"uuid"`
	VendorName string    `json:"vendor_name"`
	Status     JobStatus `json:"status"`
	Error      string    `json:"error"`
	Created    int       `json:"created,omitempty" doc:"Backfill: incidents stored for this vendor (new ones)"`
	Found      int       `json:"found,omitempty" doc:"Backfill: incidents the sources returned for this vendor, new or already stored"`
}

// RunCountsJSON counts the jobs of a run by status.
type RunCountsJSON struct {
	Total   int `json:"total"`
	Queued  int `json:"queued"`
	Running int `json:"running"`
	Done    int `json:"done"`
	Failed  int `json:"failed"`
	Skipped int `json:"skipped"`
}

// RunJSON is the status of an enrichment or backfill run.
type RunJSON struct {
	RunID     string        `json:"run_id" format:"uuid"`
	Kind      RunKind       `json:"kind"`
	Status    RunStatus     `json:"status"`
	Sections  []string      `json:"sections"`
	Counts    RunCountsJSON `json:"counts"`
	Jobs      []JobJSON     `json:"jobs"`
	CreatedAt time.Time     `json:"created_at"`
	UpdatedAt time.Time     `json:"updated_at"`

	IncidentsFound   *int `json:"incidents_found,omitempty" doc:"Backfill runs: the incidents the sources returned for the run's vendors so far, new or already stored"`
	IncidentsCreated *int `json:"incidents_created,omitempty" doc:"Backfill runs: of those, the new ones stored (backfilled: they never alert)"`
}

func vendorJSON(v vendors.Vendor) VendorJSON {
	return VendorJSON{ID: v.ID.String(), Name: v.Name.String(), WebsiteURL: v.WebsiteURL, Domain: v.Domain,
		Aliases: nonNil(v.Aliases), IsCustom: v.IsCustom(), CreatedAt: v.CreatedAt}
}

// nonNil makes absent lists answer [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func vendorViewJSON(view vendors.View) VendorViewJSON {
	out := VendorViewJSON{VendorJSON: vendorJSON(view.Vendor), Enrichment: map[string]SectionStatusJSON{}}
	if p := view.Profile; p != nil {
		out.IsCustom = false
		out.VendorProfileID = p.ID.String()
		out.Company, out.Security, out.Privacy = Company(p.Company), securityJSON(p.Security), Privacy(p.Privacy)
		out.Maturity, out.Scores = Maturity(p.Maturity), scoresJSON(p.Scores)
		for sec, st := range p.Enrichment {
			out.Enrichment[string(sec)] = SectionStatusJSON{Status: SectionState(st.Status), UpdatedAt: st.UpdatedAt, Source: st.Source, Error: st.Error}
		}
		out.LatestGRCAssessment = grcJSON(p.LatestGRC)
		out.WebsiteSource, out.WebsiteDiscovery = WebsiteSource(p.WebsiteSource), websiteDiscoveryJSON(p.Discovery)
		updated := p.UpdatedAt
		out.UpdatedAt = &updated
	}
	out.Company.Alias = nonNil(out.Company.Alias)
	out.Security.ComplianceCertifications = nonNil(out.Security.ComplianceCertifications)
	out.Security.PublishedSubprocessors = nonNil(out.Security.PublishedSubprocessors)
	out.Privacy.DataCollected = nonNil(out.Privacy.DataCollected)
	out.Scores.RiskCategories = nonNil(out.Scores.RiskCategories)
	out.Scores.BreachHistory = nonNil(out.Scores.BreachHistory)
	return out
}

func instanceJSON(i vendors.SecurityInstance) SecurityInstanceJSON {
	return SecurityInstanceJSON{ID: i.ID.String(), Kind: InstanceKind(i.Kind), Category: i.Category, Code: i.Code, Title: i.Title,
		Severity: Severity(i.Severity), Evidence: i.Evidence, Source: i.Source, ObservedAt: i.ObservedAt}
}

func incidentJSON(in vendors.Incident) IncidentJSON {
	return IncidentJSON{ID: in.ID.String(), VendorID: in.VendorID.String(), Title: in.Title, Summary: in.Summary,
		IncidentType: in.IncidentType, AffectedService: in.AffectedService, PotentiallyImpactedData: nonNil(in.PotentiallyImpactedData),
		Status: in.Status, Severity: in.Severity, URL: in.URL, Source: in.Source, ExternalID: in.ExternalID,
		PublishedAt: in.PublishedAt, Backfilled: in.Backfilled, Match: incidentMatchJSON(in.Match), Sources: incidentSourcesJSON(in.Sources)}
}

func jobsJSON(js []vendors.RunJob) []JobJSON {
	out := make([]JobJSON, 0, len(js))
	for _, j := range js {
		out = append(out, JobJSON{JobID: j.ID.String(), VendorID: j.VendorID.String(), VendorName: j.VendorName,
			Status: JobStatus(j.Status), Error: j.Error, Created: j.Created, Found: j.Found})
	}
	return out
}

func runJSON(r vendors.Run) RunJSON {
	c := r.Counts()
	out := RunJSON{RunID: r.ID.String(), Kind: RunKind(r.Kind), Status: RunStatus(r.Status()), Sections: nonNil(r.Sections),
		Counts:    RunCountsJSON{Total: c.Total, Queued: c.Queued, Running: c.Running, Done: c.Done, Failed: c.Failed, Skipped: c.Skipped},
		Jobs:      jobsJSON(r.Jobs),
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
	if r.Kind == vendors.RunBackfill {
		found, created := r.Incidents()
		out.IncidentsFound, out.IncidentsCreated = &found, &created
	}
	return out
}

// parseSince reads a backfill start as an RFC 3339 date-time or a plain
// date (midnight UTC).
func parseSince(raw string) (*time.Time, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, nil
	}
	for _, layout := range []string{time.RFC3339Nano, time.DateOnly} {
		if t, err := time.Parse(layout, raw); err == nil {
			t = t.UTC()
			return &t, nil
		}
	}
	return nil, core.Invalid("since", "must be a date (2006-01-02) or an RFC 3339 date-time")
}

type vendorRefIn struct {
	VendorPath
}

// VendorsOutBody is the answer of GET /vendors/all.
type VendorsOutBody struct {
	Vendors    []VendorJSON `json:"vendors"`
	NextCursor string       `json:"next_cursor,omitempty" doc:"When more vendors follow this page: the cursor of the next one"`
}

// streamPage is how many vendors the whole directory is read by at a time.
const streamPage = 2000

func vendorsJSON(vs []vendors.Vendor) []VendorJSON {
	out := make([]VendorJSON, 0, len(vs))
	for _, v := range vs {
		out = append(out, vendorJSON(v))
	}
	return out
}

// streamVendors writes the whole directory as VendorsOutBody, starting from
// its first page, reading the rest a page at a time: the memory it takes
// is a page's, whatever the size of the directory. A store that fails once
// the answer has begun aborts the connection, so that the client sees a
// truncated answer, never a short list that looks whole.
func (s *Server) streamVendors(ctx context.Context, w io.Writer, page []vendors.Vendor, more bool) {
	bw := bufio.NewWriterSize(w, 32<<10)
	enc := json.NewEncoder(bw)
	_, _ = bw.WriteString(`{"vendors":[`)
	for n := 0; ; {
		for _, v := range page {
			if n > 0 {
				_ = bw.WriteByte(',')
			}
			n++
			_ = enc.Encode(vendorJSON(v)) // its trailing newline is JSON whitespace
		}
		if !more {
			break
		}
		var err error
		if page, more, err = s.vendors.VendorsPage(ctx, actor(ctx), page[len(page)-1].Name.String(), streamPage); err != nil {
			obs.Logger(ctx).ErrorContext(ctx, "GET /vendors/all: the directory could not be read to the end; answer aborted", "error", err)
			panic(http.ErrAbortHandler)
		}
	}
	_, _ = bw.WriteString("]}\n")
	_ = bw.Flush()
}

// vendorsPageIn pages GET /vendors/all. Without limit and cursor the answer
// is the whole directory, as the contract has it; with either, a page of
// the directory by name, walked with next_cursor.
type vendorsPageIn struct {
	Limit  int    `query:"limit" minimum:"1" limit:"vendor-page" doc:"At most this many vendors, by name, with next_cursor when more follow (1000 when only cursor is given). Without limit and cursor: the whole directory"`
	Cursor string `query:"cursor" maxLength:"1024" doc:"The next_cursor of the page before"`
}

// defaultVendorPage is the page size of a cursor given without a limit.
const defaultVendorPage = 1000

// A cursor is the last name of the page before, base64url-encoded: opaque
// to clients, and stable whatever is added to the directory meanwhile.
func encodeCursor(last vendors.Name) string {
	return base64.RawURLEncoding.EncodeToString([]byte(last))
}

func decodeCursor(c string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(b) == 0 || !utf8.Valid(b) {
		return "", core.Invalid("cursor", "is not a cursor this service gave")
	}
	return string(b), nil
}

// vendorViewOut holds its body by pointer: a remembered view is answered
// without copying (or boxing) the struct of every group it carries.
type vendorViewOut struct{ Body *VendorViewJSON }

type instancesOut struct {
	Body struct {
		VendorID  string                 `json:"vendor_id" format:"uuid"`
		Instances []SecurityInstanceJSON `json:"instances"`
		ChecksRun int                    `json:"checks_run" doc:"How many of the scan's checks ran (0 before the first scan): a check that could not run records its not-checked signal"`
		// ChecksTotal is the number of checks a scan has.
		ChecksTotal int `json:"checks_total" doc:"How many checks a scan has"`
	}
}

type incidentsOut struct {
	Body struct {
		Incidents []IncidentJSON `json:"incidents"`
	}
}

type enrichIn struct {
	Body struct {
		Vendors    []string  `json:"vendors" minItems:"1" limit:"run-vendors" doc:"Vendor names or ids; unknown names are added to the directory"`
		Sections   []Section `json:"enrichmentSections,omitempty" doc:"Sections to run; omitted = the full pipeline"`
		CreateOnly bool      `json:"createOnly,omitempty" doc:"Only vendors without a profile; the others are skipped"`
	}
}

type enrichOut struct {
	Body struct {
		RunID  string    `json:"run_id" format:"uuid"`
		Status RunStatus `json:"status"`
		Jobs   []JobJSON `json:"jobs"`
	}
}

type runIn struct {
	RunPath
}

type runOut struct{ Body RunJSON }

type patchVendorIn struct {
	VendorPath
	Body map[string]json.RawMessage `doc:"JSON merge patch (RFC 7396) over the groups company, security, privacy and maturity, and the directory entry's aliases"`
}

type deleteVendorOut struct {
	Body struct {
		Deleted VendorJSON `json:"deleted"`
	}
}

type backfillIn struct {
	Body *struct {
		Vendors []string `json:"vendors,omitempty" maxItems:"1000" doc:"Vendor names or ids; omitted = the whole directory"`
		Since   string   `json:"since,omitempty" doc:"Only incidents published since: a date or an RFC 3339 date-time"`
	} `required:"false"`
}

type backfillOut struct {
	Body struct {
		RunID  string    `json:"run_id" format:"uuid"`
		Status RunStatus `json:"status"`
	}
}

type recordIncidentIn struct {
	VendorPath
	Body struct {
		Title                   string           `json:"title" minLength:"1" maxLength:"500"`
		Summary                 string           `json:"summary,omitempty" maxLength:"10000"`
		IncidentType            string           `json:"incident_type,omitempty" maxLength:"200"`
		AffectedService         string           `json:"affected_service,omitempty" maxLength:"200"`
		PotentiallyImpactedData []string         `json:"potentially_impacted_data,omitempty" maxItems:"200"`
		Status                  string           `json:"status,omitempty" maxLength:"100" doc:"Default open"`
		Severity                IncidentSeverity `json:"severity,omitempty" doc:"Default medium"`
		URL                     string           `json:"url,omitempty" maxLength:"2000"`
		Source                  string           `json:"source,omitempty" maxLength:"200" doc:"Default manual"`
		ExternalID              string           `json:"external_id,omitempty" maxLength:"500" doc:"Unique per source; default the incident id"`
		PublishedAt             *time.Time       `json:"published_at,omitempty" doc:"Default now"`
		Backfilled              bool             `json:"backfilled,omitempty" doc:"Historical: stored without alerting anyone"`
	}
}

type incidentOut struct{ Body IncidentJSON }

// vendorsHandler answers the Vendors operations of the global directory
// (profiles, findings, incidents, enrichment and backfill runs) with the
// vendors area of the core.
type vendorsHandler struct{ *Server }

// listVendors answers list-vendors.
func (h vendorsHandler) listVendors(ctx context.Context, in *vendorsPageIn) (*huma.StreamResponse, error) {
	after, limit := "", cmp.Or(in.Limit, defaultVendorPage)
	if in.Cursor != "" {
		var err error
		if after, err = decodeCursor(in.Cursor); err != nil {
			return nil, err
		}
	}
	whole := in.Limit == 0 && in.Cursor == ""
	if whole {
		limit = streamPage
	}
	// The first page is read before anything is written, so that a
	// store that does not answer still gets its problem answer.
	vs, more, err := h.vendors.VendorsPage(ctx, actor(ctx), after, limit)
	if err != nil {
		return nil, err
	}
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		hctx.SetHeader("Content-Type", "application/json")
		if !whole {
			body := VendorsOutBody{Vendors: vendorsJSON(vs)}
			if more {
				body.NextCursor = encodeCursor(vs[len(vs)-1].Name)
			}
			_ = json.NewEncoder(hctx.BodyWriter()).Encode(body)
			return
		}
		h.streamVendors(ctx, hctx.BodyWriter(), vs, more)
	}}, nil
}

// getVendor answers get-vendor.
func (h vendorsHandler) getVendor(ctx context.Context, in *vendorRefIn) (*vendorViewOut, error) {
	ref, err := in.vendorRef()
	if err != nil {
		return nil, err
	}
	view, err := h.vendors.GetVendor(ctx, actor(ctx), ref)
	if err != nil {
		return nil, err
	}
	return &vendorViewOut{Body: h.encodedView(view)}, nil
}

// securityInstances answers get-vendor-security-instances.
func (h vendorsHandler) securityInstances(ctx context.Context, in *vendorRefIn) (*instancesOut, error) {
	ref, err := in.vendorRef()
	if err != nil {
		return nil, err
	}
	v, is, err := h.vendors.SecurityInstances(ctx, actor(ctx), ref)
	if err != nil {
		return nil, err
	}
	out := &instancesOut{}
	out.Body.VendorID = v.ID.String()
	out.Body.Instances = make([]SecurityInstanceJSON, 0, len(is))
	for _, i := range is {
		out.Body.Instances = append(out.Body.Instances, instanceJSON(i))
	}
	out.Body.ChecksRun, out.Body.ChecksTotal = vendors.CheckCoverage(is)
	return out, nil
}

// incidents answers get-vendor-incidents.
func (h vendorsHandler) incidents(ctx context.Context, in *vendorRefIn) (*incidentsOut, error) {
	ref, err := in.vendorRef()
	if err != nil {
		return nil, err
	}
	ins, err := h.vendors.Incidents(ctx, actor(ctx), ref)
	if err != nil {
		return nil, err
	}
	out := &incidentsOut{}
	out.Body.Incidents = make([]IncidentJSON, 0, len(ins))
	for _, i := range ins {
		out.Body.Incidents = append(out.Body.Incidents, incidentJSON(i))
	}
	return out, nil
}

// recordIncident answers record-vendor-incident.
func (h vendorsHandler) recordIncident(ctx context.Context, in *recordIncidentIn) (*incidentOut, error) {
	b := in.Body
	inc := vendors.Incident{Title: b.Title, Summary: b.Summary, IncidentType: b.IncidentType, AffectedService: b.AffectedService,
		PotentiallyImpactedData: b.PotentiallyImpactedData, Status: b.Status, Severity: string(b.Severity), URL: b.URL,
		Source: b.Source, ExternalID: b.ExternalID, Backfilled: b.Backfilled}
	if b.PublishedAt != nil {
		inc.PublishedAt = b.PublishedAt.UTC()
	}
	ref, err := in.vendorRef()
	if err != nil {
		return nil, err
	}
	got, err := h.vendors.RecordIncident(ctx, actor(ctx), ref, inc)
	if err != nil {
		return nil, err
	}
	return &incidentOut{Body: incidentJSON(got)}, nil
}

// enrich answers enrich-vendors.
func (h vendorsHandler) enrich(ctx context.Context, in *enrichIn) (*enrichOut, error) {
	sections := make([]string, len(in.Body.Sections))
	for i, sec := range in.Body.Sections {
		sections[i] = string(sec)
	}
	r, err := h.vendors.Enrich(ctx, actor(ctx), in.Body.Vendors, sections, in.Body.CreateOnly)
	if err != nil {
		return nil, err
	}
	out := &enrichOut{}
	out.Body.RunID, out.Body.Status, out.Body.Jobs = r.ID.String(), RunStatus(r.Status()), jobsJSON(r.Jobs)
	return out, nil
}

// enrichRun answers get-enrich-run.
func (h vendorsHandler) enrichRun(ctx context.Context, in *runIn) (*runOut, error) {
	id, err := in.runID()
	if err != nil {
		return nil, err
	}
	r, err := h.vendors.Run(ctx, actor(ctx), vendors.RunEnrich, id)
	if err != nil {
		return nil, err
	}
	return &runOut{Body: runJSON(r)}, nil
}

// patchVendor answers patch-vendor.
func (h vendorsHandler) patchVendor(ctx context.Context, in *patchVendorIn) (*vendorViewOut, error) {
	ref, err := in.vendorRef()
	if err != nil {
		return nil, err
	}
	view, err := h.vendors.PatchVendor(ctx, actor(ctx), ref, in.Body)
	if err != nil {
		return nil, err
	}
	out := vendorViewJSON(view)
	return &vendorViewOut{Body: &out}, nil
}

// deleteVendor answers delete-vendor.
func (h vendorsHandler) deleteVendor(ctx context.Context, in *vendorRefIn) (*deleteVendorOut, error) {
	ref, err := in.vendorRef()
	if err != nil {
		return nil, err
	}
	v, err := h.vendors.DeleteVendor(ctx, actor(ctx), ref)
	if err != nil {
		return nil, err
	}
	out := &deleteVendorOut{}
	out.Body.Deleted = vendorJSON(v)
	return out, nil
}

// startBackfill answers start-incident-backfill.
func (h vendorsHandler) startBackfill(ctx context.Context, in *backfillIn) (*backfillOut, error) {
	var (
		names []vendors.Ref
		since *time.Time
		err   error
	)
	if in.Body != nil {
		for _, n := range in.Body.Vendors {
			ref, err := vendors.ParseRef(n)
			if err != nil {
				return nil, err
			}
			names = append(names, ref)
		}
		if since, err = parseSince(in.Body.Since); err != nil {
			return nil, err
		}
	}
	r, err := h.vendors.StartBackfill(ctx, actor(ctx), names, since)
	if err != nil {
		return nil, err
	}
	out := &backfillOut{}
	out.Body.RunID, out.Body.Status = r.ID.String(), RunStatus(r.Status())
	return out, nil
}

// backfillRun answers get-incident-backfill.
func (h vendorsHandler) backfillRun(ctx context.Context, in *runIn) (*runOut, error) {
	id, err := in.runID()
	if err != nil {
		return nil, err
	}
	r, err := h.vendors.Run(ctx, actor(ctx), vendors.RunBackfill, id)
	if err != nil {
		return nil, err
	}
	return &runOut{Body: runJSON(r)}, nil
}
