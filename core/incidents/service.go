package incidents

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/core/vendors"
)

// Deps are the ports the incident use cases need.
type Deps struct {
	uow.Unit[Tx]
	// Sources are the configured sources (none: Poll does nothing);
	// Reader reads them and BuildIndex builds the matcher's name index
	// (adapters/nameindex). Both are needed only when there are sources.
	Sources    []Endpoint
	Reader     SourceReader
	BuildIndex BuildNameIndex
	// Metrics counts the reads of the sources; optional.
	Metrics Metrics
	Log     *slog.Logger
}

// Service implements the incident use cases: polling the platform-wide
// sources into incidents (poll.go), the account's incidents (account.go)
// and the possible-match queue (possible.go).
type Service struct {
	d Deps

	mu      sync.Mutex
	matcher *Matcher
	// names is the digest of the candidates the matcher was built from: it
	// is built again when a poll finds the directory's names changed.
	names [sha256.Size]byte
}

// NewService checks the dependencies and returns the service.
func NewService(d Deps) (*Service, error) {
	missing := d.Missing()
	if len(d.Sources) > 0 && d.Reader == nil {
		missing = append(missing, "Reader")
	}
	if len(d.Sources) > 0 && d.BuildIndex == nil {
		missing = append(missing, "BuildIndex")
	}
	if len(missing) > 0 {
		return nil, errors.New("incidents: missing dependencies: " + strings.Join(missing, ", "))
	}
	for _, e := range d.Sources {
		if !e.Kind.Valid() || e.URL == "" {
			return nil, fmt.Errorf("incidents: source %q is not a kind the sources give, or has no URL", e)
		}
	}
	if d.Metrics == nil {
		d.Metrics = noMetrics{}
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	return &Service{d: d}, nil
}

// currentMatcher returns the matcher over the directory as it is now,
// building it again only when the names it was built from changed.
func (s *Service) currentMatcher(ctx context.Context) (*Matcher, error) {
	var cands []Candidate
	if err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		cands, err = tx.Candidates().All(ctx)
		return err
	}); err != nil {
		return nil, err
	}
	sum := candidatesDigest(cands)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.matcher != nil && sum == s.names {
		return s.matcher, nil
	}
	m, err := NewMatcher(cands, s.d.BuildIndex)
	if err != nil {
		return nil, err
	}
	s.matcher, s.names = m, sum
	return m, nil
}

// candidatesDigest is a digest of everything the matcher reads of the
// candidates.
func candidatesDigest(cands []Candidate) [sha256.Size]byte {
	h := sha256.New()
	for _, c := range cands {
		fmt.Fprintf(h, "%s\x00%s\x00%q\x00%s\x00%s\x00%q\x01", c.ID, c.CanonicalName, c.Aliases, c.LegalName, c.Domain, c.Products)
	}
	var sum [sha256.Size]byte
	copy(sum[:], h.Sum(nil))
	return sum
}

// announce queues the alert fan-out of a live incident of v and its
// incident.created event, in the unit of work that made it.
func (s *Service) announce(ctx context.Context, tx Tx, v vendors.Vendor, in vendors.Incident) error {
	if err := s.d.Emit(ctx, tx, outbox.KindIncidentFanout, outbox.IncidentFanout{IncidentID: in.ID}); err != nil {
		return err
	}
	ev := vendors.IncidentEvent(v, in)
	if in.AffectedService != "" {
		cs, err := tx.Candidates().Carrying(ctx, v.ID)
		if err != nil {
			return err
		}
		for _, c := range cs {
			ev.Data.ProductLists = append(ev.Data.ProductLists, domainevent.ProductList{AccountID: c.AccountID, ListID: c.ListID,
				ListName: c.ListName, Recorded: RecordsProduct(c.Products, in.AffectedService)})
		}
	}
	return s.d.Event(ctx, tx, ev)
}

// errNotPending refuses a decision on a possible match already decided.
func errNotPending(p PossibleMatch) error {
	return core.Conflict("possible match %s was %s already", p.ID, p.Status)
}
