// Package attestations is the attestations area: the typed evidence an
// account keeps on a vendor (a SOC 2 report, an ISO 27001 certificate, a
// penetration test, an insurance certificate or another document) and the
// directory's shared ones, a vendor's public trust documents that a
// platform admin records once for every account to see.
//
// Its map:
//   - attestation.go: the entity, its kinds and the fields each kind takes
//     (New refuses a field of another kind, a missing required one, a bad
//     enum; AttestationFromStore rebuilds a stored row without refusing it).
//   - validity.go: what every read derives, valid_until (12 months after a
//     SOC 2 period's end or a pen test, the record's own date otherwise) and
//     state (current, expiring within 60 days, expired).
//   - store.go: the narrow store (its repo, the accounts it checks, the
//     outbox that deletes files later).
//   - service.go: the use cases. An account's members record and delete
//     their own (member or above) and read theirs with the directory's
//     (viewer or above); platform admins record and delete the directory's.
//     The file of each record goes to the evidence blob store through a
//     write-once upload URL handed out with the create; deleting the record
//     deletes its file (at once, and through the outbox when that fails).
package attestations
