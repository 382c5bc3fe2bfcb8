package lists

import "github.com/google/uuid"

// Change is how a write of vendors changes a list's membership: replace it
// with the vendors named (save-vendors), add them to it (add-vendors) or
// take them off it (remove-vendors). The last two never touch a vendor
// that was not named, so two people adding or removing different vendors
// at once both keep their change.
type Change int

// The changes of membership.
const (
	Replace Change = iota
	Add
	Remove
)

// Changes is what a Change does to a list.
type Changes struct {
	// Added and Removed are the vendors that come onto and leave the list.
	Added, Removed []uuid.UUID
	// Unchanged counts the vendors that were on the list and stay.
	Unchanged int
	// AlreadyOn are vendors an Add named that were on the list already.
	AlreadyOn []uuid.UUID
}

// Apply splits the vendors named (in order, duplicates ignored) against
// the current membership. A Remove ignores vendors that are not on the list.
func (c Change) Apply(current, named []uuid.UUID) Changes {
	if c == Replace {
		added, removed, unchanged := Diff(current, named)
		return Changes{Added: added, Removed: removed, Unchanged: unchanged}
	}
	cur := make(map[uuid.UUID]bool, len(current))
	for _, id := range current {
		cur[id] = true
	}
	var out Changes
	seen := make(map[uuid.UUID]bool, len(named))
	for _, id := range named {
		if seen[id] {
			continue
		}
		seen[id] = true
		switch {
		case c == Add && cur[id]:
			out.AlreadyOn = append(out.AlreadyOn, id)
		case c == Add:
			out.Added = append(out.Added, id)
		case cur[id]:
			out.Removed = append(out.Removed, id)
		}
	}
	out.Unchanged = len(current) - len(out.Removed)
	return out
}
