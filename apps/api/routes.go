package api

import (
	"context"
	"net/http"
	"reflect"
	"slices"
	"strconv"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"
	"github.com/go-chi/chi/v5"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/records"
)

// endpoint is one operation of the API: how the OpenAPI document declares it
// (id, method, path, summary, tags, security, the roles it needs in its
// summary or, for platform admins, in Metadata, errors) and the handler
// method that answers it.
type endpoint struct {
	op      huma.Operation
	handler operationHandler
}

// operationHandler is a handler method of any input and output types,
// which register adds to the API as the handler of an operation.
type operationHandler interface {
	add(api huma.API, op huma.Operation)
}

// handlerMethod is a handler method: it takes an operation's input and
// answers its output, or the error of the use case it called.
type handlerMethod[I, O any] func(context.Context, *I) (*O, error)

// add registers op answered by m, with the API's one error mapping
// (register).
func (m handlerMethod[I, O]) add(api huma.API, op huma.Operation) { register(api, op, m) }

// handle makes a handler method an endpoint's handler; its input and
// output types, which differ from one operation to the next, are inferred.
func handle[I, O any](m func(context.Context, *I) (*O, error)) operationHandler {
	return handlerMethod[I, O](m)
}

// register adds every operation of routes() to the API, in the table's order
// (the order of the OpenAPI document's schemas as they are first met).
func (s *Server) register() {
	for _, e := range s.routes() {
		e.handler.add(s.api, e.op)
	}
}

// The tags of the document, one per area.
var (
	healthTags     = []string{"Health"}
	accountTags    = []string{"Accounts"}
	userTags       = []string{"Users"}
	listTags       = []string{"Vendor lists"}
	vendorTags     = []string{"Vendors"}
	reviewTags     = []string{"Reviews"}
	assessmentTags = []string{"Assessments"}
	documentTags   = []string{"Evidence documents"}
	subscriberTags = []string{"Subscribers"}
	webhookTags    = []string{"Webhooks"}
	dashboardTags  = []string{"Dashboard"}
	incidentTags   = []string{"Incidents"}
	recordTags     = []string{"Vendor records"}
	contractTags   = []string{"Contracts"}

	attestationTags = []string{"Attestations"}
)

const upsertSummary = "Create or update the assessment of a vendor on a list (member or above); omitted fields keep their values"

