// Package assessments is the reviews area: an organization's assessment
// (review record) of each vendor on a list, its approval statuses and the
// audit events of its changes (review.go, request.go, active.go, tier.go),
// the review policy and the schedule it gives every review (schedule.go,
// approvaldate.go), reminders (reminder.go), and the evidence documents
// attached to a review (document.go: files move through presigned URLs; a
// record is pending until its object exists).
//
// Its use cases upsert and decide reviews with their audit log
// (service.go, reviews.go), keep the policy, send the reminders and the
// calendar feed of reviews coming due (reminders.go, calendar.go), keep
// evidence (documents.go), and read the register: a list with its reviews
// (listpage.go), its CSV import (importcsv.go) and export (export.go), and
// the dashboard (dashboard.go). It sits above core/lists and reaches the
// lists area's writes through ListWriter. Its store is store.go.
package assessments
