package webhook_test

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/webhook"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
)

// TestPayloadWireForm holds the Standard Webhooks body of each event type:
// {"type", "timestamp", "data"} with the data of its type.
func TestPayloadWireForm(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	id := uuid.MustParse("0190a000-0000-7000-8000-00000000000a")
	v := uuid.MustParse("0190a000-0000-7000-8000-00000000000b")
	rating := domainevent.RatingChange(v, "Slack", "A", "C", 91, 62, []string{"grade dropped two letters"}, at)
	rating.ID = id
	list := domainevent.VendorsChanged(v, id, "Main", []uuid.UUID{v}, nil, at)
	list.ID = id
	other := uuid.MustParse("0190a000-0000-7000-8000-00000000000c")
	incident := webhook.ForAccount(domainevent.Event{ID: id, Type: domainevent.IncidentCreated, OccurredAt: at, Data: domainevent.Data{VendorID: v, VendorName: "Ivanti",
		IncidentID: id, Title: "CVE-2025-0282: overflow", Severity: "critical", URL: "https://nvd.test/x", PublishedAt: at,
		Match:           &domainevent.Evidence{Rule: "kev_vendor_project", MatchedText: `vendorProject "Ivanti"`, Confidence: 0.95},
		Sources:         []domainevent.SourceItem{{Source: "kev", URL: "https://nvd.test/x", PublishedAt: at}},
		AffectedService: "Connect Secure",
		ProductLists: []domainevent.ProductList{{AccountID: v, ListID: id, ListName: "Main", Recorded: true},
			{AccountID: other, ListID: other, ListName: "Theirs", Recorded: false}}}}, v)
	for _, c := range []struct {
		ev   domainevent.Event
		want string
	}{
		{rating, `{"type":"vendor.rating_changed","timestamp":"2026-01-02T03:04:05Z","data":{"event_id":"0190a000-0000-7000-8000-00000000000a",` +
			`"vendor":{"id":"0190a000-0000-7000-8000-00000000000b","name":"Slack"},"old_grade":"A","new_grade":"C","old_score":91,"new_score":62,` +
			`"reasons":["grade dropped two letters"]}}`},
		{list, `{"type":"list.vendors_changed","timestamp":"2026-01-02T03:04:05Z","data":{"event_id":"0190a000-0000-7000-8000-00000000000a",` +
			`"account_id":"0190a000-0000-7000-8000-00000000000b","list_id":"0190a000-0000-7000-8000-00000000000a","list_name":"Main",` +
			`"added":["0190a000-0000-7000-8000-00000000000b"],"removed":[]}}`},
		{incident, `{"type":"incident.created","timestamp":"2026-01-02T03:04:05Z","data":{"event_id":"0190a000-0000-7000-8000-00000000000a",` +
			`"vendor":{"id":"0190a000-0000-7000-8000-00000000000b","name":"Ivanti"},"incident_id":"0190a000-0000-7000-8000-00000000000a",` +
			`"title":"CVE-2025-0282: overflow","severity":"critical","url":"https://nvd.test/x","published_at":"2026-01-02T03:04:05Z",` +
			`"match":{"rule":"kev_vendor_project","matched_text":"vendorProject \"Ivanti\"","confidence":0.95},` +
			`"sources":[{"source":"kev","url":"https://nvd.test/x","published_at":"2026-01-02T03:04:05Z"}],"affected_service":"Connect Secure",` +
			`"product_lists":[{"list_id":"0190a000-0000-7000-8000-00000000000a","list_name":"Main","recorded":true}]}}`},
		{domainevent.Event{ID: id, Type: domainevent.Ping, AccountID: v, Data: domainevent.Data{EndpointID: id}}, `{"type":"webhook.ping","timestamp":"2026-01-02T03:04:05Z",` +
			`"data":{"event_id":"0190a000-0000-7000-8000-00000000000a","account_id":"0190a000-0000-7000-8000-00000000000b","endpoint_id":"0190a000-0000-7000-8000-00000000000a"}}`},
	} {
		got, err := webhook.Payload(c.ev, at)
		if err != nil || string(got) != c.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", c.ev.Type, got, err, c.want)
		}
	}
}
