package outboxjson_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/internal/outboxjson"
)

// Payloads as the code before this package wrote them (the core's payload
// types with their json tags, marshalled by encoding/json): the outbox rows
// and queued tasks of a running system. Each must decode into the core's
// typed payload and encode back byte for byte.
var storedPayloads = []storedPayload{
	{outbox.KindMemberMail, `{"event_id":"0190a000-0000-7000-8000-00000000000a","account_id":"0190a000-0000-7000-8000-00000000000b","account_name":"Acme \u003c\u0026\u003e","email":"x@y.z","role":"admin","old_role":"viewer","change":"role_changed","by":"o@y.z"}`},
	{outbox.KindMemberMail, `{"event_id":"0190a000-0000-7000-8000-00000000000a","account_id":"0190a000-0000-7000-8000-00000000000b","account_name":"Acme","email":"x@y.z","role":"viewer","change":"added","by":"o@y.z"}`},
	{outbox.KindSubscriberConfirm, `{"event_id":"0190a000-0000-7000-8000-00000000000a","subscriber_id":"0190a000-0000-7000-8000-00000000000b"}`},
	{outbox.KindIncidentFanout, `{"incident_id":"0190a000-0000-7000-8000-00000000000c"}`},
	{outbox.KindAlertMail, `{"incident_id":"0190a000-0000-7000-8000-00000000000a","subscriber_id":"0190a000-0000-7000-8000-00000000000b","vendor_name":"Slack","list_name":"L","account_name":"Acme"}`},
	{outbox.KindAlertMail, `{"incident_id":"0190a000-0000-7000-8000-00000000000a","subscriber_id":"0190a000-0000-7000-8000-00000000000b"}`},
	{outbox.KindRatingChanged, `{"event_id":"0190a000-0000-7000-8000-00000000000a","vendor_id":"0190a000-0000-7000-8000-00000000000b"}`},
	{outbox.KindRatingMail, `{"event_id":"0190a000-0000-7000-8000-00000000000a","subscriber_id":"0190a000-0000-7000-8000-00000000000b","vendor_name":"Slack","list_name":"L","account_name":"Acme"}`},
	{outbox.KindReminderMail, `{"key":"k","account_id":"0190a000-0000-7000-8000-00000000000a","assessment_id":"0190a000-0000-7000-8000-00000000000b","email":"x@y.z","due_date":"2026-01-02","offset":-7}`},
	{outbox.KindEnrich, `{"run_id":"0190a000-0000-7000-8000-00000000000a","job_id":"0190a000-0000-7000-8000-00000000000b","vendor_id":"0190a000-0000-7000-8000-00000000000c","sections":["basic","logo"]}`},
	{outbox.KindEnrich, `{"run_id":"0190a000-0000-7000-8000-00000000000a","job_id":"0190a000-0000-7000-8000-00000000000b","vendor_id":"0190a000-0000-7000-8000-00000000000c","sections":null}`},
	{outbox.KindBackfill, `{"run_id":"0190a000-0000-7000-8000-00000000000a","since":"2025-01-02T03:04:05.000000006Z"}`},
	{outbox.KindBackfill, `{"run_id":"0190a000-0000-7000-8000-00000000000a"}`},
	{outbox.KindBlobDelete, `{"keys":["a/b","c"]}`},
	{outbox.KindBlobDelete, `{"keys":null}`},
	{outbox.KindWebhookEvent, `{"event":{"id":"0190a000-0000-7000-8000-00000000000a","type":"list.vendors_changed","account_id":"0190a000-0000-7000-8000-00000000000a","occurred_at":"2026-01-02T03:04:05Z","data":{"list_id":"0190a000-0000-7000-8000-00000000000a","list_name":"Main","added":["0190a000-0000-7000-8000-00000000000a"]}}}`},
	{outbox.KindWebhookEvent, `{"event":{"id":"0190a000-0000-7000-8000-00000000000a","type":"incident.created","occurred_at":"2026-01-02T03:04:05Z","data":{"vendor_id":"0190a000-0000-7000-8000-00000000000b","incident_id":"0190a000-0000-7000-8000-00000000000c","title":"Breach","severity":"high","published_at":"2026-01-02T00:00:00Z"}}}`},
	{outbox.KindWebhookEvent, `{"event":{"id":"0190a000-0000-7000-8000-00000000000a","type":"incident.created","occurred_at":"2026-01-02T03:04:05Z","data":{"vendor_id":"0190a000-0000-7000-8000-00000000000b","incident_id":"0190a000-0000-7000-8000-00000000000c","title":"CVE-1: x","severity":"critical","published_at":"2026-01-02T00:00:00Z","match":{"rule":"kev_vendor_project","matched_text":"vendorProject \"Ivanti\"","confidence":0.95},"sources":[{"source":"kev","url":"https://nvd.test/x","published_at":"2026-01-02T00:00:00Z"}],"affected_service":"Connect Secure","product_lists":[{"account_id":"0190a000-0000-7000-8000-00000000000a","list_id":"0190a000-0000-7000-8000-00000000000b","list_name":"Main","recorded":true}]}}}`},
	{outbox.KindWebhookAttempt, `{"delivery_id":"0190a000-0000-7000-8000-00000000000a","number":2}`},
	{outbox.KindWebhookDisabledMail, `{"endpoint_id":"0190a000-0000-7000-8000-00000000000a","account_id":"0190a000-0000-7000-8000-00000000000b","url":"https://h.example/x","last_error":"500","attempts":7}`},
	{outbox.KindMentionMail, `{"note_id":"0190a000-0000-7000-8000-00000000000c","account_id":"0190a000-0000-7000-8000-00000000000b","account_name":"Acme","vendor_id":"0190a000-0000-7000-8000-00000000000d","vendor_name":"Stripe","email":"erin@acme.example","author":"ann@acme.example","text":"ask @erin@acme.example"}`},
}

