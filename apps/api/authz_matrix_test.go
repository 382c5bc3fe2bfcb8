package api_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// The authorization matrix runs every operation of the API, as the OpenAPI
// document lists them, as every kind of caller, against records of the
// caller's own account and of another account, and checks the status
// against one table keyed by operation id. An operation without a row fails
// the test, so a new route cannot ship without its access rule.

// callers, in the order of the report.
var matrixCallers = []string{
	"no token", "bad signature", "expired", "unverified e-mail",
	"viewer", "member", "admin", "owner",
	"platform admin, not a member", "member of another account",
}

// policy says who may call an operation.
type policy int

const (
	public       policy = iota // no token needed
	anyUser                    // any authenticated caller (the global directory)
	platformOnly               // platform admins (the Admins group)
	viewerUp                   // account-scoped read
	memberUp                   // account-scoped write
	managerUp                  // member management: owner or admin
)

var policyRank = map[policy]int{viewerUp: 1, memberUp: 2, managerUp: 3}

// tenant is one organization with records every operation can point at.
type tenant struct {
	id, owner            string // account id, owner's token
	master, second       string // list ids
	vendor, vendorName   string // a vendor on master-list
	assessment, document string // an assessment with an uploaded document
	webhook              string // a webhook endpoint
	attestation          string // an attestation with its file uploaded
}

// matrixHook registers a webhook endpoint in tn as its owner. The URL does
// not resolve (.invalid), so a ping queued to it fails fast and offline.
func matrixHook(t *testing.T, w *matrixWorld, tn *tenant) string {
	r := apitest.Must(t, w.env.Do(t, "POST", q("/webhooks", "account-id", tn.id), tn.owner,
		map[string]any{"url": "https://hooks.invalid/" + w.unique("hook"), "events": []string{"incident.created"}}), 201)
	return r.Map(t)["id"].(string)
}

// matrixContractBody is a contract with tn's vendor.
func matrixContractBody(tn *tenant) map[string]any {
	return map[string]any{"vendor_id": tn.vendor, "start_date": "2026-01-01", "end_date": "2026-12-31"}
}

// pickTenant is pick for tenants.
func pickTenant(other bool, a, b *tenant) *tenant {
	if other {
		return b
	}
	return a
}

// matrixContract records a contract in tn as its owner.
func matrixContract(t *testing.T, w *matrixWorld, tn *tenant) string {
	r := apitest.Must(t, w.env.Do(t, "POST", q("/contracts", "account-id", tn.id), tn.owner, matrixContractBody(tn)), 201)
	return r.Map(t)["id"].(string)
}

// matrixWorld is the environment of the matrix: the callers are members of
// A (one per role, plus one whose e-mail is not verified), a stranger owns B.
type matrixWorld struct {
	env    *apitest.Env
	a, b   *tenant
	tokens map[string]string
	admin  string // platform admin token
	seq    atomic.Int64
}

func (w *matrixWorld) unique(prefix string) string {
	return fmt.Sprintf("%s-%d", prefix, w.seq.Add(1))
}

// request is one call of an operation.
type request struct {
	method, path string
	body         any
}

// matrixRow is the rule of one operation and how to call it. build returns a
// valid request acting in home; with other set it points at records of
// foreign instead (or, for operations that name only the account, at
// foreign's account), which answers otherStatus to a caller who may act
// in home.
type matrixRow struct {
	policy      policy
	otherStatus int
	build       func(t *testing.T, w *matrixWorld, home, foreign *tenant, other bool) request
}

func q(path string, kv ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return path + "?" + v.Encode()
}

// pick returns a when other is false, else b.
func pick(other bool, a, b string) string {
	if other {
		return b
	}
	return a
}

