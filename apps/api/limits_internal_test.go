package api

import (
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
)

// TestCoreLimitsReachTheDocument checks that the bounds the core declares
// are those the document states (and huma validates), read from the
// constants rather than repeated in tags.
func TestCoreLimitsReachTheDocument(t *testing.T) {
	doc := Describe().OpenAPI()
	param := func(path, name string) *huma.Schema {
		for _, p := range doc.Paths[path].Get.Parameters {
			if p.Name == name {
				return p.Schema
			}
		}
		t.Fatalf("GET %s has no parameter %s", path, name)
		return nil
	}
	body := func(op *huma.Operation, prop string) *huma.Schema {
		s := op.RequestBody.Content["application/json"].Schema
		if s.Ref != "" {
			s = doc.Components.Schemas.SchemaFromRef(s.Ref)
		}
		if s.Properties[prop] == nil {
			t.Fatalf("%s has no body property %s", op.OperationID, prop)
		}
		return s.Properties[prop]
	}
	if s := param("/vendor-lists", "limit"); s.Maximum == nil || *s.Maximum != assessments.MaxListPage {
		t.Errorf("list read limit maximum %v, want %d", s.Maximum, assessments.MaxListPage)
	}
	if s := body(doc.Paths["/vendor-lists"].Post, "row_limit"); s.Maximum == nil || *s.Maximum != lists.MaxCSVRows {
		t.Errorf("import-csv row_limit maximum %v, want %d", s.Maximum, lists.MaxCSVRows)
	}
	var policy *huma.Operation
	for _, item := range doc.Paths {
		for _, op := range []*huma.Operation{item.Put, item.Post, item.Patch} {
			if op != nil && op.RequestBody != nil && op.RequestBody.Content["application/json"] != nil {
				s := op.RequestBody.Content["application/json"].Schema
				if s.Ref != "" {
					s = doc.Components.Schemas.SchemaFromRef(s.Ref)
				}
				if s != nil && s.Properties["reminder_offsets_days"] != nil {
					policy = op
				}
			}
		}
	}
	if policy == nil {
		t.Fatal("no operation takes reminder_offsets_days")
	}
	if s := body(policy, "reminder_offsets_days"); s.MaxItems == nil || *s.MaxItems != assessments.MaxReminders {
		t.Errorf("reminder_offsets_days maxItems %v, want %d", s.MaxItems, assessments.MaxReminders)
	}
}
