package vendors

import (
	"context"
	"errors"

	"github.com/vetted-dev/vetted/core"
)

// Resolve finds the directory entry a reference names: by id, else by name
// (a vendor named like a UUID that is no vendor's id is found by its name).
func Resolve(ctx context.Context, tx Tx, ref Ref) (Vendor, error) {
	var (
		v   Vendor
		err error
	)
	id, byID := ref.ID()
	if byID {
		v, err = tx.Vendors().Get(ctx, id)
	}
	if !byID || errors.Is(err, core.ErrNotFound) {
		if n, ok := ref.Name(); ok {
			v, err = tx.Vendors().GetByName(ctx, n)
		}
	}
	if errors.Is(err, core.ErrNotFound) {
		return v, core.NotFound("vendor %q is not in the directory", ref.String())
	}
	return v, err
}
