package attestations_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/attestations"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/memstore"
	"github.com/vetted-dev/vetted/ports/stores"
)

type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

// files is the evidence store: which keys hold a file, what was asked of it.
type files struct {
	held      map[string]bool
	puts      []string
	deleted   []string
	deleteErr error
}

func (f *files) PresignPut(_ context.Context, key, contentType string, maxSize int64, ttl time.Duration) (ports.PresignedRequest, error) {
	f.puts = append(f.puts, key+" "+contentType)
	if maxSize != attestations.MaxFileSize || ttl != attestations.UploadTTL {
		return ports.PresignedRequest{}, errors.New("unexpected cap or lifetime")
	}
	return ports.PresignedRequest{Method: "PUT", URL: "https://blobs.test/" + key}, nil
}

func (f *files) PresignGet(_ context.Context, key, _ string, _ time.Duration) (ports.PresignedRequest, error) {
	return ports.PresignedRequest{Method: "GET", URL: "https://blobs.test/" + key}, nil
}

func (f *files) Stat(_ context.Context, key string) (int64, error) {
	if !f.held[key] {
		return 0, core.NotFound("blob %s", key)
	}
	return 1, nil
}

func (f *files) Delete(_ context.Context, keys ...string) error {
	if f.deleteErr != nil {
		return f.deleteErr
	}
	f.deleted = append(f.deleted, keys...)
	return nil
}

type fixture struct {
	s                       *memstore.Store
	svc                     *attestations.Service
	files                   *files
	clk                     *clock
	owner, viewer, stranger accounts.Actor
	admin                   accounts.Actor
	ref                     accounts.AccountRef
	onList, offList         uuid.UUID
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{s: memstore.New(), files: &files{held: map[string]bool{}}, clk: &clock{now: time.Date(2026, 3, 1, 23, 30, 0, 0, time.UTC)}}
	acc := accounts.Account{ID: uuid.New(), Name: "Acme", Active: true}
	other := accounts.Account{ID: uuid.New(), Name: "Beta", Active: true}
	f.owner = accounts.Actor{UserID: uuid.New(), Email: "owner@acme.test"}
	f.viewer = accounts.Actor{UserID: uuid.New(), Email: "viewer@acme.test"}
	f.stranger = accounts.Actor{UserID: uuid.New(), Email: "owner@beta.test"}
	f.admin = accounts.Actor{UserID: uuid.New(), Email: "ops@platform.test", PlatformAdmin: true}
	f.ref = accounts.AccountRef{ID: acc.ID}
	err := f.s.InTx(t.Context(), func(ctx context.Context, tx stores.Tx) error {
		for _, a := range []accounts.Account{acc, other} {
			if err := tx.Accounts().Create(ctx, a); err != nil {
				return err
			}
		}
		for _, m := range []struct {
			a    accounts.Actor
			acc  uuid.UUID
			role accounts.Role
		}{{f.owner, acc.ID, accounts.RoleOwner}, {f.viewer, acc.ID, accounts.RoleViewer}, {f.stranger, other.ID, accounts.RoleOwner}} {
			if err := tx.Users().Save(ctx, accounts.User{ID: m.a.UserID, Email: m.a.Email}); err != nil {
				return err
			}
			if err := tx.Members().Put(ctx, []accounts.Member{{AccountID: m.acc, UserID: m.a.UserID, Role: m.role}}); err != nil {
				return err
			}
		}
		v1, _ := vendors.New(uuid.New(), "Zeta", "https://zeta.example", f.clk.now)
		v2, _ := vendors.New(uuid.New(), "Eta", "https://eta.example", f.clk.now)
		vs, err := tx.Vendors().Ensure(ctx, []vendors.Vendor{v1, v2})
		if err != nil {
			return err
		}
		f.onList, f.offList = vs[0].ID, vs[1].ID
		l, err := lists.New(uuid.New(), acc.ID, "Main", f.clk.now)
		if err != nil {
			return err
		}
		if err := tx.Lists().Create(ctx, l); err != nil {
			return err
		}
		return tx.Lists().AddEntries(ctx, l.ID, []uuid.UUID{f.onList}, f.clk.now)
	})
	if err != nil {
		t.Fatal(err)
	}
	unit := uow.Unit[attestations.Tx]{Store: ports.Narrow[attestations.Tx](stores.Store(f.s)), Clock: f.clk, IDs: ports.UUIDv7{}}
	if f.svc, err = attestations.NewService(attestations.Deps{Unit: unit, Files: f.files}); err != nil {
		t.Fatal(err)
	}
	return f
}

func insurance(until string) attestations.Input {
	return attestations.Input{Kind: attestations.KindInsurance, ValidUntil: &until}
}

