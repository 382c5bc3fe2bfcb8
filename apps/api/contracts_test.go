package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// contractWorld is an organization with a vendor on its master list, its
// owner, a member and a viewer, and a second organization with its own
// vendor.
type contractWorld struct {
	env                   *apitest.Env
	acct, other           string
	owner, member, viewer string
	stranger              string
	vendor, otherVendor   string
}

func newContractWorld(t *testing.T) *contractWorld {
	env := apitest.New(t)
	w := &contractWorld{env: env}
	w.acct = env.NewAccount(t, "Contract Co", "owner@contract.test")
	w.owner = env.Token("owner@contract.test", apitest.Verified())
	env.AddMember(t, w.acct, w.owner, "member@contract.test", "member")
	env.AddMember(t, w.acct, w.owner, "viewer@contract.test", "viewer")
	w.member = env.Token("member@contract.test", apitest.Verified())
	w.viewer = env.Token("viewer@contract.test", apitest.Verified())
	saved := env.SaveVendors(t, w.owner, w.acct, "Hosting Corp")
	w.vendor = saved["added"].([]any)[0].(map[string]any)["vendor_id"].(string)
	w.other = env.NewAccount(t, "Stranger Co", "owner@stranger.test")
	w.stranger = env.Token("owner@stranger.test", apitest.Verified())
	saved = env.SaveVendors(t, w.stranger, w.other, "Elsewhere Ltd")
	w.otherVendor = saved["added"].([]any)[0].(map[string]any)["vendor_id"].(string)
	return w
}

func (w *contractWorld) date(days int) string {
	return w.env.Clock.Date(0, 0, days).Format(time.DateOnly)
}

func (w *contractWorld) body(end int) map[string]any {
	return map[string]any{
		"vendor_id": w.vendor, "reference": "MSA-1", "start_date": w.date(-300), "end_date": w.date(end),
		"auto_renew": false, "notice_period_days": 30, "annual_value": 120000.55, "currency": "eur", "governing_law": "de",
		"dpa_signed": true, "services": []map[string]any{{"name": "Cloud hosting", "type": "hosting"}},
		"supports_critical_function": true, "lei": "5493001KJTIIGC8Y1R12",
	}
}

