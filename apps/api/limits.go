package api

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"

	"github.com/danielgtaylor/huma/v2"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/attestations"
	"github.com/vetted-dev/vetted/core/incidents"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
)

// coreLimits are the bounds of request fields that the core declares and
// enforces: a field of an operation's input tagged limit:"<key>" is
// documented (and validated by huma) with the constant of its key, as
// its maximum (a number) or maxItems (a list), so no tag repeats a
// constant of the core and changing one changes the document with it.
var coreLimits = map[string]int{
	"csv-rows":          lists.MaxCSVRows,             // import-csv's row_limit
	"list-page":         assessments.MaxListPage,      // a shaped list read's limit
	"vendor-page":       vendors.MaxVendorPage,        // a page of the directory
	"audit-page":        assessments.MaxAuditLimit,    // a page of the audit log
	"incidents":         assessments.MaxIncidentLimit, // the dashboard's recent incidents
	"account-incidents": incidents.MaxAccountPage,     // a page of an account's incidents
	"possible-page":     incidents.MaxPossiblePage,    // a page of possible matches
	"reminders":         assessments.MaxReminders,     // the review policy's reminder offsets
	"data-collected":    assessments.MaxDataCollected, // an assessment's data_collected
	"run-vendors":       vendors.MaxRunVendors,        // the vendors of an enrichment run
	"attestation-list":  attestations.MaxListLen,      // a SOC 2 report's carve-outs and CUECs
}

// applyLimits sets the bounds of the fields of in (an operation's input
// type) tagged limit:"<key>" on the operation registered as op: on its
// parameter (query, path, header) or on its body's property. It runs at
// registration, before any request, and panics on a key or a field it
// cannot place, as huma does on a bad tag.
func applyLimits(api huma.API, op huma.Operation, in reflect.Type) {
	registered := registeredOperation(api, op)
	var walk func(t reflect.Type, body bool)
	walk = func(t reflect.Type, body bool) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return
		}
		for i := range t.NumField() {
			f := t.Field(i)
			switch {
			case f.Anonymous && !body:
				walk(f.Type, false)
				continue
			case f.Name == "Body" && !body:
				walk(f.Type, true)
				continue
			}
			key, ok := f.Tag.Lookup("limit")
			if !ok {
				continue
			}
			limit, ok := coreLimits[key]
			if !ok {
				panic(fmt.Sprintf("api: %s.%s: unknown limit %q", t.Name(), f.Name, key))
			}
			s := fieldSchema(api, registered, f, body)
			if s == nil {
				panic(fmt.Sprintf("api: %s: no schema for %s to bound", op.OperationID, f.Name))
			}
			if f.Type.Kind() == reflect.Slice {
				s.MaxItems = &limit
			} else {
				m := float64(limit)
				s.Maximum = &m
			}
			// The schema's error messages are computed from its bounds.
			s.PrecomputeMessages()
		}
	}
	walk(in, false)
}

// registeredOperation returns the operation huma.Register added to the
// document: the one whose schemas huma validates requests with.
func registeredOperation(api huma.API, op huma.Operation) *huma.Operation {
	item := api.OpenAPI().Paths[op.Path]
	if item == nil {
		return nil
	}
	return map[string]*huma.Operation{
		http.MethodGet: item.Get, http.MethodPost: item.Post, http.MethodPut: item.Put,
		http.MethodPatch: item.Patch, http.MethodDelete: item.Delete,
	}[op.Method]
}

// fieldSchema finds the schema of field f of an operation's input: its
// parameter, or (body) the property of the JSON request body.
func fieldSchema(api huma.API, op *huma.Operation, f reflect.StructField, body bool) *huma.Schema {
	if op == nil {
		return nil
	}
	if !body {
		for _, in := range []string{"query", "path", "header"} {
			name, ok := f.Tag.Lookup(in)
			if !ok {
				continue
			}
			name, _, _ = strings.Cut(name, ",")
			for _, p := range op.Parameters {
				if p.In == in && p.Name == name {
					return p.Schema
				}
			}
		}
		return nil
	}
	if op.RequestBody == nil || op.RequestBody.Content["application/json"] == nil {
		return nil
	}
	s := op.RequestBody.Content["application/json"].Schema
	if s != nil && s.Ref != "" {
		s = api.OpenAPI().Components.Schemas.SchemaFromRef(s.Ref)
	}
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if s == nil || name == "" {
		return nil
	}
	return s.Properties[name]
}
