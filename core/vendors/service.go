package vendors

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/ports"
)

// Deps are the ports the directory use cases need.
type Deps struct {
	uow.Unit[Tx]
	Enricher  Enricher
	Incidents IncidentSource
	// Websites discovers the website of a vendor known by name only
	// before it is enriched; nil: no discovery (such a vendor's web
	// sections fail with "no website known", as before).
	Websites WebsiteFinder
	// Views is where GetVendor reads; nil reads the store (StoreViews).
	Views VendorViews
	// Log receives operational messages; nil means slog.Default().
	Log *slog.Logger
}

// Service implements the directory use cases.
type Service struct{ d Deps }

// NewService checks the dependencies and returns the service.
func NewService(d Deps) (*Service, error) {
	missing := d.Missing()
	if d.Enricher == nil {
		missing = append(missing, "Enricher")
	}
	if d.Incidents == nil {
		missing = append(missing, "Incidents")
	}
	if len(missing) > 0 {
		return nil, errors.New("vendors: missing dependencies: " + strings.Join(missing, ", "))
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if d.Views == nil {
		d.Views = StoreViews{Store: d.Store}
	}
	return &Service{d: d}, nil
}

// StoreViews reads vendor views from the store, one unit of work each.
type StoreViews struct{ Store ports.UnitOfWork[Tx] }

// View finds the vendor ref names and reads its profile.
func (r StoreViews) View(ctx context.Context, ref Ref) (View, error) {
	var view View
	err := r.Store.View(ctx, func(ctx context.Context, tx Tx) error {
		v, err := Resolve(ctx, tx, ref)
		if err != nil {
			return err
		}
		view, err = loadView(ctx, tx, v)
		return err
	})
	return view, err
}

// ViewsByID reads the views of the vendors among ids that exist, in one
// unit of work of two set-based queries (entries by id, their profiles).
func (r StoreViews) ViewsByID(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]View, error) {
	views := map[uuid.UUID]View{}
	err := r.Store.View(ctx, func(ctx context.Context, tx Tx) error {
		vs, err := tx.Vendors().ListByIDs(ctx, ids)
		if err != nil {
			return err
		}
		found := make([]uuid.UUID, 0, len(vs))
		for _, v := range vs {
			views[v.ID] = View{Vendor: v}
			found = append(found, v.ID)
		}
		ps, err := tx.Profiles().ListByVendors(ctx, found)
		if err != nil {
			return err
		}
		for i := range ps {
			view := views[ps[i].VendorID]
			view.Profile = &ps[i]
			views[ps[i].VendorID] = view
		}
		return nil
	})
	return views, err
}

// GetVendor returns an entry with its profile, by UUID or canonical name.
// It may come from a cache (Deps.Views); callers must not modify it.
func (s *Service) GetVendor(ctx context.Context, _ accounts.Actor, ref Ref) (View, error) {
	return s.d.Views.View(ctx, ref)
}

func loadView(ctx context.Context, tx Tx, v Vendor) (View, error) {
	view := View{Vendor: v}
	p, err := tx.Profiles().Get(ctx, v.ID)
	if err == nil {
		view.Profile = &p
	} else if !errors.Is(err, core.ErrNotFound) {
		return view, err
	}
	return view, nil
}

// MaxRunVendors bounds the vendors one enrichment run names.
const MaxRunVendors = 1000

// MaxVendorPage bounds a page of the directory.
const MaxVendorPage = 10_000

// VendorsPage returns at most limit directory entries (1 to MaxVendorPage)
// named after the name after (a cursor: "" for the first page), by name in
// byte order, and whether more follow.
func (s *Service) VendorsPage(ctx context.Context, _ accounts.Actor, after string, limit int) ([]Vendor, bool, error) {
	if limit < 1 || limit > MaxVendorPage {
		return nil, false, core.Invalid("Limit", "must be between 1 and %d", MaxVendorPage)
	}
	var out []Vendor
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		out, err = tx.Vendors().Page(ctx, Name(after), limit+1)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	more := len(out) > limit
	return out[:min(limit, len(out))], more, nil
}