func matrixRows() map[string]matrixRow {
	listsOf := func(home, foreign *tenant, other bool) (acct, list string) {
		return home.id, pick(other, home.master, foreign.master)
	}
	return map[string]matrixRow{
		"healthz": {policy: public, build: func(*testing.T, *matrixWorld, *tenant, *tenant, bool) request {
			return request{method: "GET", path: "/healthz"}
		}},
		"readyz": {policy: public, build: func(*testing.T, *matrixWorld, *tenant, *tenant, bool) request {
			return request{method: "GET", path: "/readyz"}
		}},

		// The global directory: any authenticated caller.
		"list-vendors": {policy: anyUser, build: func(*testing.T, *matrixWorld, *tenant, *tenant, bool) request {
			return request{method: "GET", path: "/vendors/all"}
		}},
		"get-vendor": {policy: anyUser, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "GET", path: "/vendor/" + pick(other, home.vendor, foreign.vendor)}
		}},
		"get-vendor-security-instances": {policy: anyUser, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "GET", path: "/vendor/" + pick(other, home.vendor, foreign.vendor) + "/security-instances"}
		}},
		"get-vendor-rating-history": {policy: anyUser, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "GET", path: "/vendor/" + pick(other, home.vendor, foreign.vendor) + "/rating-history"}
		}},
		"get-vendor-incidents": {policy: anyUser, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "GET", path: "/vendor/" + pick(other, home.vendorName, foreign.vendorName) + "/incidents"}
		}},
		"list-accounts": {policy: anyUser, build: func(*testing.T, *matrixWorld, *tenant, *tenant, bool) request {
			return request{method: "GET", path: "/accounts"}
		}},

		// Platform admins only.
		"create-account": {policy: platformOnly, build: func(_ *testing.T, w *matrixWorld, _, _ *tenant, _ bool) request {
			return request{method: "POST", path: "/accounts", body: map[string]any{"account": w.unique("Matrix Org"), "users": []string{w.unique("o") + "@new.test"}}}
		}},
		"restore-account-owner": {policy: platformOnly, build: func(_ *testing.T, w *matrixWorld, home, _ *tenant, _ bool) request {
			return request{method: "POST", path: q("/accounts/owner", "account-id", home.id),
				body: map[string]any{"email": w.unique("restored") + "@matrix.test", "reason": "the owner left"}}
		}},
		"delete-accounts": {policy: platformOnly, build: func(t *testing.T, w *matrixWorld, _, _ *tenant, _ bool) request {
			id := w.env.NewAccount(t, w.unique("Doomed Org"), w.unique("d")+"@doomed.test")
			return request{method: "DELETE", path: q("/accounts", "account_id", id)}
		}},
		"enrich-vendors": {policy: platformOnly, build: func(_ *testing.T, w *matrixWorld, _, _ *tenant, _ bool) request {
			return request{method: "POST", path: "/vendor/enrich", body: map[string]any{"vendors": []string{w.unique("Enriched Vendor")}}}
		}},
		"get-enrich-run": {policy: platformOnly, build: func(t *testing.T, w *matrixWorld, _, _ *tenant, _ bool) request {
			run := apitest.Must(t, w.env.Do(t, "POST", "/vendor/enrich", w.admin, map[string]any{"vendors": []string{w.unique("Run Vendor")}}), 202).Map(t)
			return request{method: "GET", path: "/vendor/enrich/" + run["run_id"].(string)}
		}},
		"patch-vendor": {policy: platformOnly, build: func(_ *testing.T, _ *matrixWorld, home, _ *tenant, _ bool) request {
			return request{method: "PATCH", path: "/vendor/" + home.vendor, body: map[string]any{"company": map[string]any{"industry": "Software"}}}
		}},
		"delete-vendor": {policy: platformOnly, build: func(t *testing.T, w *matrixWorld, _, _ *tenant, _ bool) request {
			name := w.unique("Profiled Vendor")
			apitest.Must(t, w.env.Do(t, "POST", "/vendor/enrich", w.admin, map[string]any{"vendors": []string{name}}), 202)
			apitest.Must(t, w.env.Do(t, "PATCH", "/vendor/"+url.PathEscape(name), w.admin, map[string]any{"company": map[string]any{"industry": "x"}}), 200)
			return request{method: "DELETE", path: "/vendor/" + url.PathEscape(name)}
		}},
		"record-vendor-incident": {policy: platformOnly, build: func(_ *testing.T, w *matrixWorld, home, _ *tenant, _ bool) request {
			return request{method: "POST", path: "/vendor/" + home.vendor + "/incidents", body: map[string]any{"title": w.unique("Incident"), "backfilled": true}}
		}},
		"start-incident-backfill": {policy: platformOnly, build: func(_ *testing.T, _ *matrixWorld, home, _ *tenant, _ bool) request {
			return request{method: "POST", path: "/vendors/incident-backfill", body: map[string]any{"vendors": []string{home.vendorName}}}
		}},
		"list-possible-matches": {policy: platformOnly, build: func(*testing.T, *matrixWorld, *tenant, *tenant, bool) request {
			return request{method: "GET", path: "/incidents/possible"}
		}},
		"confirm-possible-match": {policy: platformOnly, build: func(t *testing.T, w *matrixWorld, home, _ *tenant, _ bool) request {
			id := seedPossible(t, w.env, home.vendor, home.vendorName, w.unique("Possible"), w.env.Clock.Now())
			return request{method: "POST", path: "/incidents/possible/" + id + "/confirm"}
		}},
		"dismiss-possible-match": {policy: platformOnly, build: func(t *testing.T, w *matrixWorld, home, _ *tenant, _ bool) request {
			id := seedPossible(t, w.env, home.vendor, home.vendorName, w.unique("Possible"), w.env.Clock.Now())
			return request{method: "POST", path: "/incidents/possible/" + id + "/dismiss"}
		}},
		"get-incident-backfill": {policy: platformOnly, build: func(t *testing.T, w *matrixWorld, home, _ *tenant, _ bool) request {
			run := apitest.Must(t, w.env.Do(t, "POST", "/vendors/incident-backfill", w.admin, map[string]any{"vendors": []string{home.vendorName}}), 202).Map(t)
			return request{method: "GET", path: "/vendors/incident-backfill/" + run["run_id"].(string)}
		}},

		// Members and roles.
		"list-users": {policy: viewerUp, otherStatus: 403, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "GET", path: q("/users", "account-id", pick(other, home.id, foreign.id))}
		}},
		"add-users": {policy: managerUp, otherStatus: 403, build: func(_ *testing.T, w *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "POST", path: q("/users", "account-id", pick(other, home.id, foreign.id)),
				body: map[string]any{"users": []map[string]string{{"email": w.unique("added") + "@m.test", "role": "viewer"}}}}
		}},
		"change-user-roles": {policy: managerUp, otherStatus: 403, build: func(t *testing.T, w *matrixWorld, home, foreign *tenant, other bool) request {
			email := w.unique("rerole") + "@m.test"
			w.env.AddMember(t, home.id, home.owner, email, "viewer")
			return request{method: "PATCH", path: q("/users", "account-id", pick(other, home.id, foreign.id)),
				body: map[string]any{"users": []map[string]string{{"email": email, "role": "member"}}}}
		}},
		"remove-users": {policy: managerUp, otherStatus: 403, build: func(t *testing.T, w *matrixWorld, home, foreign *tenant, other bool) request {
			email := w.unique("gone") + "@m.test"
			w.env.AddMember(t, home.id, home.owner, email, "viewer")
			return request{method: "DELETE", path: q("/users", "account-id", pick(other, home.id, foreign.id)),
				body: map[string]any{"users": []string{email}}}
		}},

		// The review lifecycle.
		"get-review-policy": {policy: viewerUp, otherStatus: 403, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "GET", path: q("/review-policy", "account-id", pick(other, home.id, foreign.id))}
		}},
		"put-review-policy": {policy: managerUp, otherStatus: 403, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "PUT", path: q("/review-policy", "account-id", pick(other, home.id, foreign.id)),
				body: map[string]any{"overdue_repeat_weekly": true}}
		}},

		"get-review-calendar": {policy: viewerUp, otherStatus: 403, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "GET", path: q("/review-calendar", "account-id", pick(other, home.id, foreign.id))}
		}},
		"delete-review-calendar": {policy: viewerUp, otherStatus: 403, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "DELETE", path: q("/review-calendar", "account-id", pick(other, home.id, foreign.id))}
		}},
		"get-review-calendar-feed": {policy: public, build: func(t *testing.T, w *matrixWorld, home, _ *tenant, _ bool) request {
			link := apitest.Must(t, w.env.Do(t, "GET", q("/review-calendar", "account-id", home.id), home.owner, nil), 200).Map(t)["url"].(string)
			return request{method: "GET", path: strings.TrimPrefix(link, w.env.URL)}
		}},
		"export-vendor-list": {policy: viewerUp, otherStatus: 404, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			acct, list := listsOf(home, foreign, other)
			return request{method: "GET", path: q("/vendor-lists/export", "account-id", acct, "vendor-list-id", list, "format", "csv")}
		}},

		// Vendor lists.
		"get-vendor-lists": {policy: viewerUp, otherStatus: 404, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			acct, list := listsOf(home, foreign, other)
			return request{method: "GET", path: q("/vendor-lists", "account-id", acct, "vendor-list-id", list)}
		}},
		"post-vendor-lists": {policy: memberUp, otherStatus: 404, build: func(_ *testing.T, w *matrixWorld, home, foreign *tenant, other bool) request {
			acct, list := listsOf(home, foreign, other)
			return request{method: "POST", path: q("/vendor-lists", "account-id", acct, "operation", "import-csv", "vendor-list-id", list),
				body: map[string]any{"csv": "vendor_name,product_name\n" + home.vendorName + "," + w.unique("Product") + "\n"}}
		}},
		"patch-vendor-lists": {policy: memberUp, otherStatus: 404, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			acct, list := listsOf(home, foreign, other)
			return request{method: "PATCH", path: q("/vendor-lists", "account-id", acct, "operation", "alerts-enabled", "vendor-list-id", list),
				body: map[string]any{"vendor-id": pick(other, home.vendor, foreign.vendor), "alerts_enabled": true}}
		}},
		"delete-vendor-list": {policy: memberUp, otherStatus: 404, build: func(t *testing.T, w *matrixWorld, home, foreign *tenant, other bool) request {
			doomed := func(tn *tenant) string {
				return apitest.Must(t, w.env.Do(t, "POST", q("/vendor-lists", "account-id", tn.id, "vendor-list", w.unique("Doomed")), tn.owner, nil), 201).Map(t)["id"].(string)
			}
			list := doomed(home)
			if other {
				list = doomed(foreign)
			}
			return request{method: "DELETE", path: q("/vendor-lists", "account-id", home.id, "vendor-list-id", list)}
		}},
		"add-product": {policy: memberUp, otherStatus: 404, build: func(_ *testing.T, w *matrixWorld, home, foreign *tenant, other bool) request {
			list, v := home.master, home.vendor
			if other {
				list, v = foreign.master, foreign.vendor
			}
			return request{method: "POST", path: q("/vendor-lists/"+list+"/vendors/"+v+"/products", "account-id", home.id),
				body: map[string]any{"product_name": w.unique("Product")}}
		}},

		// Assessments, audit and evidence.
		"list-assessments": {policy: viewerUp, otherStatus: 404, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			acct, list := listsOf(home, foreign, other)
			return request{method: "GET", path: q("/vendor-assessments", "account-id", acct, "vendor-list-id", list)}
		}},
		"post-assessment": {policy: memberUp, otherStatus: 404, build: func(_ *testing.T, w *matrixWorld, home, foreign *tenant, other bool) request {
			acct, list := listsOf(home, foreign, other)
			return request{method: "POST", path: q("/vendor-assessments", "account-id", acct, "vendor-list-id", list),
				body: map[string]any{"vendor_name": home.vendorName, "use_case": w.unique("use")}}
		}},
		"put-assessment": {policy: memberUp, otherStatus: 404, build: func(_ *testing.T, w *matrixWorld, home, foreign *tenant, other bool) request {
			acct, list := listsOf(home, foreign, other)
			return request{method: "PUT", path: q("/vendor-assessments", "account-id", acct, "vendor-list-id", list),
				body: map[string]any{"vendor_id": home.vendor, "compliance_comment": w.unique("comment")}}
		}},
		"delete-assessment": {policy: memberUp, otherStatus: 404, build: func(t *testing.T, w *matrixWorld, home, foreign *tenant, other bool) request {
			tn := home
			if other {
				tn = foreign
			}
			// Upserting puts the vendor on the list: 201 the first time, 200
			// when a refused delete left the assessment in place.
			res := w.env.Do(t, "POST", q("/vendor-assessments", "account-id", tn.id, "vendor-list-id", tn.second), tn.owner,
				map[string]any{"vendor_name": tn.vendorName})
			if res.Status/100 != 2 {
				t.Fatalf("assessment to delete: %d %s", res.Status, res.Body)
			}
			id := res.Map(t)["id"].(string)
			return request{method: "DELETE", path: q("/vendor-assessments", "account-id", home.id, "assessment-id", id)}
		}},
		"get-assessment-audit-log": {policy: viewerUp, otherStatus: 404, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "GET", path: q("/vendor-assessments/audit-log", "account-id", home.id, "assessment-id", pick(other, home.assessment, foreign.assessment))}
		}},
		"list-documents": {policy: viewerUp, otherStatus: 404, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "GET", path: q("/vendor-assessments/documents", "account-id", home.id, "assessment-id", pick(other, home.assessment, foreign.assessment))}
		}},
		"get-document-upload-url": {policy: memberUp, otherStatus: 404, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			acct, list := listsOf(home, foreign, other)
			return request{method: "GET", path: q("/vendor-assessments/documents/upload-url", "account-id", acct, "vendor-list-id", list,
				"assessment-id", pick(other, home.assessment, foreign.assessment), "file-name", "evidence.pdf", "content-type", "application/pdf")}
		}},
		"get-document-download-url": {policy: viewerUp, otherStatus: 404, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "GET", path: q("/vendor-assessments/documents/download-url", "account-id", home.id, "document-id", pick(other, home.document, foreign.document))}
		}},
		"delete-document": {policy: memberUp, otherStatus: 404, build: func(t *testing.T, w *matrixWorld, home, foreign *tenant, other bool) request {
			tn := home
			if other {
				tn = foreign
			}
			var up uploadTicket
			apitest.Must(t, w.env.Do(t, "GET", q("/vendor-assessments/documents/upload-url", "account-id", tn.id, "vendor-list-id", tn.master,
				"assessment-id", tn.assessment, "file-name", w.unique("doomed")+".pdf", "content-type", "application/pdf"), tn.owner, nil), 200).JSON(t, &up)
			return request{method: "DELETE", path: q("/vendor-assessments/documents", "account-id", home.id, "document-id", up.DocumentID)}
		}},

		// Contracts: viewers read them, members and above write them.
		"list-contracts": {policy: viewerUp, otherStatus: 403, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "GET", path: q("/contracts", "account-id", pick(other, home.id, foreign.id))}
		}},
		"create-contract": {policy: memberUp, otherStatus: 403, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "POST", path: q("/contracts", "account-id", pick(other, home.id, foreign.id)), body: matrixContractBody(pickTenant(other, home, foreign))}
		}},
		"patch-contract": {policy: memberUp, otherStatus: 404, build: func(t *testing.T, w *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "PATCH", path: q("/contracts", "account-id", home.id, "contract-id", matrixContract(t, w, pickTenant(other, home, foreign))),
				body: map[string]any{"reference": "patched"}}
		}},
		"delete-contract": {policy: memberUp, otherStatus: 404, build: func(t *testing.T, w *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "DELETE", path: q("/contracts", "account-id", home.id, "contract-id", matrixContract(t, w, pickTenant(other, home, foreign)))}
		}},
		// Attestations: viewers read, members write; the directory's are
		// the platform admins'.
		"list-attestations": {policy: viewerUp, otherStatus: 403, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "GET", path: q("/attestations", "account-id", pick(other, home.id, foreign.id), "vendor-id", home.vendor)}
		}},
		"create-attestation": {policy: memberUp, otherStatus: 403, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "POST", path: q("/attestations", "account-id", pick(other, home.id, foreign.id), "vendor-id", home.vendor),
				body: map[string]any{"kind": "insurance", "valid_until": "2027-01-01"}}
		}},
		"delete-attestation": {policy: memberUp, otherStatus: 404, build: func(t *testing.T, w *matrixWorld, home, foreign *tenant, other bool) request {
			tn := home
			if other {
				tn = foreign
			}
			id := apitest.Must(t, w.env.Do(t, "POST", q("/attestations", "account-id", tn.id, "vendor-id", tn.vendor), tn.owner,
				map[string]any{"kind": "other", "valid_until": "2027-01-01"}), 201).Map(t)["id"].(string)
			return request{method: "DELETE", path: q("/attestations", "account-id", home.id, "attestation-id", id)}
		}},
		"get-attestation-download-url": {policy: viewerUp, otherStatus: 404, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "GET", path: q("/attestations/download-url", "account-id", home.id, "attestation-id", pick(other, home.attestation, foreign.attestation))}
		}},
		"create-directory-attestation": {policy: platformOnly, build: func(_ *testing.T, _ *matrixWorld, home, _ *tenant, _ bool) request {
			return request{method: "POST", path: q("/directory/attestations", "vendor-id", home.vendor),
				body: map[string]any{"kind": "iso27001", "certificate_number": "C-1", "issuer": "BSI", "valid_until": "2027-01-01"}}
		}},
		"delete-directory-attestation": {policy: platformOnly, build: func(t *testing.T, w *matrixWorld, home, _ *tenant, _ bool) request {
			id := apitest.Must(t, w.env.Do(t, "POST", q("/directory/attestations", "vendor-id", home.vendor), w.admin,
				map[string]any{"kind": "other", "valid_until": "2027-01-01"}), 201).Map(t)["id"].(string)
			return request{method: "DELETE", path: q("/directory/attestations", "attestation-id", id)}
		}},

		// Webhooks: every member reads them, admins and owners manage them.
		"list-webhooks": {policy: viewerUp, otherStatus: 403, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "GET", path: q("/webhooks", "account-id", pick(other, home.id, foreign.id))}
		}},
		"create-webhook": {policy: managerUp, otherStatus: 403, build: func(_ *testing.T, w *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "POST", path: q("/webhooks", "account-id", pick(other, home.id, foreign.id)),
				body: map[string]any{"url": "https://hooks.invalid/" + w.unique("new"), "events": []string{"list.vendors_changed"}}}
		}},
		"delete-webhook": {policy: managerUp, otherStatus: 404, build: func(t *testing.T, w *matrixWorld, home, foreign *tenant, other bool) request {
			tn := home
			if other {
				tn = foreign
			}
			return request{method: "DELETE", path: q("/webhooks", "account-id", home.id, "webhook-id", matrixHook(t, w, tn))}
		}},
		"list-webhook-deliveries": {policy: viewerUp, otherStatus: 404, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "GET", path: q("/webhooks/deliveries", "account-id", home.id, "webhook-id", pick(other, home.webhook, foreign.webhook))}
		}},
		"test-webhook": {policy: managerUp, otherStatus: 404, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "POST", path: q("/webhooks/test", "account-id", home.id, "webhook-id", pick(other, home.webhook, foreign.webhook))}
		}},

		// Vendor records: viewers read, members write; another account's
		// vendor is not on this account's lists (404).
		"get-vendor-record": {policy: viewerUp, otherStatus: 404, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "GET", path: q("/vendor-records", "account-id", home.id, "vendor-id", pick(other, home.vendor, foreign.vendor))}
		}},
		"patch-vendor-record": {policy: memberUp, otherStatus: 404, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "PATCH", path: q("/vendor-records", "account-id", home.id, "vendor-id", pick(other, home.vendor, foreign.vendor)),
				body: map[string]any{"links": map[string]any{"dpa": "https://dpa.example/x"}}}
		}},
		"add-vendor-record-note": {policy: memberUp, otherStatus: 404, build: func(_ *testing.T, w *matrixWorld, home, foreign *tenant, other bool) request {
			return request{method: "POST", path: q("/vendor-records/notes", "account-id", home.id, "vendor-id", pick(other, home.vendor, foreign.vendor)),
				body: map[string]any{"text": w.unique("note")}}
		}},

		// Subscribers.
		"list-subscribers": {policy: viewerUp, otherStatus: 404, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			acct, list := listsOf(home, foreign, other)
			return request{method: "GET", path: q("/subscribers", "account-id", acct, "vendor-list-id", list)}
		}},
		"add-subscribers": {policy: memberUp, otherStatus: 404, build: func(_ *testing.T, w *matrixWorld, home, foreign *tenant, other bool) request {
			acct, list := listsOf(home, foreign, other)
			return request{method: "POST", path: q("/subscribers", "account-id", acct, "vendor-list-id", list),
				body: map[string]any{"subscriber-email": w.unique("sub") + "@s.test"}}
		}},
		"remove-subscribers": {policy: memberUp, otherStatus: 404, build: func(t *testing.T, w *matrixWorld, home, foreign *tenant, other bool) request {
			tn := home
			if other {
				tn = foreign
			}
			email := w.unique("leaving") + "@s.test"
			apitest.Must(t, w.env.Do(t, "POST", q("/subscribers", "account-id", tn.id, "vendor-list-id", tn.master), tn.owner,
				map[string]any{"subscriber-email": email}), 201)
			acct, list := listsOf(home, foreign, other)
			return request{method: "DELETE", path: q("/subscribers", "account-id", acct, "vendor-list-id", list),
				body: map[string]any{"subscriber-email": email}}
		}},

		// The dashboard: a read like any other, so viewers too.
		"get-dashboard-metrics": {policy: viewerUp, otherStatus: 404, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			acct, list := listsOf(home, foreign, other)
			return request{method: "GET", path: q("/metrics/dashboard", "account-id", acct, "vendor-list-id", list)}
		}},
		"get-recent-incidents": {policy: viewerUp, otherStatus: 404, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			acct, list := listsOf(home, foreign, other)
			return request{method: "GET", path: q("/metrics/recent-incidents", "account-id", acct, "vendor-list-id", list)}
		}},
		"list-incidents": {policy: viewerUp, otherStatus: 404, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			acct, list := listsOf(home, foreign, other)
			return request{method: "GET", path: q("/incidents", "account-id", acct, "vendor-list-id", list)}
		}},
		"get-recent-rating-changes": {policy: viewerUp, otherStatus: 404, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			acct, list := listsOf(home, foreign, other)
			return request{method: "GET", path: q("/metrics/recent-rating-changes", "account-id", acct, "vendor-list-id", list)}
		}},
		"get-vendors-from-list": {policy: viewerUp, otherStatus: 404, build: func(_ *testing.T, _ *matrixWorld, home, foreign *tenant, other bool) request {
			acct, list := listsOf(home, foreign, other)
			return request{method: "GET", path: q("/metrics/vendors-from-list", "account-id", acct, "vendor-list-id", list)}
		}},
	}
}

