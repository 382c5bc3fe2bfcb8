package lists_test

import (
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/lists"
)

func TestPreconditionHolds(t *testing.T) {
	t.Parallel()
	l := lists.List{ID: uuid.New(), Version: 3}
	again := lists.List{ID: uuid.New(), Version: 3} // the same name made again
	older := l
	older.Version = 2
	tests := []struct {
		name string
		p    lists.Precondition
		l    lists.List
		want bool
	}{
		{"no If-Match", lists.Precondition{}, l, true},
		{"the revision read", lists.Precondition{Revisions: []string{older.Revision(), l.Revision()}}, l, true},
		{"a revision since changed", lists.Precondition{Revisions: []string{older.Revision()}}, l, false},
		{"another list at the same version", lists.Precondition{Revisions: []string{l.Revision()}}, again, false},
		{"any", lists.Precondition{Any: true}, l, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.p.Holds(tt.l); got != tt.want {
				t.Fatalf("Holds = %v", got)
			}
		})
	}
}
