// Package vendors is the global vendor directory: canonical vendor names
// and the references requests name vendors by (name.go, ref.go,
// vendorref.go), websites (websiteurl.go, website.go), directory entries
// and their profiles with content groups (profile.go, patch.go), security
// instances, checks, coverage and the rating (checks.go, coverage.go,
// rating.go, ratinghistory.go), incidents, and the asynchronous runs of
// enrichment and incident backfill with their per-vendor jobs (run.go).
//
// Its use cases (service.go) read entries with their profiles (through
// VendorViews), take the platform admins' edits, run enrichment and its
// jobs, record incidents (by hand, polled and backfilled) and re-enrich
// periodically. Lists ask it to add vendors and to start enrichment through
// their narrow interface lists.Directory. Its store is store.go; its driven
// ports (scanning, website discovery, incident sources, cached views) are
// ports.go. It reads nothing of any account.
package vendors
