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
		{domainevent.Event{ID: id, Type: domainevent.Ping, AccountID: v, Data: domainevent.Data{EndpointID: id}}, `{"type":"webhook.ping","timestamp":"2026-01-02T03:04:05Z",` +
			`"data":{"event_id":"0190a000-0000-7000-8000-00000000000a","account_id":"0190a000-0000-7000-8000-00000000000b","endpoint_id":"0190a000-0000-7000-8000-00000000000a"}}`},
	} {
		got, err := webhook.Payload(c.ev, at)
		if err != nil || string(got) != c.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", c.ev.Type, got, err, c.want)
		}
	}
}