// SecurityInstances returns a vendor's findings and signals.
func (s *Service) SecurityInstances(ctx context.Context, _ accounts.Actor, ref Ref) (Vendor, []SecurityInstance, error) {
	var (
		v   Vendor
		out []SecurityInstance
	)
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		if v, err = Resolve(ctx, tx, ref); err != nil {
			return err
		}
		out, err = tx.Profiles().Instances(ctx, v.ID)
		return err
	})
	return v, out, err
}

// Enrich starts an enrichment run for vendors named by name or id (platform
// admins). Unknown names are added to the directory first. With createOnly,
// vendors that already have a profile are skipped.
func (s *Service) Enrich(ctx context.Context, a accounts.Actor, names []string, sections []string, createOnly bool) (Run, error) {
	if err := accounts.RequirePlatformAdmin(a); err != nil {
		return Run{}, err
	}
	secs, err := ParseSections(sections)
	if err != nil {
		return Run{}, err
	}
	if len(names) == 0 {
		return Run{}, core.Invalid("Vendors", "must name at least one vendor")
	}
	if len(names) > MaxRunVendors {
		return Run{}, core.Invalid("Vendors", "at most %d vendors per run", MaxRunVendors)
	}
	secNames := make([]string, len(secs))
	for i, sct := range secs {
		secNames[i] = string(sct)
	}
	var r Run
	err = s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		var vs []Vendor
		var refs []string
		for _, n := range names {
			if id, perr := uuid.Parse(strings.TrimSpace(n)); perr == nil {
				v, err := tx.Vendors().Get(ctx, id)
				if errors.Is(err, core.ErrNotFound) {
					return core.NotFound("vendor %s is not in the directory", id)
				}
				if err != nil {
					return err
				}
				vs = append(vs, v)
				continue
			}
			refs = append(refs, n)
		}
		parsed, err := parseNames(refs)
		if err != nil {
			return err
		}
		ensured, err := s.EnsureVendors(ctx, tx, parsed)
		if err != nil {
			return err
		}
		vs = append(vs, ensured...)
		var queue []Vendor
		var skipped []RunJob
		seen := map[uuid.UUID]bool{}
		for _, v := range vs {
			if seen[v.ID] {
				continue
			}
			seen[v.ID] = true
			if createOnly && v.HasProfile {
				skipped = append(skipped, RunJob{ID: s.d.IDs.New(), VendorID: v.ID, VendorName: v.Name.String(), Status: RunSkipped, Error: "has a profile (createOnly)"})
				continue
			}
			queue = append(queue, v)
		}
		r, err = s.StartEnrichRun(ctx, tx, a.Email, queue, secNames, skipped...)
		return err
	})
	return r, err
}

func parseNames(raw []string) ([]VendorRef, error) {
	var errs core.Fields
	var out []VendorRef
	for i, n := range raw {
		p, err := ParseName(n)
		if err != nil {
			errs.Add(core.Index("Vendors", i), "must be a vendor name or UUID")
			continue
		}
		out = append(out, VendorRef{Name: p})
	}
	return out, errs.Err()
}

// Run returns an enrichment or backfill run (platform admins).
func (s *Service) Run(ctx context.Context, a accounts.Actor, kind string, rid uuid.UUID) (Run, error) {
	if err := accounts.RequirePlatformAdmin(a); err != nil {
		return Run{}, err
	}
	var r Run
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		r, err = tx.Runs().Get(ctx, rid)
		if err == nil && r.Kind != kind {
			err = core.ErrNotFound
		}
		if errors.Is(err, core.ErrNotFound) {
			return core.NotFound("run %s", rid)
		}
		return err
	})
	return r, err
}

