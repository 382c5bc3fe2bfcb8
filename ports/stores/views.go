package stores

import (
	"context"

	"github.com/vetted-dev/vetted/core/directory"
)

// VendorViews reads a directory entry with its profile by the reference a
// request named it by. The directory use cases read vendors through it:
// the store itself, or a cache an adapter puts in front of the store (the
// directory is global and read far more often than it is written). A view
// it returns may be shared: callers must not modify it. Errors are those of
// the lookup: core.ErrNotFound for an unknown vendor.
type VendorViews interface {
	View(ctx context.Context, ref directory.Ref) (directory.View, error)
}