// expect is the status a caller gets (0: any 2xx). A caller with a role acts
// in its own account; the platform admin and token failures act in A.
func expect(p policy, caller string, other bool, otherStatus int) int {
	if p == public {
		return 0
	}
	switch caller {
	case "no token", "bad signature", "expired":
		return http.StatusUnauthorized
	}
	switch p {
	case anyUser:
		return 0
	case platformOnly:
		if caller == "platform admin, not a member" {
			return 0
		}
		return http.StatusForbidden
	}
	rank := map[string]int{"viewer": 1, "member": 2, "unverified e-mail": 2, "admin": 3, "owner": 4, "member of another account": 4}[caller]
	if rank < policyRank[p] { // includes the platform admin (rank 0)
		return http.StatusForbidden
	}
	if other {
		return otherStatus
	}
	return 0
}

func newMatrixWorld(t *testing.T, opts ...apitest.Option) *matrixWorld {
	env := apitest.New(t, opts...)
	w := &matrixWorld{env: env, tokens: map[string]string{}, admin: env.Token("ops@platform.test", apitest.Admin(), apitest.Verified())}
	mk := func(name, ownerEmail string) *tenant {
		tn := &tenant{id: env.NewAccount(t, name, ownerEmail), owner: env.Token(ownerEmail, apitest.Verified())}
		tn.vendorName = name + " Supplier"
		saved := env.SaveVendors(t, tn.owner, tn.id, tn.vendorName)
		tn.master = saved["list"].(map[string]any)["id"].(string)
		tn.vendor = saved["added"].([]any)[0].(map[string]any)["vendor_id"].(string)
		tn.second = apitest.Must(t, env.Do(t, "POST", q("/vendor-lists", "account-id", tn.id, "vendor-list", "Second"), tn.owner, nil), 201).Map(t)["id"].(string)
		tn.assessment = apitest.Must(t, env.Do(t, "POST", q("/vendor-assessments", "account-id", tn.id, "vendor-list-id", tn.master), tn.owner,
			map[string]any{"vendor_id": tn.vendor, "compliance_approval_status": "in-progress"}), 201).Map(t)["id"].(string)
		var up uploadTicket
		apitest.Must(t, env.Do(t, "GET", q("/vendor-assessments/documents/upload-url", "account-id", tn.id, "vendor-list-id", tn.master,
			"assessment-id", tn.assessment, "file-name", "soc2.pdf", "content-type", "application/pdf"), tn.owner, nil), 200).JSON(t, &up)
		if res := put(t, up, strings.NewReader("%PDF-1.4 evidence"), 17); res.StatusCode/100 != 2 {
			t.Fatalf("upload: %d", res.StatusCode)
		}
		tn.document = up.DocumentID
		tn.webhook = matrixHook(t, w, tn)
		var at struct {
			uploadTicket
			ID string `json:"id"`
		}
		apitest.Must(t, env.Do(t, "POST", q("/attestations", "account-id", tn.id, "vendor-id", tn.vendor), tn.owner,
			map[string]any{"kind": "insurance", "valid_until": "2027-01-01"}), 201).JSON(t, &at)
		if res := put(t, at.uploadTicket, strings.NewReader("%PDF-1.4 policy"), 15); res.StatusCode/100 != 2 {
			t.Fatalf("attestation upload: %d", res.StatusCode)
		}
		tn.attestation = at.ID
		return tn
	}
	w.a, w.b = mk("Matrix A", "owner@a.matrix"), mk("Matrix B", "owner@b.matrix")
	w.tokens["owner"] = w.a.owner
	w.tokens["member of another account"] = w.b.owner
	for _, role := range []string{"admin", "member", "viewer"} {
		env.AddMember(t, w.a.id, w.a.owner, role+"@a.matrix", role)
		w.tokens[role] = env.Token(role+"@a.matrix", apitest.Verified())
	}
	env.AddMember(t, w.a.id, w.a.owner, "unverified@a.matrix", "member")
	w.tokens["unverified e-mail"] = env.Token("unverified@a.matrix") // email_verified false
	w.tokens["platform admin, not a member"] = w.admin
	w.tokens["bad signature"] = forge(w.a.owner)
	w.tokens["expired"] = env.Token("owner@a.matrix", apitest.Verified(), apitest.TTL(-time.Minute))
	w.tokens["no token"] = ""
	return w
}

