package api_test

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
)

// vendorRecordDoc is a vendor record as a client reads it.
type vendorRecordDoc struct {
	AccountID     string  `json:"account_id"`
	VendorID      string  `json:"vendor_id"`
	BusinessOwner *string `json:"business_owner"`
	Contacts      []struct {
		Name  string `json:"name"`
		Email string `json:"email"`
		Role  string `json:"role"`
	} `json:"contacts"`
	Links struct {
		TrustPage string `json:"trust_page"`
		DPA       string `json:"dpa"`
		Terms     string `json:"terms"`
		SLA       string `json:"sla"`
	} `json:"links"`
	Notes []struct {
		ID        string    `json:"id"`
		Author    string    `json:"author"`
		CreatedAt time.Time `json:"created_at"`
		Text      string    `json:"text"`
	} `json:"notes"`
	UpdatedAt *time.Time `json:"updated_at"`
	UpdatedBy string     `json:"updated_by"`
}

// The vendor record: one per vendor per account, read by viewers, written
// by members with a merge patch that takes back what GET answered, each
// rule's 422 naming its field, notes appended with their mentions mailed
// once to members, and nothing seen across accounts.
func TestVendorRecords(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	acct := env.NewAccount(t, "Records Inc", "owner@rec.test")
	owner := env.Token("owner@rec.test", apitest.Verified())
	env.AddMember(t, acct, owner, "member@rec.test", "member")
	env.AddMember(t, acct, owner, "viewer@rec.test", "viewer")
	member := env.Token("member@rec.test", apitest.Verified())
	viewer := env.Token("viewer@rec.test", apitest.Verified())
	stranger := env.Token("stranger@else.test", apitest.Verified())
	env.SaveVendors(t, owner, acct, "Okta", "Ivanti")
	_, ids := masterVendors(t, env, owner, acct)
	other := env.NewAccount(t, "Other Rec", "owner@other.test")
	otherTok := env.Token("owner@other.test", apitest.Verified())
	env.SaveVendors(t, otherTok, other, "Snowflake", "Okta")
	_, otherIDs := masterVendors(t, env, otherTok, other)
	env.Drain(t)
	env.Mail.Reset()

	q := func(acc, vendor string) string {
		return "/vendor-records?account-id=" + url.QueryEscape(acc) + "&vendor-id=" + vendor
	}
	okta := q(acct, ids["Okta"])
	notes := "/vendor-records/notes?account-id=" + url.QueryEscape(acct) + "&vendor-id=" + ids["Okta"]

	// A vendor never edited answers the empty record.
	var rec vendorRecordDoc
	res := apitest.Must(t, env.Do(t, http.MethodGet, okta, viewer, nil), 200)
	res.JSON(t, &rec)
	if rec.AccountID != acct || rec.VendorID != ids["Okta"] || rec.BusinessOwner != nil || rec.Contacts == nil || len(rec.Contacts) != 0 ||
		rec.Notes == nil || len(rec.Notes) != 0 || rec.UpdatedAt != nil || rec.UpdatedBy != "" || rec.Links.DPA != "" {
		t.Fatalf("empty record = %s", res.Body)
	}
	for _, key := range []string{`"business_owner":null`, `"contacts":[]`, `"notes":[]`, `"updated_at":null`, `"links":{"trust_page":"","dpa":"","terms":"","sla":""}`} {
		if !strings.Contains(res.String(), key) {
			t.Errorf("empty record lacks %s: %s", key, res.Body)
		}
	}

	// Roles and isolation.
	for _, c := range []struct {
		name, method, path, token string
		body                      any
		status                    int
	}{
		{"viewer cannot patch", http.MethodPatch, okta, viewer, map[string]any{"business_owner": nil}, 403},
		{"viewer cannot add a note", http.MethodPost, notes, viewer, map[string]any{"text": "hi"}, 403},
		{"a stranger cannot read", http.MethodGet, okta, stranger, nil, 403},
		{"another account's owner cannot read", http.MethodGet, okta, otherTok, nil, 403},
		{"another account's owner cannot patch", http.MethodPatch, okta, otherTok, map[string]any{}, 403},
		{"a vendor of another account only", http.MethodGet, q(acct, otherIDs["Snowflake"]), owner, nil, 404},
		{"an unknown vendor", http.MethodGet, q(acct, "0190a000-0000-7000-8000-000000000001"), owner, nil, 404},
		{"not on a list: no patch either", http.MethodPatch, q(acct, otherIDs["Snowflake"]), owner, map[string]any{}, 404},
		{"not on a list: no note either", http.MethodPost, "/vendor-records/notes?account-id=" + acct + "&vendor-id=" + otherIDs["Snowflake"], owner, map[string]any{"text": "x"}, 404},
		{"a vendor-id that is no id", http.MethodGet, q(acct, "okta"), owner, nil, 422},
	} {
		if r := env.Do(t, c.method, c.path, c.token, c.body); r.Status != c.status {
			t.Errorf("%s: %d, want %d: %s", c.name, r.Status, c.status, r.Body)
		}
	}

	// A member edits; the owner is matched without regard to case.
	env.Clock.Advance(time.Hour)
	before := env.Clock.Now()
	apitest.Must(t, env.Do(t, http.MethodPatch, okta, member, map[string]any{
		"business_owner": "Owner@REC.test",
		"contacts": []map[string]string{{"name": "Sam Lee", "email": "Sam@okta.example", "role": "security"},
			{"name": "Pat", "email": "pat@okta.example", "role": "legal"}},
		"links": map[string]string{"trust_page": "https://trust.okta.example", "dpa": "https://okta.example/dpa"},
	}), 200).JSON(t, &rec)
	if rec.BusinessOwner == nil || *rec.BusinessOwner != "owner@rec.test" || len(rec.Contacts) != 2 || rec.Contacts[0].Email != "sam@okta.example" ||
		rec.Contacts[1].Role != "legal" || rec.Links.TrustPage != "https://trust.okta.example" || rec.Links.SLA != "" ||
		rec.UpdatedBy != "member@rec.test" || rec.UpdatedAt == nil || rec.UpdatedAt.Before(before.Truncate(time.Microsecond)) {
		t.Fatalf("patched = %+v", rec)
	}
	// The record is the account's, whatever list: the owner reads the same.
	got := apitest.Must(t, env.Do(t, http.MethodGet, okta, viewer, nil), 200).Map(t)
	if got["business_owner"] != "owner@rec.test" || len(got["contacts"].([]any)) != 2 {
		t.Fatalf("GET after PATCH = %v", got)
	}
	// What GET answered is accepted back, unchanged.
	var again vendorRecordDoc
	apitest.Must(t, env.Do(t, http.MethodPatch, okta, member, got), 200).JSON(t, &again)
	if *again.BusinessOwner != "owner@rec.test" || len(again.Contacts) != 2 || again.Links != rec.Links {
		t.Fatalf("PATCH with GET's answer = %+v", again)
	}
	// Merge: one link set, one cleared; null clears the owner.
	apitest.Must(t, env.Do(t, http.MethodPatch, okta, owner, map[string]any{"links": map[string]any{"sla": "http://okta.example/sla", "dpa": nil},
		"business_owner": nil}), 200).JSON(t, &rec)
	if rec.BusinessOwner != nil || rec.Links.SLA != "http://okta.example/sla" || rec.Links.DPA != "" || rec.Links.TrustPage == "" ||
		len(rec.Contacts) != 2 || rec.UpdatedBy != "owner@rec.test" {
		t.Fatalf("merged = %+v", rec)
	}
	// The other account's record of the same vendor is its own.
	var theirs vendorRecordDoc
	apitest.Must(t, env.Do(t, http.MethodGet, q(other, otherIDs["Okta"]), otherTok, nil), 200).JSON(t, &theirs)
	if theirs.AccountID != other || len(theirs.Contacts) != 0 || theirs.Links.TrustPage != "" || theirs.UpdatedAt != nil {
		t.Fatalf("the other account's record = %+v", theirs)
	}

	// Each rule's 422 names its field; nothing is saved.
	for _, c := range []struct {
		name string
		body map[string]any
		want []string
	}{
		{"owner not a member", map[string]any{"business_owner": "stranger@else.test"}, []string{"body.business_owner"}},
		{"owner not an address", map[string]any{"business_owner": "owner"}, []string{"body.business_owner"}},
		{"contact email and role", map[string]any{"contacts": []map[string]string{{"name": "a", "email": "a@okta.example", "role": "legal"},
			{"name": "b", "email": "b@okta", "role": "sales"}}}, []string{"body.contacts[1].email", "body.contacts[1].role"}},
		{"contact without a name", map[string]any{"contacts": []map[string]string{{"name": " ", "email": "a@okta.example", "role": "legal"}}}, []string{"body.contacts[0].name"}},
		{"too many contacts", map[string]any{"contacts": slices.Repeat([]map[string]string{{"name": "a", "email": "a@okta.example", "role": "legal"}}, 51)}, []string{"body.contacts"}},
		{"a link that is no http(s) URL", map[string]any{"links": map[string]any{"dpa": "ftp://okta.example/dpa", "terms": "okta.example"}}, []string{"body.links.dpa", "body.links.terms"}},
		{"an unknown link", map[string]any{"links": map[string]any{"soc2": "https://x.example"}}, []string{"body.links.soc2"}},
		{"an unknown field", map[string]any{"owner": "owner@rec.test"}, []string{"body.owner"}},
	} {
		r := env.Do(t, http.MethodPatch, okta, member, c.body)
		if r.Status != 422 {
			t.Errorf("%s: %d, want 422: %s", c.name, r.Status, r.Body)
			continue
		}
		if got := readProblem(t, r).locations(); !slices.Equal(got, c.want) {
			t.Errorf("%s: locations %v, want %v", c.name, got, c.want)
		}
	}
	var unchanged vendorRecordDoc
	apitest.Must(t, env.Do(t, http.MethodGet, okta, viewer, nil), 200).JSON(t, &unchanged)
	if len(unchanged.Contacts) != 2 || unchanged.Links.DPA != "" || !unchanged.UpdatedAt.Equal(*rec.UpdatedAt) {
		t.Fatalf("a refused patch changed the record: %+v", unchanged)
	}

	// Notes: bounded plain text, 201 with the note, appended in order.
	for _, text := range []string{"", "   ", strings.Repeat("x", 5001), "bell\x07"} {
		r := env.Do(t, http.MethodPost, notes, member, map[string]any{"text": text})
		if r.Status != 422 || !slices.Equal(readProblem(t, r).locations(), []string{"body.text"}) {
			t.Errorf("note %q: %d %s, want 422 at body.text", text[:min(len(text), 10)], r.Status, r.Body)
		}
	}
	env.Clock.Advance(time.Minute)
	text := "Renewal call with @Owner@rec.test and @viewer@rec.test (cc @owner@rec.test).\n" +
		"Not @stranger@else.test, not me @member@rec.test."
	n := apitest.Must(t, env.Do(t, http.MethodPost, notes, member, map[string]any{"text": "  " + text + "  "}), 201).Map(t)
	if n["author"] != "member@rec.test" || n["text"] != text || n["id"] == "" || n["created_at"] == nil {
		t.Fatalf("note = %v", n)
	}
	env.Clock.Advance(time.Minute)
	apitest.Must(t, env.Do(t, http.MethodPost, notes, owner, map[string]any{"text": "second"}), 201)
	apitest.Must(t, env.Do(t, http.MethodGet, okta, viewer, nil), 200).JSON(t, &rec)
	if len(rec.Notes) != 2 || rec.Notes[0].ID != n["id"] || rec.Notes[1].Text != "second" || rec.Notes[1].Author != "owner@rec.test" ||
		rec.UpdatedBy != "owner@rec.test" || !rec.UpdatedAt.Equal(rec.Notes[1].CreatedAt) {
		t.Fatalf("notes = %+v, updated %v by %s", rec.Notes, rec.UpdatedAt, rec.UpdatedBy)
	}
	// PATCH ignores the notes it is sent back.
	apitest.Must(t, env.Do(t, http.MethodPatch, okta, member, map[string]any{"notes": []any{}}), 200).JSON(t, &rec)
	if len(rec.Notes) != 2 {
		t.Fatalf("a patch changed the notes: %+v", rec.Notes)
	}

	// The mentions: one mail per mentioned member, none to the author or a
	// stranger, and none again when the jobs run again.
	env.Drain(t)
	sent := env.Mail.Find(func(m mailtmpl.Mail) bool { return strings.HasPrefix(m.Key, "mention:") })
	var to []string
	for _, m := range sent {
		to = append(to, m.To)
		if !strings.Contains(m.Text, "Renewal call") || !strings.Contains(m.Subject, "member@rec.test") || !strings.Contains(m.Subject, "Okta") ||
			!strings.Contains(m.Text, "/app/a/"+acct+"/vendors/"+ids["Okta"]) {
			t.Errorf("mention mail = %+v", m)
		}
	}
	slices.Sort(to)
	if !slices.Equal(to, []string{"owner@rec.test", "viewer@rec.test"}) {
		t.Fatalf("mention mails to %v, want the owner and the viewer once each", to)
	}
	env.Drain(t)
	if n := len(env.Mail.Find(func(m mailtmpl.Mail) bool { return strings.HasPrefix(m.Key, "mention:") })); n != 2 {
		t.Fatalf("after a second drain: %d mention mails", n)
	}
}

