package vendors_test

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/vendors"
)

func jobs(statuses ...string) []vendors.RunJob {
	out := make([]vendors.RunJob, 0, len(statuses))
	for _, s := range statuses {
		out = append(out, vendors.RunJob{ID: uuid.New(), Status: s})
	}
	return out
}

func TestCountsAndStatus(t *testing.T) {
	t.Parallel()
	const (
		q  = vendors.RunQueued
		r  = vendors.RunRunning
		d  = vendors.RunDone
		f  = vendors.RunFailed
		sk = vendors.RunSkipped
	)
	tests := []struct {
		name   string
		jobs   []string
		counts vendors.RunCounts
		status string
	}{
		{"no jobs", nil, vendors.RunCounts{}, d},
		{"all queued", []string{q, q}, vendors.RunCounts{Total: 2, Queued: 2}, q},
		{"one running", []string{q, r}, vendors.RunCounts{Total: 2, Queued: 1, Running: 1}, r},
		{"all running", []string{r, r}, vendors.RunCounts{Total: 2, Running: 2}, r},
		{"queued after done", []string{d, q}, vendors.RunCounts{Total: 2, Queued: 1, Done: 1}, r},
		{"queued after failure", []string{f, q}, vendors.RunCounts{Total: 2, Queued: 1, Failed: 1}, r},
		{"queued after skip", []string{sk, q}, vendors.RunCounts{Total: 2, Queued: 1, Skipped: 1}, r},
		{"all done", []string{d, d}, vendors.RunCounts{Total: 2, Done: 2}, d},
		{"all failed", []string{f, f}, vendors.RunCounts{Total: 2, Failed: 2}, f},
		{"failed and skipped", []string{f, sk}, vendors.RunCounts{Total: 2, Failed: 1, Skipped: 1}, f},
		{"some failed", []string{d, f}, vendors.RunCounts{Total: 2, Done: 1, Failed: 1}, d},
		{"all skipped", []string{sk}, vendors.RunCounts{Total: 1, Skipped: 1}, d},
		{"unknown status counts in total only", []string{"weird", d}, vendors.RunCounts{Total: 2, Done: 1}, d},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rn := vendors.Run{Jobs: jobs(tt.jobs...)}
			if got := rn.Counts(); got != tt.counts {
				t.Fatalf("Counts = %+v, want %+v", got, tt.counts)
			}
			if got := rn.Status(); got != tt.status {
				t.Fatalf("Status = %q, want %q", got, tt.status)
			}
		})
	}
}

func TestLifecycle(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	rn := vendors.Run{ID: uuid.New(), Kind: vendors.RunEnrich, Jobs: jobs(vendors.RunQueued, vendors.RunQueued), CreatedAt: start, UpdatedAt: start}
	steps := []struct {
		job    int
		status string
		want   string
	}{
		{0, vendors.RunRunning, vendors.RunRunning},
		{0, vendors.RunDone, vendors.RunRunning},
		{1, vendors.RunRunning, vendors.RunRunning},
		{1, vendors.RunFailed, vendors.RunDone},
	}
	for i, s := range steps {
		j := rn.Jobs[s.job]
		j.Status = s.status
		at := start.Add(time.Duration(i+1) * time.Minute).In(time.FixedZone("X", 7200))
		if !rn.SetJob(j, at) {
			t.Fatalf("step %d: SetJob did not find job %d", i, s.job)
		}
		if rn.Jobs[s.job].Status != s.status || !rn.UpdatedAt.Equal(at) || rn.UpdatedAt.Location() != time.UTC {
			t.Fatalf("step %d: job %+v, UpdatedAt %v", i, rn.Jobs[s.job], rn.UpdatedAt)
		}
		if got := rn.Status(); got != s.want {
			t.Fatalf("step %d: Status = %q, want %q", i, got, s.want)
		}
	}
}

func TestSetJobUnknown(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	rn := vendors.Run{Jobs: jobs(vendors.RunQueued), UpdatedAt: start}
	before := rn.Jobs[0]
	if rn.SetJob(vendors.RunJob{ID: uuid.New(), Status: vendors.RunDone}, start.Add(time.Hour)) {
		t.Fatal("SetJob reported a job it does not have")
	}
	if rn.Jobs[0] != before || len(rn.Jobs) != 1 || !rn.UpdatedAt.Equal(start) {
		t.Fatalf("SetJob of an unknown job changed the run: %+v", rn)
	}
}
