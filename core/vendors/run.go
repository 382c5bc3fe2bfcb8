package vendors

import (
	"time"

	"github.com/google/uuid"
)

// Kinds of runs.
const (
	RunEnrich   = "enrich"
	RunBackfill = "incident-backfill"
)

// Statuses of runs and jobs.
const (
	RunQueued  = "queued"
	RunRunning = "running"
	RunDone    = "done"
	RunFailed  = "failed"
	RunSkipped = "skipped"
)

// RunKindValues lists the kinds of runs.
func RunKindValues() []string { return []string{RunEnrich, RunBackfill} }

// RunStatusValues lists the statuses a run as a whole can have.
func RunStatusValues() []string { return []string{RunQueued, RunRunning, RunDone, RunFailed} }

// RunJobStatusValues lists the statuses of one job (and of a profile section).
func RunJobStatusValues() []string {
	return []string{RunQueued, RunRunning, RunDone, RunFailed, RunSkipped}
}

// RunJob is the work for one vendor in a run.
type RunJob struct {
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
	Jobs      []RunJob
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Counts summarises job states.
type RunCounts struct {
	Total, Queued, Running, Done, Failed, Skipped int
}

// Counts counts the jobs by status.
func (r Run) Counts() RunCounts {
	c := RunCounts{Total: len(r.Jobs)}
	for _, j := range r.Jobs {
		switch j.Status {
		case RunQueued:
			c.Queued++
		case RunRunning:
			c.Running++
		case RunDone:
			c.Done++
		case RunFailed:
			c.Failed++
		case RunSkipped:
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
		return RunQueued
	case c.Queued+c.Running > 0:
		return RunRunning
	case c.Failed > 0 && c.Done == 0 && c.Total > 0:
		return RunFailed
	}
	return RunDone
}

// SetJob replaces the job with the same id; it reports whether it found one.
func (r *Run) SetJob(j RunJob, now time.Time) bool {
	for i := range r.Jobs {
		if r.Jobs[i].ID == j.ID {
			r.Jobs[i] = j
			r.UpdatedAt = now.UTC()
			return true
		}
	}
	return false
}