// A mention mail goes to members: one removed from the account between the
// note and the job is not mailed, and a note in a personal space mentions
// nobody but its owner, who wrote it.
func TestVendorRecordMentionOfAMemberWhoLeft(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	acct := env.NewAccount(t, "Leavers Inc", "owner@leave.test")
	owner := env.Token("owner@leave.test", apitest.Verified())
	env.AddMember(t, acct, owner, "gone@leave.test", "member")
	env.AddMember(t, acct, owner, "stays@leave.test", "member")
	env.SaveVendors(t, owner, acct, "Okta")
	_, ids := masterVendors(t, env, owner, acct)
	env.Drain(t)
	env.Mail.Reset()
	apitest.Must(t, env.Do(t, http.MethodPost, "/vendor-records/notes?account-id="+acct+"&vendor-id="+ids["Okta"], owner,
		map[string]any{"text": "@gone@leave.test @stays@leave.test please review"}), 201)
	apitest.Must(t, env.Do(t, http.MethodDelete, "/users?account-id="+acct, owner, users("gone@leave.test", "")), 200)
	env.Drain(t)
	var to []string
	for _, m := range env.Mail.Find(func(m mailtmpl.Mail) bool { return strings.HasPrefix(m.Key, "mention:") }) {
		to = append(to, m.To)
		if !strings.HasSuffix(strings.Fields(m.Text[strings.Index(m.Text, "Open the vendor record: "):])[4], "?tab=record") {
			t.Errorf("link of %s: %s", m.To, m.Text)
		}
	}
	if !slices.Equal(to, []string{"stays@leave.test"}) {
		t.Fatalf("mention mails to %v, want stays@leave.test only", to)
	}

	me := env.Token("solo@leave.test", apitest.Verified())
	env.SaveVendors(t, me, "individual", "Ivanti")
	_, mine := masterVendors(t, env, me, "individual")
	env.Mail.Reset()
	apitest.Must(t, env.Do(t, http.MethodPost, "/vendor-records/notes?account-id=individual&vendor-id="+mine["Ivanti"], me,
		map[string]any{"text": "note to self @solo@leave.test, cc @owner@leave.test"}), 201)
	env.Drain(t)
	if n := len(env.Mail.Find(func(m mailtmpl.Mail) bool { return strings.HasPrefix(m.Key, "mention:") })); n != 0 {
		t.Fatalf("a personal space's note mailed %d", n)
	}
	rec := apitest.Must(t, env.Do(t, http.MethodGet, "/vendor-records?account-id=individual&vendor-id="+mine["Ivanti"], me, nil), 200).Map(t)
	if rec["updated_by"] != "solo@leave.test" || len(rec["notes"].([]any)) != 1 {
		t.Fatalf("personal record = %v", rec)
	}
}