// operationIDs lists the operations of the API's OpenAPI document, sorted.
func operationIDs(env *apitest.Env) []string {
	var ids []string
	for _, item := range env.App.Server.API().OpenAPI().Paths {
		for _, op := range []*huma.Operation{item.Get, item.Put, item.Post, item.Delete, item.Patch, item.Head, item.Options} {
			if op != nil {
				ids = append(ids, op.OperationID)
			}
		}
	}
	sort.Strings(ids)
	return ids
}

func TestAuthorizationMatrix(t *testing.T) {
	t.Parallel()
	w := newMatrixWorld(t)
	rows := matrixRows()
	ids := operationIDs(w.env)
	for _, id := range ids {
		if _, ok := rows[id]; !ok {
			t.Errorf("operation %q has no row in the authorization matrix: add its access rule", id)
		}
	}
	for id := range rows {
		if !slices.Contains(ids, id) {
			t.Errorf("the matrix has a row for %q, which the API does not have", id)
		}
	}
	cells := 0
	for _, id := range ids {
		row, ok := rows[id]
		if !ok {
			continue
		}
		for _, caller := range matrixCallers {
			for _, other := range []bool{false, true} {
				if other && (row.policy == public || row.policy == anyUser || row.policy == platformOnly) {
					continue // no tenant's records in play: one cell is the whole rule
				}
				home, foreign := w.a, w.b
				if caller == "member of another account" {
					home, foreign = w.b, w.a
				}
				req := row.build(t, w, home, foreign, other)
				res := w.env.Do(t, req.method, req.path, w.tokens[caller], req.body)
				want := expect(row.policy, caller, other, row.otherStatus)
				cells++
				scope := "own"
				if other {
					scope = "other"
				}
				if (want == 0 && res.Status/100 != 2) || (want != 0 && res.Status != want) {
					wantText := fmt.Sprint(want)
					if want == 0 {
						wantText = "2xx"
					}
					t.Errorf("%s as %s (%s ids): %s %s = %d, want %s: %s", id, caller, scope, req.method, req.path, res.Status, wantText, res.Body)
				}
			}
		}
	}
	t.Logf("authorization matrix: %d operations x %d callers, %d cells checked", len(ids), len(matrixCallers), cells)
}
