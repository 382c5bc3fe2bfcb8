package records_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/records"
)

func body(t *testing.T, s string) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestPatch(t *testing.T) {
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	base := records.Record{AccountID: uuid.New(), VendorID: uuid.New(), BusinessOwner: "ann@acme.example",
		Contacts: []records.Contact{{Name: "Sam", Email: "sam@zeta.example", Role: "security"}},
		Links:    records.Links{TrustPage: "https://trust.zeta.example", DPA: "https://zeta.example/dpa"}, UpdatedAt: &at, UpdatedBy: "ann@acme.example"}
	for _, c := range []struct {
		name, body string
		check      func(t *testing.T, r records.Record)
		fields     []string
	}{
		{"empty patch keeps everything", `{}`, func(t *testing.T, r records.Record) {
			if r.BusinessOwner != base.BusinessOwner || len(r.Contacts) != 1 || r.Links != base.Links {
				t.Fatalf("changed: %+v", r)
			}
		}, nil},
		{"what GET answered is accepted", `{"account_id":"x","vendor_id":"y","business_owner":"ann@acme.example","contacts":[{"name":"Sam","email":"sam@zeta.example","role":"security"}],
			"links":{"trust_page":"https://trust.zeta.example","dpa":"https://zeta.example/dpa","terms":"","sla":""},"notes":[{"id":"n","text":"t"}],"updated_at":"2026-12-01T00:00:00Z","updated_by":"ann@acme.example"}`,
			func(t *testing.T, r records.Record) {
				if r.Links != base.Links || len(r.Contacts) != 1 || r.Contacts[0] != base.Contacts[0] {
					t.Fatalf("changed: %+v", r)
				}
			}, nil},
		{"owner null clears", `{"business_owner":null}`, func(t *testing.T, r records.Record) {
			if r.BusinessOwner != "" {
				t.Fatalf("owner %q", r.BusinessOwner)
			}
		}, nil},
		{"contacts replaced", `{"contacts":[{"name":"Lee","email":"Lee@zeta.example","role":"legal"}]}`, func(t *testing.T, r records.Record) {
			if len(r.Contacts) != 1 || r.Contacts[0] != (records.Contact{Name: "Lee", Email: "lee@zeta.example", Role: "legal"}) {
				t.Fatalf("contacts %+v", r.Contacts)
			}
		}, nil},
		{"contacts null clears", `{"contacts":null}`, func(t *testing.T, r records.Record) {
			if len(r.Contacts) != 0 {
				t.Fatalf("contacts %+v", r.Contacts)
			}
		}, nil},
		{"one link merged, one cleared by null", `{"links":{"sla":"https://zeta.example/sla","dpa":null}}`, func(t *testing.T, r records.Record) {
			want := records.Links{TrustPage: base.Links.TrustPage, SLA: "https://zeta.example/sla"}
			if r.Links != want {
				t.Fatalf("links %+v", r.Links)
			}
		}, nil},
		{"links null clears all", `{"links":null}`, func(t *testing.T, r records.Record) {
			if r.Links != (records.Links{}) {
				t.Fatalf("links %+v", r.Links)
			}
		}, nil},
		{"unknown key", `{"owner":"ann@acme.example"}`, nil, []string{"owner"}},
		{"unknown link", `{"links":{"soc2":"https://x.example"}}`, nil, []string{"links.soc2"}},
		{"owner of the wrong type", `{"business_owner":3}`, nil, []string{"business_owner"}},
		{"contacts not an array", `{"contacts":{}}`, nil, []string{"contacts"}},
		{"contact with an unknown key", `{"contacts":[{"name":"a","email":"a@z.example","role":"legal","phone":"1"}]}`, nil, []string{"contacts[0]"}},
		{"bad contact field", `{"contacts":[{"name":"a","email":"a@z.example","role":"legal"},{"name":"b","email":"nope","role":"legal"}]}`, nil, []string{"contacts[1].email"}},
		{"bad link", `{"links":{"dpa":"ftp://zeta.example"}}`, nil, []string{"links.dpa"}},
		{"links of the wrong type", `{"links":["https://x.example"]}`, nil, []string{"links"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := records.ParsePatch(body(t, c.body))
			var r records.Record
			if err == nil {
				r, err = p.Apply(base)
			}
			if strings.Join(fields(err), ",") != strings.Join(c.fields, ",") {
				t.Fatalf("fields = %v, want %v (%v)", fields(err), c.fields, err)
			}
			if err == nil {
				c.check(t, r)
			}
		})
	}
	if base.Contacts[0].Name != "Sam" || base.Links.DPA == "" {
		t.Fatal("Apply changed the record it was given")
	}
}