func TestCreateNeedsTheVendorOnAListAndAWriter(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	_, err := f.svc.Create(ctx, f.owner, f.ref, f.offList, insurance("2027-01-01"))
	if got := fields(err); !slices.Equal(got, []string{"VendorID"}) {
		t.Fatalf("vendor on no list: %v", err)
	}
	if _, err := f.svc.Create(ctx, f.owner, f.ref, uuid.New(), insurance("2027-01-01")); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("unknown vendor: %v", err)
	}
	if _, err := f.svc.Create(ctx, f.viewer, f.ref, f.onList, insurance("2027-01-01")); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("viewer: %v", err)
	}
	if _, err := f.svc.Create(ctx, f.stranger, f.ref, f.onList, insurance("2027-01-01")); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("stranger: %v", err)
	}
	c, err := f.svc.Create(ctx, f.owner, f.ref, f.onList, insurance("2026-04-30"))
	if err != nil {
		t.Fatal(err)
	}
	// 23:30 on 2026-03-01: 60 days before 2026-04-30 is 2026-03-01, so expiring.
	if c.State != attestations.StateExpiring || c.HasFile || c.Upload.Method != "PUT" ||
		!slices.Equal(f.files.puts, []string{c.ObjectKey + " application/pdf"}) {
		t.Fatalf("created: %+v, puts %v", c, f.files.puts)
	}
	if len(f.s.Undelivered()) != 0 {
		t.Fatalf("a create queues nothing: %v", f.s.Undelivered())
	}
}

func TestListDerivesOnTheDayAndAsksForTheFile(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	c, err := f.svc.Create(ctx, f.owner, f.ref, f.onList, insurance("2026-04-30"))
	if err != nil {
		t.Fatal(err)
	}
	f.files.held[c.ObjectKey] = true
	f.clk.now = time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	vs, err := f.svc.List(ctx, f.viewer, f.ref, f.onList)
	if err != nil || len(vs) != 1 || vs[0].State != attestations.StateExpired || !vs[0].HasFile {
		t.Fatalf("list: %+v %v", vs, err)
	}
}

func TestDeleteQueuesAndDeletesTheFile(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	c, err := f.svc.Create(ctx, f.owner, f.ref, f.onList, insurance("2027-01-01"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.svc.Delete(ctx, f.viewer, f.ref, c.ID); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("viewer deletes: %v", err)
	}
	f.files.deleteErr = errors.New("store down")
	if err := f.svc.Delete(ctx, f.owner, f.ref, c.ID); err != nil {
		t.Fatalf("a delete stands when the file store fails: %v", err)
	}
	msgs := f.s.Undelivered()
	if len(msgs) != 1 || msgs[0].Kind != outbox.KindBlobDelete {
		t.Fatalf("outbox: %v", msgs)
	}
	if p, ok := msgs[0].Payload.(outbox.BlobDelete); !ok || !slices.Equal(p.Keys, []string{c.ObjectKey}) {
		t.Fatalf("payload: %#v", msgs[0].Payload)
	}
	if err := f.svc.Delete(ctx, f.owner, f.ref, c.ID); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("twice: %v", err)
	}
	f.files.deleteErr = nil
	d, err := f.svc.Create(ctx, f.owner, f.ref, f.onList, insurance("2027-01-01"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.svc.Delete(ctx, f.owner, f.ref, d.ID); err != nil || !slices.Equal(f.files.deleted, []string{d.ObjectKey}) {
		t.Fatalf("deleted at once: %v %v", f.files.deleted, err)
	}
}

func TestDirectoryRecordsArePlatformAdmins(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	if _, err := f.svc.CreateDirectory(ctx, f.owner, f.offList, insurance("2027-01-01")); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("an account owner records for the directory: %v", err)
	}
	// Any directory vendor, on a list or not.
	c, err := f.svc.CreateDirectory(ctx, f.admin, f.offList, insurance("2027-01-01"))
	if err != nil || c.Visibility() != attestations.VisibilityDirectory {
		t.Fatalf("directory create: %+v %v", c, err)
	}
	if err := f.svc.Delete(ctx, f.owner, f.ref, c.ID); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("an account deletes the directory's: %v", err)
	}
	if err := f.svc.DeleteDirectory(ctx, f.owner, c.ID); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("an owner deletes the directory's: %v", err)
	}
	vs, err := f.svc.List(ctx, f.viewer, f.ref, f.offList)
	if err != nil || len(vs) != 1 || vs[0].ID != c.ID {
		t.Fatalf("every account sees it: %+v %v", vs, err)
	}
	if err := f.svc.DeleteDirectory(ctx, f.admin, c.ID); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.DeleteDirectory(ctx, f.admin, c.ID); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("twice: %v", err)
	}
}
