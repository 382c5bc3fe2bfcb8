package vendors

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/vetted-dev/vetted/core"
)

// The PATCH whitelist: every profile field a platform admin may edit by
// hand, under the path a merge patch names it by, mapped once to the field
// of Profile it sets. A path is the group and the field's names below it,
// dot-separated ("company.industry", "security.external_signals.tls"). The
// list is the whole contract of PATCH /vendor: a field is editable because
// it is listed here, not because a type happens to carry a JSON name, and
// renaming a Go field changes nothing a client sends. Scores, enrichment
// states and GRC assessments are computed and so are not listed.
var editable = []editableField{
	text("company.company_description", func(p *Profile) *string { return &p.Company.CompanyDescription }),
	text("company.business_type", func(p *Profile) *string { return &p.Company.BusinessType }),
	number("company.founded_year", func(p *Profile) **int { return &p.Company.FoundedYear }),
	number("company.employee_count", func(p *Profile) **int { return &p.Company.EmployeeCount }),
	text("company.industry", func(p *Profile) *string { return &p.Company.Industry }),
	text("company.primary_product", func(p *Profile) *string { return &p.Company.PrimaryProduct }),
	text("company.headquarters_location", func(p *Profile) *string { return &p.Company.HeadquartersLocation }),
	text("company.website_url", func(p *Profile) *string { return &p.Company.WebsiteURL }),
	texts("company.alias", func(p *Profile) *[]string { return &p.Company.Alias }),
	text("company.legal_name", func(p *Profile) *string { return &p.Company.LegalName }),
	text("company.contact_email", func(p *Profile) *string { return &p.Company.ContactEmail }),
	text("company.tos_url", func(p *Profile) *string { return &p.Company.TosURL }),
	text("company.logo", func(p *Profile) *string { return &p.Company.Logo }),

	texts("security.compliance_certifications", func(p *Profile) *[]string { return &p.Security.ComplianceCertifications }),
	texts("security.published_subprocessors", func(p *Profile) *[]string { return &p.Security.PublishedSubprocessors }),
	text("security.security_page_url", func(p *Profile) *string { return &p.Security.SecurityPageURL }),
	text("security.trust_center_url", func(p *Profile) *string { return &p.Security.TrustCenterURL }),
	text("security.status_page_url", func(p *Profile) *string { return &p.Security.StatusPageURL }),
	flag("security.external_signals.tls", func(p *Profile) **bool { return &p.Security.ExternalSignals.TLS }),
	text("security.external_signals.tls_expires_at", func(p *Profile) *string { return &p.Security.ExternalSignals.TLSExpiresAt }),
	flag("security.external_signals.hsts", func(p *Profile) **bool { return &p.Security.ExternalSignals.HSTS }),
	flag("security.external_signals.security_headers", func(p *Profile) **bool { return &p.Security.ExternalSignals.SecurityHeaders }),
	flag("security.external_signals.spf", func(p *Profile) **bool { return &p.Security.ExternalSignals.SPF }),
	flag("security.external_signals.dmarc", func(p *Profile) **bool { return &p.Security.ExternalSignals.DMARC }),
	flag("security.external_signals.dnssec", func(p *Profile) **bool { return &p.Security.ExternalSignals.DNSSEC }),
	flag("security.external_signals.caa", func(p *Profile) **bool { return &p.Security.ExternalSignals.CAA }),
	flag("security.external_signals.mta_sts", func(p *Profile) **bool { return &p.Security.ExternalSignals.MTASTS }),
	flag("security.external_signals.security_txt", func(p *Profile) **bool { return &p.Security.ExternalSignals.SecurityTxt }),

	text("privacy.privacy_policy_url", func(p *Profile) *string { return &p.Privacy.PrivacyPolicyURL }),
	texts("privacy.data_collected", func(p *Profile) *[]string { return &p.Privacy.DataCollected }),
	text("privacy.shared_data_description", func(p *Profile) *string { return &p.Privacy.SharedDataDescription }),
	text("privacy.ml_training_data_description", func(p *Profile) *string { return &p.Privacy.MLTrainingDataDescription }),
	flag("privacy.supports_data_subject_requests", func(p *Profile) **bool { return &p.Privacy.SupportsDataSubjectRequests }),
	flag("privacy.gdpr_compliant", func(p *Profile) **bool { return &p.Privacy.GDPRCompliant }),
	flag("privacy.data_returned_after_termination", func(p *Profile) **bool { return &p.Privacy.DataReturnedAfterTermination }),
	text("privacy.data_physical_location", func(p *Profile) *string { return &p.Privacy.DataPhysicalLocation }),

	text("maturity.company_type", func(p *Profile) *string { return &p.Maturity.CompanyType }),
	text("maturity.total_funding", func(p *Profile) *string { return &p.Maturity.TotalFunding }),
	text("maturity.funding_round", func(p *Profile) *string { return &p.Maturity.FundingRound }),
	flag("maturity.has_enterprise_customers", func(p *Profile) **bool { return &p.Maturity.HasEnterpriseCustomers }),
	number("maturity.popularity_index", func(p *Profile) **int { return &p.Maturity.PopularityIndex }),
	text("maturity.revenue_estimate", func(p *Profile) *string { return &p.Maturity.RevenueEstimate }),
	text("maturity.customer_count_estimate", func(p *Profile) *string { return &p.Maturity.CustomerCountEstimate }),
}