func (s *Service) setJob(ctx context.Context, runID, jobID uuid.UUID, mut func(*RunJob)) error {
	return s.d.Store.InTx(ctx, func(ctx context.Context, tx Tx) error {
		r, err := tx.Runs().GetForUpdate(ctx, runID)
		if errors.Is(err, core.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		for _, j := range r.Jobs {
			if j.ID == jobID {
				mut(&j)
				r.SetJob(j, s.d.Now())
				return tx.Runs().Save(ctx, r)
			}
		}
		return nil
	})
}

// EnrichJob enriches one vendor: the fetching happens outside any unit of
// work; the result is stored in one.
func (s *Service) EnrichJob(ctx context.Context, p outbox.Enrich) error {
	if err := s.setJob(ctx, p.RunID, p.JobID, func(j *RunJob) { j.Status = RunRunning }); err != nil {
		return err
	}
	var view View
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		v, err := tx.Vendors().Get(ctx, p.VendorID)
		if err != nil {
			return err
		}
		view, err = loadView(ctx, tx, v)
		return err
	})
	if errors.Is(err, core.ErrNotFound) {
		return s.setJob(ctx, p.RunID, p.JobID, func(j *RunJob) { j.Status, j.Error = RunFailed, "vendor no longer exists" })
	}
	if err != nil {
		return err
	}
	cur := NewProfile(s.d.IDs.New(), view.Vendor.ID, s.d.Now())
	if view.Profile != nil {
		cur = *view.Profile
	}
	secs, _ := ParseSections(p.Sections)
	wantScores := slices.Contains(secs, SectionScores)
	secs = slices.DeleteFunc(secs, func(sec Section) bool { return sec == SectionScores })
	vendor, secs, discovered, needsWebsite, err := s.findWebsite(ctx, view, &cur, secs)
	if err != nil {
		return err // the context ended: the job is tried again
	}
	res := EnrichResult{Profile: cur}
	if len(secs) > 0 {
		var eerr error
		if res, eerr = s.d.Enricher.Enrich(ctx, vendor, cur, secs); eerr != nil {
			return s.setJob(ctx, p.RunID, p.JobID, func(j *RunJob) { j.Status, j.Error = RunFailed, eerr.Error() })
		}
	}
	if outcome, reason := EnrichmentOutcome(secs, res.Profile.Enrichment); view.Profile == nil && res.Instances == nil && !needsWebsite &&
		(outcome == OutcomeFailed || outcome == OutcomeSkipped) {
		// Nothing was found (no website, a site that does not answer, no
		// scan to rate): no profile is made of it, so the vendor stays
		// custom, as save-vendors answered (is_custom: no profile yet),
		// and a later run or createOnly enrichment tries it again.
		status := RunFailed
		if outcome == OutcomeSkipped {
			status, reason = RunSkipped, cmp.Or(reason, errNoScan)
		}
		s.logEnrichment(ctx, view.Vendor, p.RunID, outcome, reason)
		return s.setJob(ctx, p.RunID, p.JobID, func(j *RunJob) { j.Status, j.Error = status, reason })
	}
	var prof Profile
	err = s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		prof = res.Profile
		if needsWebsite {
			// Nothing was read but the discovery's evidence: it goes onto
			// the profile as it is now, so that an edit made while the
			// discovery ran (an admin's PATCH) is not lost.
			if stored, err := tx.Profiles().Get(ctx, view.Vendor.ID); err == nil {
				prof = mergeSections(stored, res.Profile, secs)
			} else if !errors.Is(err, core.ErrNotFound) {
				return err
			}
		}
		prof.VendorID, prof.ID = view.Vendor.ID, cur.ID
		prof.UpdatedAt = s.d.Now()
		if discovered {
			// Only the website and domain it had not: a website given
			// meanwhile (save-vendors, an import) wins.
			stored, err := tx.Vendors().Get(ctx, vendor.ID)
			if err != nil {
				return err
			}
			if stored.WebsiteURL == "" && stored.Domain == "" {
				stored.WebsiteURL, stored.Domain = vendor.WebsiteURL, vendor.Domain
				if err := tx.Vendors().Update(ctx, stored); err != nil {
					return err
				}
			}
		}
		if res.Instances != nil {
			if err := tx.Profiles().ReplaceInstances(ctx, view.Vendor.ID, res.Instances); err != nil {
				return err
			}
		}
		if wantScores || res.Instances != nil {
			if err := s.rate(ctx, tx, &prof, res.Instances); err != nil {
				return err
			}
		}
		return tx.Profiles().Save(ctx, prof)
	})
	if err != nil {
		return err
	}
	if wantScores || res.Instances != nil {
		secs = append(secs, SectionScores)
	}
	outcome, reason := EnrichmentOutcome(secs, prof.Enrichment)
	if needsWebsite && outcome != OutcomeFailed {
		// Not a failure: the job is skipped with the reason, and the
		// vendor reads needs_website on its lists.
		return s.setJob(ctx, p.RunID, p.JobID, func(j *RunJob) { j.Status, j.Error = RunSkipped, errNeedsWebsite })
	}
	s.logEnrichment(ctx, view.Vendor, p.RunID, outcome, reason)
	return s.setJob(ctx, p.RunID, p.JobID, func(j *RunJob) {
		switch j.Status, j.Error = RunDone, ""; outcome {
		case OutcomePartial:
			j.Error = reason
		case OutcomeFailed:
			j.Status, j.Error = RunFailed, reason
		}
	})
}