type storedPayload struct {
	kind outbox.Kind
	doc  string
}

func TestStoredPayloads(t *testing.T) {
	t.Parallel()
	for _, p := range storedPayloads {
		v := outboxjson.Decode(p.kind, []byte(p.doc))
		if _, raw := v.(json.RawMessage); raw {
			t.Fatalf("%s: %s did not decode", p.kind, p.doc)
		}
		got, err := outboxjson.Encode(p.kind, v)
		if err != nil {
			t.Fatalf("%s: %v", p.kind, err)
		}
		if string(got) != p.doc {
			t.Fatalf("%s written back differently:\n got %s\nwant %s", p.kind, got, p.doc)
		}
	}
}

// Every kind that is not periodic has a payload type here: a new kind
// without one would be written with its Go field names.
func TestEveryKindHasAPayload(t *testing.T) {
	t.Parallel()
	periodic := []outbox.Kind{outbox.KindPollIncidents, outbox.KindReenrichStale, outbox.KindReviewReminders}
	for _, k := range outbox.Kinds() {
		if slices.Contains(periodic, k) {
			continue
		}
		if !slices.ContainsFunc(storedPayloads, func(p storedPayload) bool { return p.kind == k }) {
			t.Errorf("kind %s has no stored payload in this test", k)
		}
		if _, err := outboxjson.Encode(k, struct{ X int }{}); err == nil {
			t.Errorf("kind %s takes any payload: it has no payload type", k)
		}
	}
}

func TestUnreadablePayloads(t *testing.T) {
	t.Parallel()
	// A payload that is not its kind's JSON is handed on as it is, for the
	// handler to refuse.
	for _, doc := range []string{`{"keys":"not a list"}`, `not json`} {
		if v := outboxjson.Decode(outbox.KindBlobDelete, []byte(doc)); !reflect.DeepEqual(v, json.RawMessage(doc)) {
			t.Fatalf("Decode(%s) = %#v", doc, v)
		}
	}
	// The periodic kinds carry none of their own.
	for _, p := range []any{struct{}{}, nil} {
		b, err := outboxjson.Encode(outbox.KindReviewReminders, p)
		if err != nil {
			t.Fatal(err)
		}
		if v := outboxjson.Decode(outbox.KindReviewReminders, b); !reflect.DeepEqual(v, json.RawMessage(b)) {
			t.Fatalf("periodic payload %s decoded as %#v", b, v)
		}
	}
	if _, err := outboxjson.Encode(outbox.KindEnrich, outbox.BlobDelete{}); err == nil {
		t.Fatal("an enrich message took a blob-delete payload")
	}
}
