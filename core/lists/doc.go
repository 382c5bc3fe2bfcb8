// Package lists is the lists area: an account's named vendor lists
// (vendorlist.go), their entries with alerts_enabled and product rows, the
// set-replacement rule of save-vendors and the edits of add- and
// remove-vendors (change.go), the list's revision for If-Match
// (revision.go), the CSV format of the register with its limits and the
// neutralized formula cells of exports (csv.go, formulacell.go, rowerror.go),
// the enrichment quota (quota.go), and how a request names a list
// (access.go).
//
// Its use cases (service.go, whole.go) create, rename and delete lists, save,
// add and remove their vendors, keep products and alerts, and stream a whole
// list. It reaches the directory through the narrow interface Directory
// (vendors.Service). It knows nothing of reviews: the list read with its
// reviews, the register's CSV import and export live in core/assessments,
// which sits above this area, and the evidence files of a deleted list's
// reviews are found through Deps.Files. Its store is store.go.
package lists