// logEnrichment logs an enrichment that did not find everything, once per
// vendor and run, at INFO: a vendor with no website is an everyday case,
// not an operator's alarm; its reason is in the run's job too.
func (s *Service) logEnrichment(ctx context.Context, v Vendor, runID uuid.UUID, outcome, reason string) {
	if outcome == OutcomeOK || outcome == OutcomeSkipped {
		return
	}
	msg := "enrichment failed"
	if outcome == OutcomePartial {
		msg = "enrichment partly failed"
	}
	s.d.Log.InfoContext(ctx, msg, "vendor", v.Name.String(), "vendor_id", v.ID, "run_id", runID, "outcome", outcome, "reason", reason)
}

// Why the scores section did not rate: never scanned (skipped), or no
// check could run (failed).
const (
	errNoScan       = "no security scan yet; run the security section first"
	errNothingRated = "no security check could run (see the vendor's security instances); no rating"
)

// rate computes the scores group and the latest GRC assessment from the
// security instances (the scan's when it ran now, else the stored ones) and
// keeps the assessment in the history. Scores always follow the latest
// scan, so it runs whenever a scan replaced the instances, requested or not.
func (s *Service) rate(ctx context.Context, tx Tx, prof *Profile, scanned []SecurityInstance) error {
	is := scanned
	if is == nil {
		var err error
		if is, err = tx.Profiles().Instances(ctx, prof.VendorID); err != nil {
			return fmt.Errorf("rate vendor %s: %w", prof.VendorID, err)
		}
	}
	now := s.d.Now()
	st := SectionStatus{Status: RunDone, UpdatedAt: now, Source: "security_instances"}
	g := prof.ApplyRating(is, now)
	switch {
	case len(is) == 0:
		// Nothing to rate yet (no website, or the security section has not
		// run): not a failure of the pipeline, so the vendor does not read
		// as failed on its lists.
		st.Status, st.Error = RunSkipped, errNoScan
	case g == nil:
		st.Status, st.Error = RunFailed, errNothingRated
	}
	if prof.Enrichment == nil {
		prof.Enrichment = map[Section]SectionStatus{}
	}
	prof.Enrichment[SectionScores] = st
	if scanned != nil {
		if err := s.recordRating(ctx, tx, *prof, scanned, now); err != nil {
			return err
		}
	}
	if g == nil {
		return nil
	}
	if err := tx.Profiles().AddGRCAssessment(ctx, prof.VendorID, *g); err != nil {
		return fmt.Errorf("rate vendor %s: %w", prof.VendorID, err)
	}
	return nil
}

