package lists_test

import (
	"slices"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/lists"
)

func TestChangeApply(t *testing.T) {
	t.Parallel()
	a, b, c, d := uuid.New(), uuid.New(), uuid.New(), uuid.New()
	current := []uuid.UUID{a, b}
	tests := []struct {
		name      string
		change    lists.Change
		named     []uuid.UUID
		added     []uuid.UUID
		removed   []uuid.UUID
		unchanged int
		already   []uuid.UUID
	}{
		{"replace drops the vendors not named", lists.Replace, []uuid.UUID{b, c}, []uuid.UUID{c}, []uuid.UUID{a}, 1, nil},
		{"add never removes", lists.Add, []uuid.UUID{c}, []uuid.UUID{c}, nil, 2, nil},
		{"add says which were on the list", lists.Add, []uuid.UUID{b, c, c}, []uuid.UUID{c}, nil, 2, []uuid.UUID{b}},
		{"remove takes off only the vendors named", lists.Remove, []uuid.UUID{a, d, a}, nil, []uuid.UUID{a}, 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := tt.change.Apply(current, tt.named)
			if !slices.Equal(got.Added, tt.added) || !slices.Equal(got.Removed, tt.removed) || got.Unchanged != tt.unchanged ||
				!slices.Equal(got.AlreadyOn, tt.already) {
				t.Fatalf("Apply = %+v", got)
			}
		})
	}
}
