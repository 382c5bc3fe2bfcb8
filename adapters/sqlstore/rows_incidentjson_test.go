package sqlstore

import "testing"

// The stored shapes of incidents.match, incidents.sources and
// possible_matches.draft: each document must read into the core and be
// written back byte for byte, so that a renamed core field never changes
// what the databases hold.
var (
	storedMatch      = `{"rule":"domain","matched_text":"acme.com","confidence":0.75}`
	storedItems      = `[{"source":"news","url":"https://news.example/a","published_at":"2026-03-04T05:06:07.891Z"},{"source":"kev","url":"https://kev.example/CVE-2026-1","published_at":"2026-03-05T00:00:00Z"}]`
	storedDraft      = `{"id":"0190a000-0000-7000-8000-000000000001","vendor_id":"0190a000-0000-7000-8000-000000000002","title":"Acme breach","summary":"s","incident_type":"breach","affected_service":"SSO","potentially_impacted_data":["email"],"status":"open","severity":"high","url":"https://news.example/a","source":"news","external_id":"https://news.example/a","published_at":"2026-03-04T05:06:07.891Z","backfilled":false,"created_at":"2026-03-04T05:06:08Z","match":{"rule":"name","matched_text":"Acme","confidence":0.5},"sources":[{"source":"news","url":"https://news.example/a","published_at":"2026-03-04T05:06:07.891Z"}],"keys":["url:https://news.example/a","source:news"]}`
	storedEmptyDraft = `{"id":"00000000-0000-0000-0000-000000000000","vendor_id":"00000000-0000-0000-0000-000000000000","title":"","summary":"","incident_type":"","affected_service":"","potentially_impacted_data":null,"status":"","severity":"","url":"","source":"","external_id":"","published_at":"0001-01-01T00:00:00Z","backfilled":false,"created_at":"0001-01-01T00:00:00Z","match":null,"sources":null,"keys":null}`
)

func TestStoredIncidentJSON(t *testing.T) {
	roundTrip(t, "match", storedMatch, (*incidentMatchJSON).core, fromIncidentMatch)
	roundTrip(t, "no match", "null", (*incidentMatchJSON).core, fromIncidentMatch)
	roundTrip(t, "sources", storedItems, incidentItemsCore, fromIncidentItems)
	roundTrip(t, "no sources", "[]", incidentItemsCore, fromIncidentItems)
	roundTrip(t, "draft", storedDraft, incidentDraftJSON.core, fromIncidentDraft)
	roundTrip(t, "empty draft", storedEmptyDraft, incidentDraftJSON.core, fromIncidentDraft)
}
