// Package accounts is the accounts area: organizations and personal
// spaces, users, members and the ordered roles with the role-assignment
// rules of the contract (account.go, roster.go), who may do what (access.go),
// and the use cases of signing in (Identify), organizations (platform admins
// create and delete them) and their members (service.go). Its narrow store
// is store.go.
//
// Access: apps/api parses every reference once at the edge
// (ParseAccountRef, ParseID, lists.ParseListRef, vendors.ParseRef); the
// use cases receive values that cannot be malformed and resolve them here.
// Platform admins (the Admins group) create and delete accounts and edit
// the global vendor directory; on routes that take an account, viewer reads
// and member or above writes; the personal space ("individual") is owned by
// its user alone. A caller who is not a member of an account gets
// core.ErrForbidden whether or not it exists, so account ids cannot be
// probed; records that exist only in another account are core.ErrNotFound.
package accounts