func TestContractsCreateReadPatchDelete(t *testing.T) {
	w := newContractWorld(t)
	env := w.env
	path := "/contracts?account-id=" + w.acct
	r := apitest.Must(t, env.Do(t, http.MethodPost, path, w.member, w.body(200)), http.StatusCreated)
	got := r.Map(t)
	id := got["id"].(string)
	for k, want := range map[string]any{"vendor_id": w.vendor, "vendor_name": "Hosting", "reference": "MSA-1", "start_date": w.date(-300),
		"end_date": w.date(200), "notice_period_days": 30.0, "currency": "EUR", "governing_law": "DE", "dpa_signed": true,
		"supports_critical_function": true, "lei": "5493001KJTIIGC8Y1R12", "notice_deadline": w.date(170), "state": "active", "auto_renew": false} {
		if got[k] != want {
			t.Errorf("%s = %v, want %v", k, got[k], want)
		}
	}
	if !strings.Contains(r.String(), `"annual_value":120000.55`) {
		t.Errorf("annual_value not exact: %s", r)
	}

	// Viewers read; the list is flat and filtered by vendor.
	list := apitest.Must(t, env.Do(t, http.MethodGet, path, w.viewer, nil), http.StatusOK).Map(t)["contracts"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["id"] != id {
		t.Fatalf("list %v", list)
	}
	list = apitest.Must(t, env.Do(t, http.MethodGet, path+"&vendor-id="+w.otherVendor, w.viewer, nil), http.StatusOK).Map(t)["contracts"].([]any)
	if len(list) != 0 {
		t.Fatalf("filtered list %v", list)
	}

	// A PATCH of what GET returned changes nothing but updated_at.
	item := apitest.Must(t, env.Do(t, http.MethodGet, path, w.viewer, nil), http.StatusOK).Map(t)["contracts"].([]any)[0].(map[string]any)
	back := apitest.Must(t, env.Do(t, http.MethodPatch, path+"&contract-id="+id, w.member, item), http.StatusOK).Map(t)
	for _, k := range []string{"start_date", "end_date", "notice_deadline", "state", "lei", "currency", "reference", "created_at"} {
		if back[k] != item[k] {
			t.Errorf("round trip changed %s: %v -> %v", k, item[k], back[k])
		}
	}
	if back["annual_value"] != item["annual_value"] {
		t.Errorf("annual value %v -> %v", item["annual_value"], back["annual_value"])
	}

	// A merge patch changes what it names; null clears.
	back = apitest.Must(t, env.Do(t, http.MethodPatch, path+"&contract-id="+id, w.member,
		map[string]any{"end_date": w.date(60), "annual_value": nil, "reference": "MSA-2"}), http.StatusOK).Map(t)
	if back["end_date"] != w.date(60) || back["state"] != "notice_due" || back["annual_value"] != nil || back["reference"] != "MSA-2" || back["currency"] != "EUR" {
		t.Fatalf("patched %v", back)
	}

	// A vendor that left the account's lists keeps its contracts readable
	// and editable; only a change of vendor is checked against the lists.
	apitest.Must(t, env.Do(t, http.MethodPost, "/vendor-lists?operation=save-vendors&account-id="+w.acct, w.owner,
		map[string]any{"vendors": []string{}}), http.StatusOK)
	if vs := apitest.Must(t, env.Do(t, http.MethodGet, "/vendor-lists?vendor-list=master-list&account-id="+w.acct, w.owner, nil), http.StatusOK).Map(t)["vendors"].([]any); len(vs) != 0 {
		t.Fatalf("the vendor is still listed: %v", vs)
	}
	item = apitest.Must(t, env.Do(t, http.MethodGet, path, w.viewer, nil), http.StatusOK).Map(t)["contracts"].([]any)[0].(map[string]any)
	if item["vendor_name"] != "Hosting" {
		t.Fatalf("vendor off the lists: %v", item)
	}
	apitest.Must(t, env.Do(t, http.MethodPatch, path+"&contract-id="+id, w.member, item), http.StatusOK)
	r = env.Do(t, http.MethodPatch, path+"&contract-id="+id, w.member, map[string]any{"vendor_id": w.otherVendor})
	if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.String(), "vendor_id") {
		t.Fatalf("a vendor of another account: %d %s", r.Status, r)
	}

	apitest.Must(t, env.Do(t, http.MethodDelete, path+"&contract-id="+id, w.member, nil), http.StatusNoContent)
	apitest.Must(t, env.Do(t, http.MethodDelete, path+"&contract-id="+id, w.member, nil), http.StatusNotFound)
}

func TestContractsDeriveStates(t *testing.T) {
	w := newContractWorld(t)
	path := "/contracts?account-id=" + w.acct
	for _, tc := range []struct {
		name               string
		end                int
		autoRenew          bool
		wantState, wantEnd string
	}{
		{"far from its notice deadline", 200, false, "active", w.date(200)},
		{"exactly 90 days before the notice deadline", 120, false, "notice_due", w.date(120)},
		{"91 days before the notice deadline", 121, false, "active", w.date(121)},
		{"its end date is today", 0, false, "notice_due", w.date(0)},
		{"ended yesterday", -1, false, "expired", w.date(-1)},
		{"auto-renewing, ended yesterday: rolled by its term", -1, true, "active", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := w.body(tc.end)
			b["auto_renew"] = tc.autoRenew
			b["start_date"] = w.date(tc.end - 364) // a term of 365 days (or a year)
			got := apitest.Must(t, w.env.Do(t, http.MethodPost, path, w.member, b), http.StatusCreated).Map(t)
			if got["state"] != tc.wantState {
				t.Errorf("state %v, want %s", got["state"], tc.wantState)
			}
			if tc.wantEnd != "" && got["end_date"] != tc.wantEnd {
				t.Errorf("end %v, want %s", got["end_date"], tc.wantEnd)
			}
			if tc.autoRenew && got["end_date"].(string) <= w.date(0) {
				t.Errorf("not rolled: end %v", got["end_date"])
			}
		})
	}
}