// recordRating keeps a scan's rating, grade and findings in the vendor's
// rating history, with what changed that matters since the scan before
// (RatingChanges); a change is an event, emitted in the same
// unit of work (KindRatingChanged), so it is alerted exactly when the
// record is kept.
func (s *Service) recordRating(ctx context.Context, tx Tx, prof Profile, scanned []SecurityInstance, now time.Time) error {
	rec := NewRatingRecord(s.d.IDs.New(), prof, scanned, now)
	last, err := tx.Profiles().Ratings(ctx, prof.VendorID, nil, 1)
	if err != nil {
		return fmt.Errorf("rating history of vendor %s: %w", prof.VendorID, err)
	}
	var prev *RatingRecord
	if len(last) > 0 {
		prev = &last[0]
	}
	rec.Changes = RatingChanges(prev, rec)
	if err := tx.Profiles().AddRating(ctx, rec); err != nil {
		return fmt.Errorf("rating history of vendor %s: %w", prof.VendorID, err)
	}
	if !rec.IsEvent() {
		return nil
	}
	if err := s.d.Emit(ctx, tx, outbox.KindRatingChanged, outbox.RatingChanged{EventID: rec.ID, VendorID: rec.VendorID}); err != nil {
		return err
	}
	v, err := tx.Vendors().Get(ctx, rec.VendorID)
	if err != nil {
		return fmt.Errorf("vendor %s of a rating change: %w", rec.VendorID, err)
	}
	return s.d.Event(ctx, tx, ratingEvent(v.Name.String(), prev, rec))
}

// ratingEvent is the webhook event (vendor.rating_changed) of a record that
// carries changes: the grade and score before and after, and a reason per
// change. The event's id is the record's, so that it is the same event the
// subscribers' mail tells of.
func ratingEvent(vendorName string, prev *RatingRecord, rec RatingRecord) domainevent.Event {
	score := func(r *int) int {
		if r == nil {
			return 0
		}
		return *r
	}
	var oldGrade string
	var oldScore int
	if prev != nil {
		oldGrade, oldScore = prev.Grade, score(prev.Rating)
	}
	reasons := make([]string, len(rec.Changes))
	for i, c := range rec.Changes {
		reasons[i] = string(c.Kind)
		if c.Detail != "" {
			reasons[i] += ": " + c.Detail
		}
	}
	ev := domainevent.RatingChange(rec.VendorID, vendorName, oldGrade, rec.Grade, oldScore, score(rec.Rating), reasons, rec.ScannedAt)
	ev.ID = rec.ID
	return ev
}

// Page sizes of the rating history.
const (
	DefaultRatingPage = 20
	MaxRatingPage     = 100
)

// RatingHistory is a page of a vendor's rating history, newest first,
// after the cursor when it is not nil (a zero cursor is one the API did
// not give); next is the cursor of the following page, nil on the last.
func (s *Service) RatingHistory(ctx context.Context, _ accounts.Actor, ref Ref, after *RatingCursor, limit int) (
	v Vendor, page []RatingRecord, next *RatingCursor, err error) {
	if limit == 0 {
		limit = DefaultRatingPage
	}
	if limit < 1 || limit > MaxRatingPage {
		return v, nil, nil, core.Invalid("RatingQuery.Limit", "must be between 1 and %d", MaxRatingPage)
	}
	if after != nil && after.ID == uuid.Nil {
		return v, nil, nil, core.Invalid("RatingQuery.Cursor", "is not a cursor of this rating history")
	}
	err = s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		if v, err = Resolve(ctx, tx, ref); err != nil {
			return err
		}
		page, err = tx.Profiles().Ratings(ctx, v.ID, after, limit+1)
		return err
	})
	if err != nil {
		return v, nil, nil, err
	}
	if len(page) > limit {
		page = page[:limit]
		last := page[limit-1]
		next = &RatingCursor{At: last.ScannedAt, ID: last.ID}
	}
	return v, page, next, nil
}