// routes is every operation of the API, one entry per method and path,
// grouped by area. Each entry names the handler method that answers it: a
// method parses its input into the core's values, calls one use case and
// maps the result to the answer (see the area's file: accounts.go,
// lists.go, vendors.go, assessments.go and its reviews.go, calendar.go,
// export.go, documents.go, dashboard.go; subscribers.go, webhooks.go,
// ratings.go, incidents.go, ready.go).
func (s *Server) routes() []endpoint {
	var (
		health  = healthHandler{s}
		accts   = accountsHandler{s}
		members = membersHandler{s}
		lists   = listsHandler{s}
		vendors = vendorsHandler{s}
		asmts   = assessmentsHandler{s}
		alerts  = alertsHandler{s}
		hooks   = webhooksHandler{s}
		attests = attestationsHandler{s}
		ratings = ratingsHandler{s}
		incs    = incidentsHandler{s}
		recs    = recordsHandler{s}
		cons    = contractsHandler{s}
	)
	upsertResponses := map[string]*huma.Response{
		"201": s.jsonResponse("the assessment was created", AssessmentJSON{}),
	}
	return []endpoint{
		// Health: liveness and readiness (healthHandler, ready.go).
		{huma.Operation{OperationID: "healthz", Method: http.MethodGet, Path: "/healthz", Summary: "Process is up", Tags: healthTags,
			Security: public}, handle(health.healthz)},
		{huma.Operation{OperationID: "readyz", Method: http.MethodGet, Path: "/readyz", Summary: "Store and queue are reachable", Tags: healthTags,
			Description: "Needs no token. With a platform admin's token the answer adds `invalidation`: how this replica hears of other replicas' writes to the vendor directory. A token that does not verify is answered as anonymous.",
			Security:    optionalBearer, Errors: []int{http.StatusServiceUnavailable}}, handle(health.readyz)},

		// Accounts: organizations (accountsHandler, accounts.go). Metadata
		// platformAdminOnly marks the platform-admin operations.
		{huma.Operation{Metadata: platformAdminOnly, OperationID: "create-account", Method: http.MethodPost, Path: "/accounts", Tags: accountTags,
			Summary: "Create an organization (platform admins)", DefaultStatus: http.StatusCreated, Security: secured, Errors: writeErrors}, handle(accts.createAccount)},
		{huma.Operation{OperationID: "list-accounts", Method: http.MethodGet, Path: "/accounts", Tags: accountTags,
			Summary: "List accounts (all for platform admins, the caller's own otherwise)", Security: secured, Errors: directoryErrors}, handle(accts.listAccounts)},
		{huma.Operation{Metadata: platformAdminOnly, OperationID: "restore-account-owner", Method: http.MethodPost, Path: "/accounts/owner", Tags: accountTags,
			Summary: "Make someone an owner of an organization, e.g. one that lost its last owner (platform admins; audited)",
			Description: "The way back for an account whose last owner is gone and where nobody left may assign owner. " +
				"The person becomes an owner (a member's role is raised, anyone else is added); nobody else changes. " +
				"A reason is required: an audit record names the platform admin, the account, the new owner, the role they had and the reason, " +
				"and the new owner is mailed. 409 when they are an owner already; a personal space has no owner to restore (422).",
			Security: secured, Errors: writeErrors}, handle(accts.restoreOwner)},
		{huma.Operation{Metadata: platformAdminOnly, OperationID: "delete-accounts", Method: http.MethodDelete, Path: "/accounts", Tags: accountTags,
			Summary: "Delete accounts with everything they own (platform admins)", Security: secured, Errors: accountErrors}, handle(accts.deleteAccounts)},

		// Users: an organization's members and roles (membersHandler,
		// accounts.go).
		{huma.Operation{OperationID: "list-users", Method: http.MethodGet, Path: "/users", Tags: userTags,
			Summary: "The caller's organizations, or one organization's members", Security: secured, Errors: accountErrors}, handle(members.listUsers)},
		{huma.Operation{OperationID: "add-users", Method: http.MethodPost, Path: "/users", Tags: userTags,
			Summary: "Add members (owner or admin; only an owner may add an owner)", DefaultStatus: http.StatusCreated, Security: secured, Errors: writeErrors}, handle(members.addUsers)},
		{huma.Operation{OperationID: "change-user-roles", Method: http.MethodPatch, Path: "/users", Tags: userTags,
			Summary: "Change members' roles (only an owner sets owner; the last owner cannot be demoted)", Security: secured, Errors: writeErrors}, handle(members.changeRoles)},
		{huma.Operation{OperationID: "remove-users", Method: http.MethodDelete, Path: "/users", Tags: userTags,
			Summary: "Remove members (the last owner cannot be removed)", Security: secured, Errors: writeErrors}, handle(members.removeUsers)},

		// Vendor lists (listsHandler, lists.go). post-vendor-lists is one route
		// for five operations of the contract, told apart by the operation query
		// parameter: see listsHandler.post.
		{huma.Operation{OperationID: "get-vendor-lists", Method: http.MethodGet, Path: "/vendor-lists", Tags: listTags,
			Summary: "List the account's vendor lists, or one list with its vendors", Security: secured, Errors: accountErrors,
			Responses: map[string]*huma.Response{"200": {Description: "OK", Content: map[string]*huma.MediaType{
				"application/json": {Schema: s.api.OpenAPI().Components.Schemas.Schema(reflect.TypeFor[listsGetBody](), true, "ListsGetOutBody")}}}}}, handle(lists.getLists)},
		{huma.Operation{OperationID: "post-vendor-lists", Method: http.MethodPost, Path: "/vendor-lists", Tags: listTags,
			Summary:      "Create a list (vendor-list=<name>), replace its vendors (operation=save-vendors), add or remove some (add-vendors, remove-vendors) or merge a CSV (operation=import-csv)",
			Security:     secured,
			Errors:       append(slices.Clone(writeErrors), http.StatusRequestEntityTooLarge, http.StatusPreconditionFailed),
			MaxBodyBytes: 4 << 20, // a 1 MB CSV grows when JSON-escaped; the CSV limit itself is checked on the text
			Responses: map[string]*huma.Response{
				"201": s.jsonResponse("the created list (without operation)", ListJSON{}),
			}}, handle(lists.post)},
		{huma.Operation{OperationID: "patch-vendor-lists", Method: http.MethodPatch, Path: "/vendor-lists", Tags: listTags,
			Summary: "Turn incident alerts for one vendor of a list on or off (operation=alerts-enabled)", Security: secured, Errors: accountErrors}, handle(lists.setAlerts)},
		{huma.Operation{OperationID: "delete-vendor-list", Method: http.MethodDelete, Path: "/vendor-lists", Tags: listTags,
			Summary: "Delete a list (by vendor-list-id or vendor-list) with its entries, assessments and subscribers", Security: secured, Errors: accountErrors}, handle(lists.deleteList)},
		{huma.Operation{OperationID: "add-product", Method: http.MethodPost, Path: "/vendor-lists/{vendor_list_id}/vendors/{vendor_id}/products",
			Tags: listTags, Summary: "Add a product row to a vendor on a list (409 when it exists)", DefaultStatus: http.StatusCreated, Security: secured, Errors: writeErrors}, handle(lists.addProduct)},

		// Vendors: the global directory (vendorsHandler, vendors.go).
		{huma.Operation{OperationID: "list-vendors", Method: http.MethodGet, Path: "/vendors/all", Tags: vendorTags,
			Summary: "List the whole vendor directory", Security: secured, Errors: directoryErrors,
			Description: "Without limit and cursor: the whole directory, written as it is read, a page at a time " +
				"(each vendor once, by name; a vendor added meanwhile may be left out). With limit or cursor: one page, " +
				"with next_cursor when more follow.",
			Responses: map[string]*huma.Response{"200": {Description: "OK", Content: map[string]*huma.MediaType{
				"application/json": {Schema: s.api.OpenAPI().Components.Schemas.Schema(reflect.TypeFor[VendorsOutBody](), true, "")}}}}}, handle(vendors.listVendors)},
		{huma.Operation{OperationID: "get-vendor", Method: http.MethodGet, Path: "/vendor/{id_or_name}", Tags: vendorTags,
			Summary: "A vendor with its profile groups (empty groups for a custom vendor)", Security: secured, Errors: directoryErrors}, handle(vendors.getVendor)},
		{huma.Operation{OperationID: "get-vendor-security-instances", Method: http.MethodGet, Path: "/vendor/{id_or_name}/security-instances",
			Tags: vendorTags, Summary: "A vendor's security findings and signals", Security: secured, Errors: directoryErrors}, handle(vendors.securityInstances)},
		{huma.Operation{OperationID: "get-vendor-incidents", Method: http.MethodGet, Path: "/vendor/{id_or_name}/incidents",
			Tags: vendorTags, Summary: "A vendor's incidents, live and historical", Security: secured, Errors: directoryErrors}, handle(vendors.incidents)},
		{huma.Operation{Metadata: platformAdminOnly, OperationID: "record-vendor-incident", Method: http.MethodPost, Path: "/vendor/{id_or_name}/incidents",
			Tags: vendorTags, Summary: "Record an incident by hand (platform admins); a live one alerts subscribers", DefaultStatus: http.StatusCreated, Security: secured, Errors: writeErrors}, handle(vendors.recordIncident)},
		{huma.Operation{Metadata: platformAdminOnly, OperationID: "enrich-vendors", Method: http.MethodPost, Path: "/vendor/enrich", Tags: vendorTags,
			Summary: "Start an enrichment run (platform admins); progress at GET /vendor/enrich/{run_id}", DefaultStatus: http.StatusAccepted, Security: secured, Errors: writeErrors}, handle(vendors.enrich)},
		{huma.Operation{Metadata: platformAdminOnly, OperationID: "get-enrich-run", Method: http.MethodGet, Path: "/vendor/enrich/{run_id}", Tags: vendorTags,
			Summary: "Progress of an enrichment run (platform admins)", Security: secured, Errors: writeErrors}, handle(vendors.enrichRun)},
		{huma.Operation{Metadata: platformAdminOnly, OperationID: "patch-vendor", Method: http.MethodPatch, Path: "/vendor/{id_or_name}", Tags: vendorTags,
			Summary: "Edit whitelisted profile fields and the vendor's aliases with a JSON merge patch (platform admins); no enrichment runs",
			Description: "Body: `{\"company\": {...}, \"security\": {...}, \"privacy\": {...}, \"maturity\": {...}, \"aliases\": [...]}`; null removes a value. " +
				"A field outside the whitelist is 422, naming it. `aliases` replaces the directory entry's other names (the names incident sources may " +
				"use for the vendor): at most 50 strings of at most 200 characters, trimmed, none empty, duplicates differing only in case kept once; " +
				"null or [] clears them. A patch of `aliases` alone makes no profile for a vendor without one; anything else is applied with them, all or nothing.",
			Security: secured,
			Errors:   accountErrors,
			RequestBody: &huma.RequestBody{Content: map[string]*huma.MediaType{
				"application/merge-patch+json": {Schema: &huma.Schema{Type: "object", AdditionalProperties: true}},
			}}}, handle(vendors.patchVendor)},
		{huma.Operation{Metadata: platformAdminOnly, OperationID: "delete-vendor", Method: http.MethodDelete, Path: "/vendor/{id_or_name}", Tags: vendorTags,
			Summary: "Remove a vendor's profile and security instances (platform admins); the entry and list memberships stay", Security: secured, Errors: writeErrors}, handle(vendors.deleteVendor)},
		{huma.Operation{Metadata: platformAdminOnly, OperationID: "start-incident-backfill", Method: http.MethodPost, Path: "/vendors/incident-backfill", Tags: vendorTags,
			Summary: "Backfill historical incidents (platform admins); they never alert", DefaultStatus: http.StatusAccepted, Security: secured, Errors: writeErrors}, handle(vendors.startBackfill)},
		{huma.Operation{Metadata: platformAdminOnly, OperationID: "get-incident-backfill", Method: http.MethodGet, Path: "/vendors/incident-backfill/{run_id}", Tags: vendorTags,
			Summary: "Status of an incident backfill run (platform admins)", Security: secured, Errors: writeErrors}, handle(vendors.backfillRun)},

		// Assessments area (assessmentsHandler): the register export
		// (export.go), the review calendar (calendar.go), the review policy
		// (reviews.go).
		{huma.Operation{OperationID: "export-vendor-list", Method: http.MethodGet, Path: "/vendor-lists/export",
			Tags: listTags, Security: secured, Errors: accountErrors,
			Summary: "The register as a file: one row per vendor and product of a list (viewer or above)",
			Description: "Streamed as it is read, a page of the list at a time. Columns: vendor_name, website_url, product_name, tier, " +
				"compliance_approval_status, next_review_at, review_state, rating, grade, sponsor, alerts_enabled, " +
				"conditional_approval_condition. A cell that starts with =, +, -, @, a tab or a carriage return is written with a single quote " +
				"before it, so that a spreadsheet shows it as text instead of running it (OWASP's rule for CSV injection). " +
				"The file imports back through import-csv, which removes those quotes (computed columns are ignored there).",
			Responses: map[string]*huma.Response{"200": {Description: "OK", Content: map[string]*huma.MediaType{
				"text/csv": {Schema: &huma.Schema{Type: huma.TypeString}}}}}}, handle(asmts.exportList)},
		{huma.Operation{OperationID: "get-review-calendar", Method: http.MethodGet, Path: "/review-calendar", Tags: reviewTags,
			Summary:     "The caller's personal review calendar link for the account (viewer or above)",
			Description: "The link carries a signed key and needs no token, so that calendar apps can subscribe to it; DELETE revokes it.",
			Security:    secured, Errors: accountErrors}, handle(asmts.calendarLink)},
		{huma.Operation{OperationID: "delete-review-calendar", Method: http.MethodDelete, Path: "/review-calendar", Tags: reviewTags,
			Summary:  "Revoke the caller's review calendar link for the account: it answers 404 from then on (viewer or above)",
			Security: secured, Errors: accountErrors, DefaultStatus: http.StatusNoContent}, handle(asmts.revokeCalendar)},
		{huma.Operation{OperationID: "get-review-calendar-feed", Method: http.MethodGet, Path: assessments.CalendarFeedPath, Tags: reviewTags,
			Summary:  "The reviews due of an account as an iCalendar feed (RFC 5545); the link's key is the credential",
			Security: public, Errors: []int{http.StatusNotFound},
			Responses: map[string]*huma.Response{"200": {Description: "OK", Content: map[string]*huma.MediaType{
				"text/calendar": {Schema: &huma.Schema{Type: huma.TypeString}}}}}}, handle(asmts.calendarFeed)},
		{huma.Operation{OperationID: "get-review-policy", Method: http.MethodGet, Path: "/review-policy", Tags: reviewTags,
			Summary:  "The account's review policy: cadence per tier, reminder offsets, weekly overdue reminders (viewer or above)",
			Security: secured, Errors: accountErrors}, handle(asmts.reviewPolicy)},
		{huma.Operation{OperationID: "put-review-policy", Method: http.MethodPut, Path: "/review-policy", Tags: reviewTags,
			Summary:  "Change the account's review policy (admin or owner); omitted values keep theirs, and every due date moves with it",
			Security: secured, Errors: accountErrors}, handle(asmts.putReviewPolicy)},

		// Assessments (assessments.go); POST and PUT both create or update.
		{huma.Operation{OperationID: "list-assessments", Method: http.MethodGet, Path: "/vendor-assessments", Tags: assessmentTags,
			Summary: "The assessments of a list (viewer or above)", Security: secured, Errors: accountErrors}, handle(asmts.listAssessments)},
		{huma.Operation{OperationID: "post-assessment", Method: http.MethodPost, Path: "/vendor-assessments", Tags: assessmentTags,
			Summary: upsertSummary, Security: secured, Errors: writeErrors, Responses: upsertResponses}, handle(asmts.upsertAssessment)},
		{huma.Operation{OperationID: "put-assessment", Method: http.MethodPut, Path: "/vendor-assessments", Tags: assessmentTags,
			Summary: upsertSummary, Security: secured, Errors: writeErrors, Responses: upsertResponses}, handle(asmts.upsertAssessment)},
		{huma.Operation{OperationID: "delete-assessment", Method: http.MethodDelete, Path: "/vendor-assessments", Tags: assessmentTags,
			Summary: "Delete an assessment with its audit log and documents (member or above)", Security: secured, Errors: accountErrors}, handle(asmts.deleteAssessment)},
		{huma.Operation{OperationID: "get-assessment-audit-log", Method: http.MethodGet, Path: "/vendor-assessments/audit-log", Tags: assessmentTags,
			Summary: "The approval audit of an assessment, newest first (viewer or above)", Security: secured, Errors: accountErrors}, handle(asmts.auditLog)},

		// Evidence documents (documents.go).
		{huma.Operation{OperationID: "list-documents", Method: http.MethodGet, Path: "/vendor-assessments/documents", Tags: documentTags,
			Summary: "The documents of an assessment (viewer or above)", Security: secured, Errors: accountErrors}, handle(asmts.listDocuments)},
		{huma.Operation{OperationID: "get-document-upload-url", Method: http.MethodGet, Path: "/vendor-assessments/documents/upload-url", Tags: documentTags,
			Summary: "A presigned upload for a new document (member or above)",
			Description: "Send the file to upload_url with method and headers before expires_at (15 minutes). The URL stores one file, once: " +
				"a second upload to it is refused (409 on the embedded store, 412 on S3) and the first file stays as it was. " +
				"The signed request binds the content type; the 25 MB cap is enforced by the embedded store as the file arrives and, on S3, " +
				"when the service first sees the file (a larger one is deleted and the document stays pending). " +
				"Once stored, the document records the file's size and SHA-256 and the assessment's audit log records the upload.",
			Security: secured, Errors: accountErrors}, handle(asmts.uploadURL)},
		{huma.Operation{OperationID: "get-document-download-url", Method: http.MethodGet, Path: "/vendor-assessments/documents/download-url", Tags: documentTags,
			Summary:     "A presigned download URL of an uploaded document (viewer or above)",
			Description: "The URL is valid for 5 minutes. It answers 404 once the document is deleted.",
			Security:    secured, Errors: accountErrors}, handle(asmts.downloadURL)},
		{huma.Operation{OperationID: "delete-document", Method: http.MethodDelete, Path: "/vendor-assessments/documents", Tags: documentTags,
			Summary: "Remove a document and its file (member or above)",
			Description: "The file is deleted before the answer, so download URLs issued earlier answer 404 from then on " +
				"(if the file store cannot be reached, the file is deleted later and no URL is issued for it again). The audit log records the removal.",
			Security: secured, Errors: accountErrors}, handle(asmts.deleteDocument)},

		// Subscribers: incident alerts of a list (alertsHandler,
		// subscribers.go).
		{huma.Operation{OperationID: "list-subscribers", Method: http.MethodGet, Path: "/subscribers", Tags: subscriberTags,
			Summary: "The alert subscribers of a list with their state (viewer or above)", Security: secured, Errors: accountErrors}, handle(alerts.listSubscribers)},
		{huma.Operation{OperationID: "add-subscribers", Method: http.MethodPost, Path: "/subscribers", Tags: subscriberTags,
			Summary:       "Subscribe addresses to a list's incident alerts (member or above)",
			Description:   "A verified member of the account is confirmed at once; anyone else stays pending and gets a confirmation mail.",
			DefaultStatus: http.StatusCreated, Security: secured, Errors: accountErrors}, handle(alerts.addSubscribers)},
		{huma.Operation{OperationID: "remove-subscribers", Method: http.MethodDelete, Path: "/subscribers", Tags: subscriberTags,
			Summary: "Unsubscribe addresses from a list, named in subscriber-email in the body or the query (member or above)", Security: secured, Errors: accountErrors}, handle(alerts.removeSubscribers)},

		// Contracts (contractsHandler, contracts.go).
		{huma.Operation{OperationID: "list-contracts", Method: http.MethodGet, Path: "/contracts", Tags: contractTags,
			Summary: "The account's contracts, with notice deadline and state (viewer or above)", Security: secured, Errors: accountErrors}, handle(cons.listContracts)},
		{huma.Operation{OperationID: "create-contract", Method: http.MethodPost, Path: "/contracts", Tags: contractTags,
			Summary: "Record a contract with a vendor on one of the account's lists (member or above)", DefaultStatus: http.StatusCreated,
			Security: secured, Errors: writeErrors}, handle(cons.createContract)},
		{huma.Operation{OperationID: "patch-contract", Method: http.MethodPatch, Path: "/contracts", Tags: contractTags,
			Summary:  "Change a contract with a JSON merge patch (member or above); a contract as GET returned it is accepted",
			Security: secured, Errors: writeErrors,
			RequestBody: &huma.RequestBody{Content: map[string]*huma.MediaType{
				"application/merge-patch+json": {Schema: &huma.Schema{Type: "object", AdditionalProperties: true}},
			}}}, handle(cons.patchContract)},
		{huma.Operation{OperationID: "delete-contract", Method: http.MethodDelete, Path: "/contracts", Tags: contractTags,
			Summary: "Delete a contract (member or above)", DefaultStatus: http.StatusNoContent, Security: secured, Errors: accountErrors}, handle(cons.deleteContract)},

		// Webhooks (webhooksHandler, webhooks.go).
		{huma.Operation{OperationID: "list-webhooks", Method: http.MethodGet, Path: "/webhooks", Tags: webhookTags,
			Summary: "The account's webhook endpoints, without secrets (viewer or above)", Security: secured, Errors: accountErrors}, handle(hooks.listWebhooks)},
		{huma.Operation{OperationID: "create-webhook", Method: http.MethodPost, Path: "/webhooks", Tags: webhookTags,
			Summary:     "Register a webhook endpoint; the answer shows its secret, once (admin or owner)",
			Description: webhookSigning, DefaultStatus: http.StatusCreated, Security: secured, Errors: accountErrors}, handle(hooks.createWebhook)},
		{huma.Operation{OperationID: "delete-webhook", Method: http.MethodDelete, Path: "/webhooks", Tags: webhookTags,
			Summary: "Delete a webhook endpoint with its delivery log (admin or owner)", DefaultStatus: http.StatusNoContent,
			Security: secured, Errors: accountErrors}, handle(hooks.deleteWebhook)},
		{huma.Operation{OperationID: "list-webhook-deliveries", Method: http.MethodGet, Path: "/webhooks/deliveries", Tags: webhookTags,
			Summary: "An endpoint's delivery attempts, newest first: status, duration, next retry (viewer or above)", Security: secured, Errors: accountErrors}, handle(hooks.deliveries)},
		{huma.Operation{OperationID: "test-webhook", Method: http.MethodPost, Path: "/webhooks/test", Tags: webhookTags,
			Summary:       "Send a ping event (webhook.ping) to an endpoint (admin or owner)",
			Description:   "The ping is queued and delivered as every event is; the delivery log shows how it went.",
			DefaultStatus: http.StatusAccepted, Security: secured, Errors: accountErrors}, handle(hooks.testWebhook)},

		// Vendor records: what an account holds on a vendor, shared by its
		// lists (recordsHandler, records.go).
		{huma.Operation{OperationID: "get-vendor-record", Method: http.MethodGet, Path: "/vendor-records", Tags: recordTags,
			Summary: "The account's record of a vendor: business owner, contacts, links and notes (viewer or above)",
			Description: "One record per vendor per account, shared by all its lists. The vendor must be on a list of the account (404 otherwise); " +
				"a vendor never edited answers the empty record (no owner, no contacts, empty links, no notes, updated_at null).",
			Security: secured, Errors: accountErrors}, handle(recs.getRecord)},
		{huma.Operation{OperationID: "patch-vendor-record", Method: http.MethodPatch, Path: "/vendor-records", Tags: recordTags,
			Summary: "Edit the account's record of a vendor with a JSON merge patch (member or above)",
			Description: "Body: `{\"business_owner\": ..., \"contacts\": [...], \"links\": {...}}`; null clears a value. " +
				"business_owner is the e-mail of a member of the account (any role, case-insensitive); contacts replace the whole list " +
				"(at most " + strconv.Itoa(records.MaxContacts) + ", each with a name, a valid email and a role: security, privacy, account or legal); links merge key by key " +
				"(trust_page, dpa, terms, sla: http or https URLs, or empty). A bad value is 422 naming it (body.contacts[1].email). " +
				"account_id, vendor_id, notes, updated_at and updated_by are read-only: they may be sent back as GET answered them and are ignored. " +
				"Every change sets updated_at and updated_by.",
			Security: secured,
			Errors:   accountErrors,
			RequestBody: &huma.RequestBody{Content: map[string]*huma.MediaType{
				"application/merge-patch+json": {Schema: &huma.Schema{Type: "object", AdditionalProperties: true}},
			}}}, handle(recs.patchRecord)},
		{huma.Operation{OperationID: "add-vendor-record-note", Method: http.MethodPost, Path: "/vendor-records/notes", Tags: recordTags,
			Summary: "Append a note to the account's record of a vendor (member or above); an @email mention of a member mails them once",
			Description: "text is plain text, 1 to " + strconv.Itoa(records.MaxNoteLength) + " characters after trimming (line breaks kept). Each member of the account the text mentions " +
				"as @name@example.com is mailed once per note, the author and non-members never. The answer is the note; the record's updated_at " +
				"and updated_by change with it.",
			DefaultStatus: http.StatusCreated, Security: secured, Errors: accountErrors}, handle(recs.addNote)},

		// Dashboard (assessmentsHandler, dashboard.go).
		{huma.Operation{OperationID: "get-dashboard-metrics", Method: http.MethodGet, Path: "/metrics/dashboard", Tags: dashboardTags,
			Summary: "Counts for the dashboard: vendors, followed vendors, active assessments (viewer or above)", Security: secured, Errors: accountErrors}, handle(asmts.dashboardMetrics)},
		{huma.Operation{OperationID: "get-recent-incidents", Method: http.MethodGet, Path: "/metrics/recent-incidents", Tags: dashboardTags,
			Summary: "The newest incidents of the vendors the account follows, newest first (viewer or above)", Security: secured, Errors: accountErrors}, handle(asmts.recentIncidents)},
		{huma.Operation{OperationID: "get-vendors-from-list", Method: http.MethodGet, Path: "/metrics/vendors-from-list", Tags: dashboardTags,
			Summary: "The vendors of a list (default master-list) with their logo and latest incident (viewer or above)", Security: secured, Errors: accountErrors}, handle(asmts.vendorsFromList)},

		// Incidents of platform-wide sources (incidentsHandler,
		// incidents.go): an account's incidents and the platform admins'
		// possible matches. /incidents/possible is a static segment where no
		// operation has a parameter, so chi routing needs no constraint.
		{huma.Operation{OperationID: "list-incidents", Method: http.MethodGet, Path: "/incidents", Tags: incidentTags,
			Summary: "The incidents of the vendors the account follows, newest first, with their evidence (viewer or above)",
			Description: "Every list of the account, or one with vendor-list-id. source and severity filter (repeat them or separate values with commas; " +
				"an unknown value is 422); a source keeps the incidents with an item of that source merged into them, so status-page, feed and " +
				"manual incidents pass no source filter. Pages by published_at, then created_at, then id, newest first: next_cursor is set while more follow.",
			Security: secured, Errors: accountErrors}, handle(incs.accountIncidents)},
		{huma.Operation{Metadata: platformAdminOnly, OperationID: "list-possible-matches", Method: http.MethodGet, Path: "/incidents/possible", Tags: incidentTags,
			Summary:     "Items that named a directory vendor without enough evidence, for a platform admin to confirm or dismiss (platform admins)",
			Description: "Newest first, of one status: pending (default), confirmed or dismissed. incident is the draft a confirmation makes.",
			Security:    secured, Errors: accountErrors}, handle(incs.possibleMatches)},
		{huma.Operation{Metadata: platformAdminOnly, OperationID: "confirm-possible-match", Method: http.MethodPost, Path: "/incidents/possible/{id}/confirm", Tags: incidentTags,
			Summary:     "Make a pending possible match the vendor's incident (platform admins); it alerts as any new incident",
			Description: "The draft is merged into the incident of the same event when there is one (then nothing alerts again). 409 when the match was decided already.",
			Security:    secured, Errors: writeErrors}, handle(incs.confirmPossible)},
		{huma.Operation{Metadata: platformAdminOnly, OperationID: "dismiss-possible-match", Method: http.MethodPost, Path: "/incidents/possible/{id}/dismiss", Tags: incidentTags,
			Summary: "Close a pending possible match without an incident (platform admins); 409 when it was decided already", Security: secured, Errors: writeErrors}, handle(incs.dismissPossible)},

		// Attestations (attestationsHandler, attestations.go): an account's
		// own on a vendor, and the directory's, shared with every account.
		{huma.Operation{OperationID: "list-attestations", Method: http.MethodGet, Path: "/attestations", Tags: attestationTags,
			Summary:  "The account's attestations on a vendor and the directory's, with valid_until and state derived today (viewer or above)",
			Security: secured, Errors: accountErrors}, handle(attests.listAttestations)},
		{huma.Operation{OperationID: "create-attestation", Method: http.MethodPost, Path: "/attestations", Tags: attestationTags,
			Summary:       "Record an attestation on a vendor on one of the account's lists; the answer carries the write-once upload of its file (member or above)",
			Description:   "The record exists before its file: has_file turns true once the upload is stored. A field of another kind, a missing required field or a value outside its enum is 422 naming the field.",
			DefaultStatus: http.StatusCreated, Security: secured, Errors: accountErrors}, handle(attests.createAttestation)},
		{huma.Operation{OperationID: "delete-attestation", Method: http.MethodDelete, Path: "/attestations", Tags: attestationTags,
			Summary: "Delete one of the account's attestations with its file (member or above); a directory attestation is 403", DefaultStatus: http.StatusNoContent,
			Security: secured, Errors: accountErrors}, handle(attests.deleteAttestation)},
		{huma.Operation{OperationID: "get-attestation-download-url", Method: http.MethodGet, Path: "/attestations/download-url", Tags: attestationTags,
			Summary:  "A short-lived download URL of an attestation's file, the account's own or the directory's (viewer or above); 409 before its upload",
			Security: secured, Errors: writeErrors}, handle(attests.attestationDownload)},
		{huma.Operation{Metadata: platformAdminOnly, OperationID: "create-directory-attestation", Method: http.MethodPost, Path: "/directory/attestations", Tags: attestationTags,
			Summary:       "Record a directory attestation on a vendor, shown to every account (platform admins)",
			Description:   "The vendor's public trust documents. The answer carries the write-once upload of its file, as create-attestation's does.",
			DefaultStatus: http.StatusCreated, Security: secured, Errors: directoryErrors}, handle(attests.createDirectoryAttestation)},
		{huma.Operation{Metadata: platformAdminOnly, OperationID: "delete-directory-attestation", Method: http.MethodDelete, Path: "/directory/attestations", Tags: attestationTags,
			Summary: "Delete a directory attestation with its file (platform admins)", DefaultStatus: http.StatusNoContent,
			Security: secured, Errors: directoryErrors}, handle(attests.deleteDirectoryAttestation)},

		// Ratings (ratingsHandler, ratings.go).
		{huma.Operation{OperationID: "get-vendor-rating-history", Method: http.MethodGet, Path: "/vendor/{id_or_name}/rating-history",
			Tags: vendorTags, Summary: "A vendor's rating history: every scan's rating, grade and findings, and the changes that mattered, newest first",
			Security: secured, Errors: directoryErrors}, handle(ratings.ratingHistory)},
		{huma.Operation{OperationID: "get-recent-rating-changes", Method: http.MethodGet, Path: "/metrics/recent-rating-changes",
			Tags: dashboardTags, Security: secured, Errors: accountErrors,
			Summary: "The newest rating changes that mattered (grade drop, new critical or high finding, certificate expiring) of the vendors the account follows, newest first (viewer or above)"}, handle(ratings.recentRatingChanges)},
	}
}