func TestContractsRulesName422Fields(t *testing.T) {
	w := newContractWorld(t)
	path := "/contracts?account-id=" + w.acct
	for _, tc := range []struct {
		field string
		value any
	}{
		{"lei", "5493001KJTIIGC8Y1R13"},
		{"currency", "EURO"},
		{"currency", "ABC"},
		{"governing_law", "EU"},
		{"services[0].type", "cloud"},
		{"end_date", "before"},
		{"notice_period_days", -1},
		{"annual_value", 1.23456},
		{"vendor_id", "other"},
	} {
		t.Run(tc.field, func(t *testing.T) {
			b := w.body(100)
			switch tc.field {
			case "services[0].type":
				b["services"] = []map[string]any{{"name": "x", "type": tc.value}}
			case "end_date":
				b["end_date"] = w.date(-400)
			case "vendor_id":
				b["vendor_id"] = w.otherVendor // on another account's list only
			default:
				b[tc.field] = tc.value
			}
			r := w.env.Do(t, http.MethodPost, path, w.member, b)
			if r.Status != http.StatusUnprocessableEntity {
				t.Fatalf("status %d: %s", r.Status, r)
			}
			if !strings.Contains(r.String(), tc.field) {
				t.Fatalf("422 does not name %s: %s", tc.field, r)
			}
		})
	}
	// A patch naming an unknown field is refused, naming it.
	id := apitest.Must(t, w.env.Do(t, http.MethodPost, path, w.member, w.body(100)), http.StatusCreated).Map(t)["id"].(string)
	r := w.env.Do(t, http.MethodPatch, path+"&contract-id="+id, w.member, map[string]any{"colour": "red"})
	if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.String(), "colour") {
		t.Fatalf("unknown field: %d %s", r.Status, r)
	}
	r = w.env.Do(t, http.MethodPatch, path+"&contract-id="+id, w.member, map[string]any{"lei": "ABC"})
	if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.String(), "lei") {
		t.Fatalf("bad lei in patch: %d %s", r.Status, r)
	}
}

func TestContractsRolesAndIsolation(t *testing.T) {
	w := newContractWorld(t)
	env := w.env
	path := "/contracts?account-id=" + w.acct
	id := apitest.Must(t, env.Do(t, http.MethodPost, path, w.owner, w.body(100)), http.StatusCreated).Map(t)["id"].(string)
	// A viewer reads but does not write.
	apitest.Must(t, env.Do(t, http.MethodPost, path, w.viewer, w.body(100)), http.StatusForbidden)
	apitest.Must(t, env.Do(t, http.MethodPatch, path+"&contract-id="+id, w.viewer, map[string]any{"reference": "x"}), http.StatusForbidden)
	apitest.Must(t, env.Do(t, http.MethodDelete, path+"&contract-id="+id, w.viewer, nil), http.StatusForbidden)
	// A stranger is no member of the account.
	apitest.Must(t, env.Do(t, http.MethodGet, path, w.stranger, nil), http.StatusForbidden)
	// Another account's contract is not found through one's own account.
	otherPath := "/contracts?account-id=" + w.other
	apitest.Must(t, env.Do(t, http.MethodPatch, otherPath+"&contract-id="+id, w.stranger, map[string]any{"reference": "x"}), http.StatusNotFound)
	apitest.Must(t, env.Do(t, http.MethodDelete, otherPath+"&contract-id="+id, w.stranger, nil), http.StatusNotFound)
	list := apitest.Must(t, env.Do(t, http.MethodGet, otherPath, w.stranger, nil), http.StatusOK).Map(t)["contracts"].([]any)
	if len(list) != 0 {
		t.Fatalf("the stranger sees %v", list)
	}
}