// ReenrichStale queues a run for profiles not updated within maxAge.
func (s *Service) ReenrichStale(ctx context.Context, maxAge time.Duration) (int, error) {
	var n int
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		vs, err := tx.Vendors().List(ctx)
		if err != nil {
			return err
		}
		var stale []Vendor
		cutoff := s.d.Now().Add(-maxAge)
		for _, v := range vs {
			p, err := tx.Profiles().Get(ctx, v.ID)
			if errors.Is(err, core.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			if p.UpdatedAt.Before(cutoff) {
				stale = append(stale, v)
			}
		}
		n = len(stale)
		if n == 0 {
			return nil
		}
		_, err = s.StartEnrichRun(ctx, tx, "scheduler", stale, SectionValues())
		return err
	})
	return n, err
}

// PatchVendor applies a JSON merge patch over the whitelisted profile
// fields and the directory entry's aliases (platform admins), in one unit
// of work; nothing is applied unless all of it is. A patch that names
// profile groups, or nothing at all, creates the profile if there is none;
// a patch of aliases alone leaves a vendor without a profile without one.
// No enrichment runs.
func (s *Service) PatchVendor(ctx context.Context, a accounts.Actor, ref Ref, patch map[string]json.RawMessage) (View, error) {
	if err := accounts.RequirePlatformAdmin(a); err != nil {
		return View{}, err
	}
	profilePatch, rawAliases, setAliases := splitAliases(patch)
	var view View
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		v, err := Resolve(ctx, tx, ref)
		if err != nil {
			return err
		}
		if view, err = loadView(ctx, tx, v); err != nil {
			return err
		}
		var errs core.Fields
		var aliases []string
		if setAliases {
			aliases, err = ParseAliases(rawAliases)
			if err != nil && !errs.AddErr(err) {
				return err
			}
		}
		patchProfile := len(profilePatch) > 0 || !setAliases
		p := NewProfile(s.d.IDs.New(), v.ID, s.d.Now())
		if view.Profile != nil {
			p = *view.Profile
		}
		if patchProfile {
			if err := p.ApplyPatch(profilePatch, s.d.Now()); err != nil && !errs.AddErr(err) {
				return err
			}
		}
		if err := errs.Err(); err != nil {
			return err
		}
		if setAliases {
			v.Aliases = aliases
			if err := tx.Vendors().Update(ctx, v); err != nil {
				return err
			}
			view.Vendor = v
		}
		if patchProfile {
			if err := tx.Profiles().Save(ctx, p); err != nil {
				return err
			}
			v.HasProfile = true
			view = View{Vendor: v, Profile: &p}
		}
		return nil
	})
	return view, err
}

// DeleteVendor removes a vendor's profile, its security instances and its
// GRC assessment history (platform admins); the directory entry and every
// list membership stay.
func (s *Service) DeleteVendor(ctx context.Context, a accounts.Actor, ref Ref) (Vendor, error) {
	if err := accounts.RequirePlatformAdmin(a); err != nil {
		return Vendor{}, err
	}
	var v Vendor
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		if v, err = Resolve(ctx, tx, ref); err != nil {
			return err
		}
		if err := tx.Profiles().Delete(ctx, v.ID); err != nil {
			if errors.Is(err, core.ErrNotFound) {
				return core.NotFound("vendor %q has no profile", v.Name)
			}
			return err
		}
		v.HasProfile = false
		return nil
	})
	return v, err
}

