// Package alerts is the incident alerts area: the recipients of alert
// e-mails of a vendor list with their per-list confirmation state
// (subscriber.go), the subscribers of a list and the confirmation of their
// address (subscribers.go), and the fan-out of an incident or a rating change
// to one mail per confirmed subscriber of every list that carries the vendor
// with alerts on (fanout.go). It sits above core/lists. Its store is
// store.go.
package alerts
