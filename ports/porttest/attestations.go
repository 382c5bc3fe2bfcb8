package porttest

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/attestations"
	"github.com/vetted-dev/vetted/ports/stores"
)

func attestationDay(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

// attestation stores a record of the account (uuid.Nil: of the directory).
func (f *fixture) attestation(accountID, vendorID uuid.UUID, kind string) attestations.Attestation {
	f.t.Helper()
	id := newID()
	a := attestations.Attestation{ID: id, AccountID: accountID, VendorID: vendorID, Kind: kind, CreatedAt: f.tick(), CreatedBy: "ann@example.com",
		ObjectKey: attestations.ObjectKey(accountID, vendorID, id), ContentType: "application/pdf"}
	switch kind {
	case attestations.KindSOC2:
		a.ReportType, a.PeriodStart, a.PeriodEnd, a.Auditor, a.Opinion = 2, attestationDay("2024-03-01"), attestationDay("2025-02-28"), "Audit & Co", "qualified"
		a.Exceptions, a.SubserviceOrganizations, a.CUECs = "two findings", []string{"AWS", "Stripe"}, []string{"MFA on customer side"}
	case attestations.KindISO27001:
		a.CertificateNumber, a.Issuer, a.Scope, a.ValidUntil = "IS 123", "BSI", "Hosting; support", attestationDay("2027-01-31")
	case attestations.KindPentest:
		a.PerformedOn, a.Firm, a.OpenCritical, a.OpenHigh = attestationDay("2024-02-29"), "Pen Ltd", 1, 3
	default:
		a.ValidUntil = attestationDay("2026-12-31")
	}
	f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Attestations().Create(ctx, a) })
	return a
}

func attestationIDs(as []attestations.Attestation) []uuid.UUID {
	return idsOf(as, func(a attestations.Attestation) uuid.UUID { return a.ID })
}