// RecordIncident records an incident by hand (platform admins). A live
// incident alerts the confirmed subscribers of every list that carries the
// vendor with alerts enabled.
func (s *Service) RecordIncident(ctx context.Context, a accounts.Actor, ref Ref, in Incident) (Incident, error) {
	if err := accounts.RequirePlatformAdmin(a); err != nil {
		return Incident{}, err
	}
	var out Incident
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		v, err := Resolve(ctx, tx, ref)
		if err != nil {
			return err
		}
		in.ID, in.VendorID, in.CreatedAt = s.d.IDs.New(), v.ID, s.d.Now()
		if in.PublishedAt.IsZero() {
			in.PublishedAt = s.d.Now()
		}
		if in.Source == "" {
			in.Source = "manual"
		}
		if out, err = NewIncident(in); err != nil {
			return err
		}
		if err := tx.Incidents().Create(ctx, out); err != nil {
			if errors.Is(err, core.ErrConflict) {
				return core.Conflict("incident %q from %s is already recorded", out.ExternalID, out.Source)
			}
			return err
		}
		if out.Backfilled {
			return nil
		}
		return s.announceIncident(ctx, tx, v, out)
	})
	return out, err
}

// Incidents returns a vendor's incidents.
func (s *Service) Incidents(ctx context.Context, _ accounts.Actor, ref Ref) ([]Incident, error) {
	var out []Incident
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		v, err := Resolve(ctx, tx, ref)
		if err != nil {
			return err
		}
		out, err = tx.Incidents().ListByVendor(ctx, v.ID)
		return err
	})
	return out, err
}

// StartBackfill starts a historical-incident backfill (platform admins) for
// the named vendors, or for the whole directory when none are named.
// Backfilled incidents are stored as historical and never alert.
func (s *Service) StartBackfill(ctx context.Context, a accounts.Actor, refs []Ref, since *time.Time) (Run, error) {
	if err := accounts.RequirePlatformAdmin(a); err != nil {
		return Run{}, err
	}
	var r Run
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		var vs []Vendor
		if len(refs) == 0 {
			var err error
			if vs, err = tx.Vendors().List(ctx); err != nil {
				return err
			}
		}
		for _, ref := range refs {
			v, err := Resolve(ctx, tx, ref)
			if err != nil {
				return err
			}
			vs = append(vs, v)
		}
		r = Run{ID: s.d.IDs.New(), Kind: RunBackfill, CreatedBy: a.Email, CreatedAt: s.d.Now(), UpdatedAt: s.d.Now()}
		seen := map[uuid.UUID]bool{}
		for _, v := range vs {
			if !seen[v.ID] {
				seen[v.ID] = true
				r.Jobs = append(r.Jobs, RunJob{ID: s.d.IDs.New(), VendorID: v.ID, VendorName: v.Name.String(), Status: RunQueued})
			}
		}
		if err := tx.Runs().Create(ctx, r); err != nil {
			return err
		}
		return s.d.Emit(ctx, tx, outbox.KindBackfill, outbox.Backfill{RunID: r.ID, Since: since})
	})
	return r, err
}

func (s *Service) RunBackfill(ctx context.Context, p outbox.Backfill) error {
	var r Run
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		r, err = tx.Runs().Get(ctx, p.RunID)
		return err
	})
	if errors.Is(err, core.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	since := time.Time{}
	if p.Since != nil {
		since = *p.Since
	}
	for _, j := range r.Jobs {
		if j.Status == RunDone || j.Status == RunSkipped {
			continue // a retried run resumes where it stopped
		}
		inserted, found, ferr := s.fetchIncidents(ctx, j.VendorID, since, true)
		if err := s.setJob(ctx, r.ID, j.ID, func(x *RunJob) {
			if ferr != nil {
				x.Status, x.Error = RunFailed, ferr.Error()
				return
			}
			x.Status, x.Created, x.Found, x.Error = RunDone, len(inserted), found, ""
		}); err != nil {
			return err
		}
	}
	return nil
}

// announceIncident queues the alert fan-out of a live incident and its
// webhook event (incident.created), in the unit of work that recorded it.
func (s *Service) announceIncident(ctx context.Context, tx Tx, v Vendor, in Incident) error {
	if err := s.d.Emit(ctx, tx, outbox.KindIncidentFanout, outbox.IncidentFanout{IncidentID: in.ID}); err != nil {
		return err
	}
	return s.d.Event(ctx, tx, IncidentEvent(v, in))
}