// uuidPattern is a run id as the API writes it (and as path.run_id's
// format: uuid declares it).
const uuidPattern = `^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`

// constrainedRoutes are the operation paths chi matches only when a
// parameter has a given form, so that a path another operation also
// matches goes to that one. /vendor/enrich/{run_id} and
// /vendor/{id_or_name}/incidents (or /security-instances) both match
// /vendor/enrich/incidents, and chi prefers the static segment: the run
// route now matches only a UUID, so every vendor name is reachable,
// "enrich" included (GET /vendor/enrich/incidents is the incidents of the
// vendor named enrich). No vendor route has a UUID where the run route
// has its run_id, so no run is hidden either.
var constrainedRoutes = map[string]string{
	"/vendor/enrich/{run_id}": "/vendor/enrich/{run_id:" + uuidPattern + "}",
}

// routePatterns maps each constrained chi pattern back to the operation's
// path, the route label of logs and metrics.
var routePatterns = func() map[string]string {
	m := make(map[string]string, len(constrainedRoutes))
	for path, pattern := range constrainedRoutes {
		m[pattern] = path
	}
	return m
}()

// routeAdapter is huma's chi adapter, registering constrained routes with
// their chi pattern (the OpenAPI document keeps the plain path).
type routeAdapter struct {
	huma.Adapter
	router chi.Router
}

func newRouteAdapter(r chi.Router) routeAdapter {
	return routeAdapter{Adapter: humachi.NewAdapter(r), router: r}
}

// Handle registers op on the router.
func (a routeAdapter) Handle(op *huma.Operation, handler func(huma.Context)) {
	pattern, ok := constrainedRoutes[op.Path]
	if !ok {
		a.Adapter.Handle(op, handler)
		return
	}
	a.router.MethodFunc(op.Method, pattern, func(w http.ResponseWriter, r *http.Request) {
		handler(humachi.NewContext(op, r, w))
	})
}
