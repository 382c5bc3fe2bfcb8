package vendorlist_test

import (
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/vendorlist"
)

func TestPreconditionHolds(t *testing.T) {
	t.Parallel()
	l := vendorlist.List{ID: uuid.New(), Version: 3}
	again := vendorlist.List{ID: uuid.New(), Version: 3} // the same name made again
	older := l
	older.Version = 2
	tests := []struct {
		name string
		p    vendorlist.Precondition
		l    vendorlist.List
		want bool
	}{
		{"no If-Match", vendorlist.Precondition{}, l, true},
		{"the revision read", vendorlist.Precondition{Revisions: []string{older.Revision(), l.Revision()}}, l, true},
		{"a revision since changed", vendorlist.Precondition{Revisions: []string{older.Revision()}}, l, false},
		{"another list at the same version", vendorlist.Precondition{Revisions: []string{l.Revision()}}, again, false},
		{"any", vendorlist.Precondition{Any: true}, l, true},
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