// fetchIncidents pulls a vendor's incidents and stores the new ones;
// historical ones are marked backfilled, live ones are fanned out. It
// returns the new ones and how many valid incidents the source returned.
func (s *Service) fetchIncidents(ctx context.Context, vendorID uuid.UUID, since time.Time, backfill bool) ([]Incident, int, error) {
	var v Vendor
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		v, err = tx.Vendors().Get(ctx, vendorID)
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	got, err := s.d.Incidents.Fetch(ctx, v, since)
	if err != nil {
		return nil, 0, err
	}
	ins := make([]Incident, 0, len(got))
	for _, g := range got {
		g.ID, g.VendorID, g.Backfilled, g.CreatedAt = s.d.IDs.New(), v.ID, backfill, s.d.Now()
		if g.PublishedAt.IsZero() {
			g.PublishedAt = s.d.Now()
		}
		n, err := NewIncident(g)
		if err != nil {
			s.d.Log.Warn("incident source returned an invalid incident", "vendor", v.Name, "err", err)
			continue
		}
		ins = append(ins, n)
	}
	var inserted []Incident
	err = s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		if inserted, err = tx.Incidents().Merge(ctx, ins); err != nil {
			return err
		}
		if backfill {
			return nil
		}
		for _, in := range inserted {
			if err := s.announceIncident(ctx, tx, v, in); err != nil {
				return err
			}
		}
		return nil
	})
	return inserted, len(ins), err
}

// PollIncidents fetches recent incidents for every directory vendor that is
// on at least one list; new ones are live and alert.
func (s *Service) PollIncidents(ctx context.Context) error {
	var vs []Vendor
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		vs, err = tx.Vendors().List(ctx)
		return err
	})
	if err != nil {
		return err
	}
	since := s.d.Now().Add(-24 * time.Hour)
	var errs []error
	for _, v := range vs {
		if _, _, err := s.fetchIncidents(ctx, v.ID, since, false); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		s.d.Log.Warn("incident poll had failures", "count", len(errs), "first", errs[0])
	}
	return nil
}

// EnsureVendors finds or creates directory entries for refs, in order.
func (s *Service) EnsureVendors(ctx context.Context, tx Tx, refs []VendorRef) ([]Vendor, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	cands := make([]Vendor, len(refs))
	for i, r := range refs {
		cands[i] = NewFromRef(s.d.IDs.New(), r, s.d.Now())
	}
	return tx.Vendors().Ensure(ctx, cands)
}

// StartEnrichRun records a run with one job per vendor (plus jobs already
// settled, such as skipped ones) and queues the jobs in one outbox write.
func (s *Service) StartEnrichRun(ctx context.Context, tx Tx, by string, vs []Vendor, sections []string, settled ...RunJob) (Run, error) {
	now := s.d.Now()
	r := Run{ID: s.d.IDs.New(), Kind: RunEnrich, Sections: sections, CreatedBy: by, CreatedAt: now, UpdatedAt: now}
	msgs := make([]outbox.Message, 0, len(vs))
	for _, v := range vs {
		j := RunJob{ID: s.d.IDs.New(), VendorID: v.ID, VendorName: v.Name.String(), Status: RunQueued}
		r.Jobs = append(r.Jobs, j)
		msgs = append(msgs, outbox.New(s.d.IDs.New(), outbox.KindEnrich, outbox.Enrich{RunID: r.ID, JobID: j.ID, VendorID: v.ID, Sections: sections}, now))
	}
	r.Jobs = append(r.Jobs, settled...)
	if len(msgs) > 0 {
		if err := uow.Add(ctx, tx, msgs...); err != nil {
			return r, err
		}
	}
	return r, tx.Runs().Create(ctx, r)
}
