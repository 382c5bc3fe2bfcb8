package service

import "time"

// IdentityTTL is how long a signed-in user is remembered by token subject,
// so that a caller's requests after the first skip the store on sign-in.
// Nothing but Identify changes a user's e-mail, name or verification, and
// users are never deleted, so a remembered user is only ever older than the
// token's claims, which Identify compares before it trusts the memory.
const IdentityTTL = time.Minute

// maxIdentities bounds the memory of signed-in users (memo.Map.Max).
const maxIdentities = 100_000
