// Package records is the vendor record of an account: what the
// organization holds on a vendor between reviews, one record per vendor per
// account, shared by all its lists (record.go). Its rules each live in a
// file named after them with their test: the business owner is a member of
// the account (owner.go), contacts have a name, a valid address and a role
// from a fixed list (contacts.go), links are http(s) URLs or empty
// (links.go), a JSON merge patch names only the record's fields (patch.go),
// a note is bounded plain text (note.go) and its @email mentions of members
// are mailed once each (mentions.go). The use cases are in service.go, the
// mention mail in mail.go, and its store is store.go.
package records