// Concurrent writes of one record take turns: four PATCHes each setting
// one link and four notes, all at once, leave every link and every note
// (a write reads the record and saves it whole, so without turns a later
// save would drop an earlier one's change). Meaningful on PostgreSQL
// (VETTED_TEST_STORE=postgres), whose units of work run side by side.
func TestVendorRecordConcurrentWrites(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	acct := env.NewAccount(t, "Racers Inc", "owner@race.test")
	owner := env.Token("owner@race.test", apitest.Verified())
	env.SaveVendors(t, owner, acct, "Okta")
	_, ids := masterVendors(t, env, owner, acct)
	path := "/vendor-records?account-id=" + acct + "&vendor-id=" + ids["Okta"]
	links := []string{"trust_page", "dpa", "terms", "sla"}
	var wg sync.WaitGroup
	status := make(chan int, 8)
	for i, l := range links {
		wg.Add(2)
		go func() {
			defer wg.Done()
			status <- env.Do(t, http.MethodPatch, path, owner, map[string]any{"links": map[string]string{l: "https://okta.example/" + l}}).Status
		}()
		go func() {
			defer wg.Done()
			status <- env.Do(t, http.MethodPost, "/vendor-records/notes?account-id="+acct+"&vendor-id="+ids["Okta"], owner,
				map[string]any{"text": "note " + strconv.Itoa(i)}).Status
		}()
	}
	wg.Wait()
	close(status)
	for s := range status {
		if s != 200 && s != 201 {
			t.Fatalf("a concurrent write answered %d", s)
		}
	}
	var rec vendorRecordDoc
	apitest.Must(t, env.Do(t, http.MethodGet, path, owner, nil), 200).JSON(t, &rec)
	got := []string{rec.Links.TrustPage, rec.Links.DPA, rec.Links.Terms, rec.Links.SLA}
	for i, l := range links {
		if got[i] != "https://okta.example/"+l {
			t.Errorf("link %s = %q: a concurrent write was lost", l, got[i])
		}
	}
	if len(rec.Notes) != 4 {
		t.Errorf("%d notes, want 4", len(rec.Notes))
	}
}
