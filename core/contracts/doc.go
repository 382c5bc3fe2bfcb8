// Package contracts is the contracts area: an account's contracts with the
// vendors on its lists (contract.go: the entity and its checks; one rule
// per file: lei.go ISO 17442 identifiers, currency.go ISO 4217 codes,
// country.go the governing law's ISO 3166-1 country, amount.go the exact
// annual value, services.go the documented service types, derive.go the
// term, the auto-renewal roll, the notice deadline and the state; patch.go
// the JSON merge patch of PATCH), its narrow store (store.go) and its use
// cases (service.go): viewers read, members and above write; another
// account's contract is not found.
//
// Nothing derived is stored: the current period, notice_deadline and state
// are computed on every read from the stored dates and today (UTC).
package contracts