// PatchableGroups are the content groups a platform admin may edit by hand:
// the first part of every editable path.
var PatchableGroups = []string{"company", "security", "privacy", "maturity"}

// PatchPaths lists the path of every editable field, in the whitelist's
// order.
func PatchPaths() []string {
	out := make([]string, len(editable))
	for i, f := range editable {
		out[i] = f.path
	}
	return out
}

// editableField is one entry of the whitelist.
type editableField struct {
	path string
	// want says what a value must be, for the error naming a wrong one.
	want string
	// set decodes one JSON value into the field of p; null clears it.
	set func(p *Profile, value []byte) error
}

// field makes the entry for a field of type T, set by decoding the patch's
// value into a fresh T: null is T's zero value, and decoding never writes
// through a slice or pointer the profile shares with the one it was copied
// from (a refused patch must leave that one as it was).
func field[T any](path, want string, ref func(*Profile) *T) editableField {
	return editableField{path: path, want: want, set: func(p *Profile, value []byte) error {
		var v T
		if err := json.Unmarshal(value, &v); err != nil {
			return err
		}
		*ref(p) = v
		return nil
	}}
}

func text(path string, ref func(*Profile) *string) editableField {
	return field(path, "a string or null", ref)
}

func number(path string, ref func(*Profile) **int) editableField {
	return field(path, "an integer or null", ref)
}

func flag(path string, ref func(*Profile) **bool) editableField {
	return field(path, "true, false or null", ref)
}

func texts(path string, ref func(*Profile) *[]string) editableField {
	return field(path, "an array of strings or null", ref)
}

// editableAt finds the entry of a path.
func editableAt(path string) (editableField, bool) {
	i := slices.IndexFunc(editable, func(f editableField) bool { return f.path == path })
	if i < 0 {
		return editableField{}, false
	}
	return editable[i], true
}

// patchField is the error field of a path of the merge patch: the patch is
// a document the core reads, like a CSV file, so its paths are named as the
// client wrote them, under the Go-side name of the document ("Patch").
func patchField(path string) string { return "Patch." + path }

// editableUnder lists the entries below path, an object such as
// "security.external_signals"; none when path names no object.
func editableUnder(path string) []editableField {
	var out []editableField
	for _, f := range editable {
		if strings.HasPrefix(f.path, path+".") {
			out = append(out, f)
		}
	}
	return out
}

// ApplyPatch applies a JSON merge patch (RFC 7396) whose top-level keys are
// content groups and whose members below must be whitelisted paths. Any
// other key is refused with a validation error naming it; a value of the
// wrong type is refused naming its group. Nothing is applied unless all
// of the patch is.
func (p *Profile) ApplyPatch(patch map[string]json.RawMessage, now time.Time) error {
	var errs core.Fields
	next := *p
	for _, g := range sortedKeys(patch) {
		if !slices.Contains(PatchableGroups, g) {
			errs.Add(patchField(g), "is not an editable group (editable: %s, and the entry's %s)", strings.Join(PatchableGroups, ", "), AliasesMember)
			continue
		}
		var members map[string]json.RawMessage
		if err := json.Unmarshal(patch[g], &members); err != nil {
			errs.Add(patchField(g), "must be an object")
			continue
		}
		next.mergeMembers(&errs, g, g, members)
	}
	if err := errs.Err(); err != nil {
		return err
	}
	next.UpdatedAt = now.UTC()
	*p = next
	return nil
}

// mergeMembers applies the members of the patch's object at path, in
// group. A field takes its member's value (null clears it); an object of
// fields is cleared by null and merged member by member by an object.
func (p *Profile) mergeMembers(errs *core.Fields, group, path string, members map[string]json.RawMessage) {
	for _, name := range sortedKeys(members) {
		at, value := path+"."+name, members[name]
		rel := strings.TrimPrefix(at, group+".")
		if f, ok := editableAt(at); ok {
			if f.set(p, value) != nil {
				errs.Add(patchField(group), "has a value of the wrong type: %s must be %s", rel, f.want)
			}
			continue
		}
		under := editableUnder(at)
		switch {
		case len(under) == 0 && path == group:
			errs.Add(patchField(at), "is not an editable field")
		case len(under) == 0:
			errs.Add(patchField(group), "has a value of the wrong type: %s is not a field of %s", name, strings.TrimPrefix(path, group+"."))
		case string(value) == "null":
			for _, f := range under {
				_ = f.set(p, value) // null is every field's zero value
			}
		default:
			var inner map[string]json.RawMessage
			if json.Unmarshal(value, &inner) != nil {
				errs.Add(patchField(group), "has a value of the wrong type: %s must be an object or null", rel)
				continue
			}
			p.mergeMembers(errs, group, at, inner)
		}
	}
}

// sortedKeys returns m's keys in order, so that errors come in a stable order.
func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