// attestationCases check attestations.AttestationRepo.
var attestationCases = []testCase{
	{"records read back whole, per kind, for their account only", func(t *testing.T, f *fixture) {
		a, b := f.org("Acme"), f.org("Beta")
		v := f.ensure(f.newVendor("Zeta", "https://zeta.example"))[0]
		for _, kind := range attestations.KindValues() {
			want := f.attestation(a.ID, v.ID, kind)
			got := load(f, func(ctx context.Context, tx stores.Tx) (attestations.Attestation, error) {
				return tx.Attestations().Get(ctx, a.ID, want.ID)
			})
			equal(t, kind+" kind", got.Kind, kind)
			equal(t, kind+" account", got.AccountID, a.ID)
			equal(t, kind+" vendor", got.VendorID, v.ID)
			equal(t, kind+" key", got.ObjectKey, want.ObjectKey)
			equal(t, kind+" content type", got.ContentType, "application/pdf")
			equal(t, kind+" by", got.CreatedBy, "ann@example.com")
			sameTime(t, kind+" created", got.CreatedAt, want.CreatedAt)
			equal(t, kind+" report type", got.ReportType, want.ReportType)
			sameTime(t, kind+" period start", got.PeriodStart, want.PeriodStart)
			sameTime(t, kind+" period end", got.PeriodEnd, want.PeriodEnd)
			equal(t, kind+" auditor", got.Auditor, want.Auditor)
			equal(t, kind+" opinion", got.Opinion, want.Opinion)
			equal(t, kind+" exceptions", got.Exceptions, want.Exceptions)
			if kind == attestations.KindSOC2 {
				sameStrings(t, "carve-outs", got.SubserviceOrganizations, []string{"AWS", "Stripe"})
				sameStrings(t, "cuecs", got.CUECs, []string{"MFA on customer side"})
			}
			equal(t, kind+" certificate", got.CertificateNumber, want.CertificateNumber)
			equal(t, kind+" issuer", got.Issuer, want.Issuer)
			equal(t, kind+" scope", got.Scope, want.Scope)
			sameTime(t, kind+" valid until", got.ValidUntil, want.ValidUntil)
			sameTime(t, kind+" performed on", got.PerformedOn, want.PerformedOn)
			equal(t, kind+" firm", got.Firm, want.Firm)
			equal(t, kind+" critical", got.OpenCritical, want.OpenCritical)
			equal(t, kind+" high", got.OpenHigh, want.OpenHigh)
			_, err := loadErr(f, func(ctx context.Context, tx stores.Tx) (attestations.Attestation, error) {
				return tx.Attestations().Get(ctx, b.ID, want.ID)
			})
			wantErr(t, kind+" from another account", err, core.ErrNotFound)
			_, err = loadErr(f, func(ctx context.Context, tx stores.Tx) (attestations.Attestation, error) {
				return tx.Attestations().Get(ctx, uuid.Nil, want.ID)
			})
			wantErr(t, kind+" as the directory's", err, core.ErrNotFound)
		}
		dup := f.attestation(a.ID, v.ID, attestations.KindOther)
		err := f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Attestations().Create(ctx, dup) })
		wantErr(t, "same id twice", err, core.ErrConflict)
	}},
	{"ForVendor gives the account's and the directory's, oldest first; Delete is per owner; an account takes its own along", func(t *testing.T, f *fixture) {
		a, b := f.org("Acme"), f.org("Beta")
		vs := f.ensure(f.newVendor("Zeta", "https://zeta.example"), f.newVendor("Eta", "https://eta.example"))
		v, w := vs[0], vs[1]
		a1 := f.attestation(a.ID, v.ID, attestations.KindSOC2)
		d1 := f.attestation(uuid.Nil, v.ID, attestations.KindISO27001)
		b1 := f.attestation(b.ID, v.ID, attestations.KindPentest)
		a2 := f.attestation(a.ID, v.ID, attestations.KindOther)
		f.attestation(a.ID, w.ID, attestations.KindInsurance)
		forVendor := func(acc uuid.UUID) []uuid.UUID {
			return attestationIDs(load(f, func(ctx context.Context, tx stores.Tx) ([]attestations.Attestation, error) {
				return tx.Attestations().ForVendor(ctx, acc, v.ID)
			}))
		}
		sameIDs(t, "account a", forVendor(a.ID), []uuid.UUID{a1.ID, d1.ID, a2.ID})
		sameIDs(t, "account b", forVendor(b.ID), []uuid.UUID{d1.ID, b1.ID})
		sameIDs(t, "directory only", forVendor(uuid.Nil), []uuid.UUID{d1.ID})
		d := load(f, func(ctx context.Context, tx stores.Tx) (attestations.Attestation, error) {
			return tx.Attestations().Get(ctx, uuid.Nil, d1.ID)
		})
		equal(t, "directory's account", d.AccountID, uuid.Nil)
		equal(t, "directory's visibility", d.Visibility(), attestations.VisibilityDirectory)

		err := f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Attestations().Delete(ctx, b.ID, a1.ID) })
		wantErr(t, "delete another account's", err, core.ErrNotFound)
		err = f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Attestations().Delete(ctx, a.ID, d1.ID) })
		wantErr(t, "an account deletes the directory's", err, core.ErrNotFound)
		err = f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Attestations().Delete(ctx, uuid.Nil, a1.ID) })
		wantErr(t, "the directory deletes an account's", err, core.ErrNotFound)
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Attestations().Delete(ctx, a.ID, a1.ID) })
		sameIDs(t, "after delete", forVendor(a.ID), []uuid.UUID{d1.ID, a2.ID})
		err = f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Attestations().Delete(ctx, a.ID, a1.ID) })
		wantErr(t, "delete twice", err, core.ErrNotFound)

		all := load(f, func(ctx context.Context, tx stores.Tx) ([]attestations.Attestation, error) {
			return tx.Attestations().ListByAccount(ctx, a.ID)
		})
		equal(t, "account's records", len(all), 2)
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Delete(ctx, a.ID) })
		all = load(f, func(ctx context.Context, tx stores.Tx) ([]attestations.Attestation, error) {
			return tx.Attestations().ListByAccount(ctx, a.ID)
		})
		equal(t, "after account delete", len(all), 0)
		sameIDs(t, "directory and others kept", forVendor(b.ID), []uuid.UUID{d1.ID, b1.ID})
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Attestations().Delete(ctx, uuid.Nil, d1.ID) })
		sameIDs(t, "directory's deleted", forVendor(b.ID), []uuid.UUID{b1.ID})
	}},
	{"OnAccountLists tells whether a vendor is on one of the account's lists", func(t *testing.T, f *fixture) {
		a, b := f.org("Acme"), f.org("Beta")
		vs := f.ensure(f.newVendor("Zeta", "https://zeta.example"), f.newVendor("Eta", "https://eta.example"))
		f.list(a.ID, "A1")
		f.onList(f.list(a.ID, "A2").ID, vs[0])
		f.onList(f.list(b.ID, "B").ID, vs[1])
		on := func(acc, vendor uuid.UUID) bool {
			return load(f, func(ctx context.Context, tx stores.Tx) (bool, error) {
				return tx.Attestations().OnAccountLists(ctx, acc, vendor)
			})
		}
		equal(t, "a carries zeta", on(a.ID, vs[0].ID), true)
		equal(t, "a does not carry eta", on(a.ID, vs[1].ID), false)
		equal(t, "b carries eta", on(b.ID, vs[1].ID), true)
		equal(t, "b does not carry zeta", on(b.ID, vs[0].ID), false)
	}},
}
