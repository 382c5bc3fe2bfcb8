package incidents

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
)

// Tx is what the incidents area reads and writes in one unit of work: the
// state of each platform-wide source, the possible matches kept for a
// person, the directory as the matcher sees it, and, through lists.Tx, the
// directory's incidents, the accounts and lists that follow vendors, and
// the outbox.
type Tx interface {
	Sources() SourceStateRepo
	Possible() PossibleRepo
	Candidates() CandidateRepo
	lists.Tx
}

// SourceState is what the poller keeps of one source between polls.
type SourceState struct {
	// Key is the endpoint it is the state of (Endpoint.String()).
	Key string
	// Validators are the conditional-GET validators of the last answer.
	Validators Validators
	// Polled is set once a poll of the source has been read: items of
	// later polls alert, those of the first never do.
	Polled bool
	// LastPolledAt, LastResult (ok, not_modified, error) and LastError
	// (empty unless error) tell the operator how the last poll went.
	LastPolledAt time.Time
	LastResult   string
	LastError    string
}

// SourceStateRepo stores the state of each source by key.
type SourceStateRepo interface {
	// Get returns the state of a source, or core.ErrNotFound before its
	// first poll.
	Get(ctx context.Context, key string) (SourceState, error)
	// Save inserts or replaces the state of s.Key.
	Save(ctx context.Context, s SourceState) error
}

// The states of a possible match.
const (
	PossiblePending   = "pending"
	PossibleConfirmed = "confirmed"
	PossibleDismissed = "dismissed"
)

// PossibleMatch is an item that named a vendor without enough evidence to
// be its incident, kept for a platform admin to confirm or dismiss.
type PossibleMatch struct {
	ID uuid.UUID
	// Key is unique among possible matches: the vendor and the item, so a
	// source read again adds no second one.
	Key        string
	VendorName string
	// Draft is the incident a confirmation makes, with its evidence.
	Draft     vendors.Incident
	Status    string
	CreatedAt time.Time
	// DecidedAt, DecidedBy (the admin's e-mail) and IncidentID (when
	// confirmed) are set by the decision.
	DecidedAt  time.Time
	DecidedBy  string
	IncidentID uuid.UUID
}

// PossibleRepo stores possible matches.
type PossibleRepo interface {
	// Add inserts p unless a possible match with its Key exists; it
	// reports whether it inserted.
	Add(ctx context.Context, p PossibleMatch) (bool, error)
	// Get returns one by id, or core.ErrNotFound.
	Get(ctx context.Context, id uuid.UUID) (PossibleMatch, error)
	// List returns those of a status, newest CreatedAt first (then id),
	// at most limit.
	List(ctx context.Context, status string, limit int) ([]PossibleMatch, error)
	// Save stores the decision of an existing one (Status, DecidedAt,
	// DecidedBy, IncidentID); core.ErrNotFound if it does not exist.
	Save(ctx context.Context, p PossibleMatch) error
}

// CandidateRepo reads the directory as the matcher sees it.
type CandidateRepo interface {
	// All returns every directory vendor as a Candidate: its canonical
	// name, its aliases (the entry's, then the profile's company.alias),
	// the legal name of its profile (company.legal_name), the domain of
	// its entry and its profile's primary product as its one product;
	// ordered by canonical name.
	All(ctx context.Context) ([]Candidate, error)
	// Carrying returns every list, of any account, that carries the
	// vendor, with the names of the products it records for it; ordered
	// by account id, then list name.
	Carrying(ctx context.Context, vendorID uuid.UUID) ([]Carrier, error)
}

// Carrier is a list that carries a vendor, with the products it records
// for it.
type Carrier struct {
	AccountID uuid.UUID
	ListID    uuid.UUID
	ListName  string
	Products  []string
}
