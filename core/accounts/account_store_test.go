package accounts_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/accounts"
)

func TestAccountFromStoreRebuildsWhatTheConstructorsMade(t *testing.T) {
	at := time.Date(2026, 3, 1, 9, 30, 0, 0, time.FixedZone("CET", 3600))
	org, err := accounts.NewAccount(uuid.New(), "  Acme   Security ", at)
	if err != nil {
		t.Fatal(err)
	}
	readZone := time.FixedZone("UTC+5", 5*3600) // a store may hand times back in another zone
	for _, a := range []accounts.Account{org, accounts.NewPersonal(uuid.New(), at)} {
		got := accounts.AccountFromStore(a.ID, a.Name, a.Active, a.Personal, a.CreatedAt.In(readZone))
		if !reflect.DeepEqual(got, a) {
			t.Errorf("rebuilt %#v, want %#v", got, a)
		}
	}
}

func TestAccountFromStoreReadsNamesNewAccountRefuses(t *testing.T) {
	at := time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC)
	for _, name := range []string{"", strings.Repeat("n", accounts.MaxNameLen+1), "bell\x07"} {
		id := uuid.New()
		if _, err := accounts.NewAccount(id, name, at); err == nil {
			t.Fatalf("NewAccount(%q) accepted it; pick a name it refuses", name)
		}
		want := accounts.Account{ID: id, Name: name, Active: false, CreatedAt: at}
		if got := accounts.AccountFromStore(id, name, false, false, at); !reflect.DeepEqual(got, want) {
			t.Errorf("AccountFromStore(%q) = %#v, want %#v", name, got, want)
		}
	}
}
