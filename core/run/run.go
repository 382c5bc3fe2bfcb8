// Package run holds asynchronous runs (enrichment and incident backfill) and
// their per-vendor jobs, so progress can be read back by run_id.
package run

import (
	"time"

	"github.com/google/uuid"
)

// Kinds of runs.
const (
	KindEnrich   = "enrich"
	KindBackfill = "incident-backfill"
)

// Statuses of runs and jobs.
const (
	StatusQueued  = "queued"
	StatusRunning = "running"
	StatusDone    = "done"
	StatusFailed  = "failed"
	StatusSkipped = "skipped"
)

// KindValues lists the kinds of runs.
func KindValues() []string { return []string{KindEnrich, KindBackfill} }

// StatusValues lists the statuses a run as a whole can have.
func StatusValues() []string { return []string{StatusQueued, StatusRunning, StatusDone, StatusFailed} }

// JobStatusValues lists the statuses of one job (and of a profile section).
func JobStatusValues() []string {
	return []string{StatusQueued, StatusRunning, StatusDone, StatusFailed, StatusSkipped}
}

// Job is the work for one vendor in a run.
type Job struct {
	ID         uuid.UUID
	VendorID   uuid.UUID
	VendorName string
	Status     string
	Error      string // why it failed or was skipped
	Created    int    // backfill: the incidents stored for this vendor
	Found      int    // backfill: the incidents its sources returned (Created of them were new)
}

// Run is an enrichment or backfill run.
type Run struct {
	ID        uuid.UUID
	Kind      string
	Sections  []string
	CreatedBy string
	Jobs      []Job
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Counts summarises job states.
type Counts struct {
	Total, Queued, Running, Done, Failed, Skipped int
}

// Counts counts the jobs by status.
func (r Run) Counts() Counts {
	c := Counts{Total: len(r.Jobs)}
	for _, j := range r.Jobs {
		switch j.Status {
		case StatusQueued:
			c.Queued++
		case StatusRunning:
			c.Running++
		case StatusDone:
			c.Done++
		case StatusFailed:
			c.Failed++
		case StatusSkipped:
			c.Skipped++
		}
	}
	return c
}

// Incidents adds up what a backfill run's jobs found and stored.
func (r Run) Incidents() (found, created int) {
	for _, j := range r.Jobs {
		found += j.Found
		created += j.Created
	}
	return found, created
}

// Status is the run's overall state.
func (r Run) Status() string {
	c := r.Counts()
	switch {
	case c.Queued+c.Running > 0 && c.Done+c.Failed+c.Skipped == 0 && c.Running == 0:
		return StatusQueued
	case c.Queued+c.Running > 0:
		return StatusRunning
	case c.Failed > 0 && c.Done == 0 && c.Total > 0:
		return StatusFailed
	}
	return StatusDone
}

// SetJob replaces the job with the same id; it reports whether it found one.
func (r *Run) SetJob(j Job, now time.Time) bool {
	for i := range r.Jobs {
		if r.Jobs[i].ID == j.ID {
			r.Jobs[i] = j
			r.UpdatedAt = now.UTC()
			return true
		}
	}
	return false
}
