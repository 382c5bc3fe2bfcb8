package vendors

import (
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
)

// Kinds of security instance: a finding is something wrong; a signal is an
// observation (a positive, a link found, or a check that could not run).
const (
	KindFinding = "finding"
	KindSignal  = "signal"
)

// NotCheckedSuffix ends the code of the signal a check records when it could
// not run (DNS failure, timeout, refused connection, fetch-policy refusal):
// `<check>_not_checked`, severity info, with the reason as evidence. Such a
// signal changes no score.
const NotCheckedSuffix = "_not_checked"

// Check is one test of the outside-in scan. It belongs to one category (a
// GRC domain) and records at most the codes it lists, or its not-checked
// signal. A check that ran and recorded nothing passed.
type Check struct {
	// Name is the check's name, the prefix of its not-checked code.
	Name string
	// Category is the GRC domain the check's instances belong to.
	Category string
	// Title says what is checked.
	Title string
	// Codes are the instance codes the check may record.
	Codes []string
	// Gap is what the check costs its category when it ran and found
	// nothing: the privacy and compliance checks look for a positive signal
	// (a policy link), and its absence is the finding.
	Gap int
}

// CodeInfo describes one instance code of the catalog.
type CodeInfo struct {
	Code     string
	Check    string
	Kind     string
	Category string
	Severity string
	Title    string
}

// code is one entry of a check's catalog.
type code struct{ code, severity, title string }

// catalog lists every check with its codes. Codes are part of the API.
var catalog = []struct {
	check Check
	codes []code
}{
	{Check{Name: "https", Category: "application_security", Title: "HTTPS on port 443"}, []code{
		{"https_missing", "high", "Nothing answers TLS on port 443"}}},
	{Check{Name: "http_redirect", Category: "application_security", Title: "Redirect from http:// to https://"}, []code{
		{"http_not_redirected", "medium", "http:// serves content instead of redirecting to https://"}}},
	{Check{Name: "hsts", Category: "application_security", Title: "Strict-Transport-Security header (RFC 6797)"}, []code{
		{"hsts_missing", "medium", "No Strict-Transport-Security header"},
		{"hsts_short_max_age", "low", "HSTS max-age is shorter than one year"},
		{"hsts_preload_ready", "positive", "HSTS is preload-ready (max-age of a year or more, includeSubDomains, preload)"}}},
	{Check{Name: "csp", Category: "application_security", Title: "Content-Security-Policy header"}, []code{
		{"csp_missing", "low", "No Content-Security-Policy header"},
		{"csp_unsafe", "low", "Content-Security-Policy allows unsafe-inline, unsafe-eval or any source"}}},
	{Check{Name: "x_frame_options", Category: "application_security", Title: "Framing protection (X-Frame-Options or CSP frame-ancestors)"}, []code{
		{"x_frame_options_missing", "low", "No X-Frame-Options header and no CSP frame-ancestors"}}},
	{Check{Name: "x_content_type_options", Category: "application_security", Title: "X-Content-Type-Options header"}, []code{
		{"x_content_type_options_missing", "low", "No X-Content-Type-Options: nosniff header"}}},
	{Check{Name: "server_version", Category: "application_security", Title: "Server and X-Powered-By headers"}, []code{
		{"server_version_disclosed", "low", "Server software version disclosed in response headers"}}},
	{Check{Name: "security_txt", Category: "application_security", Title: "security.txt (RFC 9116)"}, []code{
		{"security_txt_missing", "info", "No valid security.txt (Contact and Expires)"},
		{"security_txt_expired", "low", "security.txt has expired"},
		{"security_txt_present", "positive", "security.txt published with Contact and Expires"}}},
	{Check{Name: "cookies", Category: "application_security", Title: "Cookie attributes on the https home page (RFC 6265)"}, []code{
		{"cookie_insecure", "low", "A cookie set by the home page lacks Secure, HttpOnly or SameSite"}}},
	{Check{Name: "mixed_content", Category: "application_security", Title: "Active mixed content on the https home page"}, []code{
		{"mixed_content", "low", "The https home page loads scripts, frames or stylesheets over http"}}},
	{Check{Name: "git_directory", Category: "application_security", Title: "Exposed /.git directory"}, []code{
		{"exposed_git", "high", "The web server serves its /.git directory"}}},
	{Check{Name: "env_file", Category: "application_security", Title: "Exposed /.env file"}, []code{
		{"exposed_env", "critical", "The web server serves a /.env file"}}},
	{Check{Name: "server_status", Category: "application_security", Title: "Exposed /server-status page"}, []code{
		{"exposed_server_status", "medium", "The web server's /server-status page is public"}}},
	{Check{Name: "tls_certificate", Category: "network_security", Title: "TLS certificate on port 443"}, []code{
		{"tls_cert_expired", "critical", "TLS certificate has expired"},
		{"tls_cert_expiring_soon", "medium", "TLS certificate expires within 30 days"},
		{"tls_cert_untrusted", "high", "TLS certificate chain does not verify"},
		{"tls_cert_hostname_mismatch", "high", "TLS certificate does not name the host"},
		{"tls_chain_incomplete", "medium", "TLS chain is incomplete: it verifies only with the issuer fetched from the certificate's AIA"},
		{"tls_weak_key", "medium", "TLS certificate key is RSA under 2048 bits"},
		{"tls_weak_signature", "medium", "TLS certificate is signed with SHA-1 or MD5"}}},
	{Check{Name: "tls_protocol", Category: "network_security", Title: "TLS protocol versions on port 443"}, []code{
		{"tls_protocol_weak", "medium", "Server completes a TLS 1.0 or 1.1 handshake"}}},
	{Check{Name: "spf", Category: "email_security", Title: "SPF record (RFC 7208)"}, []code{
		{"spf_missing", "medium", "No SPF record"},
		{"spf_softfail", "low", "SPF ends in ~all (soft fail)"},
		{"spf_permissive", "high", "SPF lets any host send (+all or ?all)"},
		{"spf_malformed", "medium", "SPF record does not parse"}}},
	{Check{Name: "spf_lookups", Category: "email_security", Title: "SPF DNS lookup limit (RFC 7208 section 4.6.4)"}, []code{
		{"spf_too_many_lookups", "medium", "SPF evaluation needs more than 10 DNS lookups"}}},
	{Check{Name: "dmarc", Category: "email_security", Title: "DMARC record (RFC 7489)"}, []code{
		{"dmarc_missing", "medium", "No DMARC record"},
		{"dmarc_policy_none", "low", "DMARC policy is none (monitoring only)"},
		{"dmarc_enforced", "positive", "DMARC policy quarantines or rejects"},
		{"dmarc_partial", "low", "DMARC policy applies to only part of the mail (pct under 100)"}}},
	{Check{Name: "dkim", Category: "email_security", Title: "DKIM keys at common selectors (RFC 6376)"}, []code{
		{"dkim_missing", "low", "No DKIM key at any common selector"},
		{"dkim_revoked", "low", "A DKIM key record is revoked (empty p=)"},
		{"dkim_weak_key", "medium", "A DKIM key is RSA under 1024 bits"}}},
	{Check{Name: "mta_sts", Category: "email_security", Title: "MTA-STS policy (RFC 8461)"}, []code{
		{"mta_sts_missing", "low", "No enforced MTA-STS policy"},
		{"mta_sts_enforced", "positive", "MTA-STS policy in enforce mode"}}},
	{Check{Name: "caa", Category: "dns_health", Title: "CAA records (RFC 8659)"}, []code{
		{"caa_missing", "low", "No CAA record restricts certificate issuance"},
		{"caa_present", "positive", "CAA records restrict certificate issuance"}}},
	{Check{Name: "dnssec", Category: "dns_health", Title: "DNSSEC (RFC 4033-4035)"}, []code{
		{"dnssec_missing", "low", "The domain is not signed with DNSSEC"}}},
	{Check{Name: "privacy_policy", Category: "privacy", Title: "Privacy policy link on the home page", Gap: 50}, []code{
		{"privacy_policy_found", "positive", "Privacy policy linked from the home page"}}},
	{Check{Name: "terms", Category: "compliance", Title: "Terms of service link on the home page", Gap: 30}, []code{
		{"terms_found", "positive", "Terms of service linked from the home page"}}},
	{Check{Name: "trust_center", Category: "compliance", Title: "Trust center link on the home page", Gap: 20}, []code{
		{"trust_center_found", "positive", "Trust center linked from the home page"}}},
	{Check{Name: "status_page", Category: "compliance", Title: "Status page link on the home page", Gap: 10}, []code{
		{"status_page_found", "positive", "Status page linked from the home page"}}},
}

var (
	checkByName = map[string]Check{}
	codeInfo    = map[string]CodeInfo{}
)

func init() {
	for _, e := range catalog {
		c := e.check
		for _, cd := range e.codes {
			c.Codes = append(c.Codes, cd.code)
			kind := KindFinding
			if cd.severity == "positive" {
				kind = KindSignal
			}
			codeInfo[cd.code] = CodeInfo{Code: cd.code, Check: c.Name, Kind: kind, Category: c.Category, Severity: cd.severity, Title: cd.title}
		}
		nc := c.Name + NotCheckedSuffix
		codeInfo[nc] = CodeInfo{Code: nc, Check: c.Name, Kind: KindSignal, Category: c.Category, Severity: "info", Title: c.Title + ": not checked"}
		checkByName[c.Name] = c
	}
}

// Checks lists every check of the scan, in catalog order.
func Checks() []Check {
	out := make([]Check, 0, len(catalog))
	for _, e := range catalog {
		out = append(out, checkByName[e.check.Name])
	}
	return out
}

// LookupCheck returns the check of that name.
func LookupCheck(name string) (Check, bool) {
	c, ok := checkByName[name]
	return c, ok
}

// LookupCode returns the catalog entry of an instance code, not-checked
// codes included.
func LookupCode(code string) (CodeInfo, bool) {
	c, ok := codeInfo[code]
	return c, ok
}

// IsNotChecked reports whether code records a check that could not run.
func IsNotChecked(code string) bool {
	c, ok := codeInfo[code]
	return ok && strings.HasSuffix(code, NotCheckedSuffix) && c.Code == c.Check+NotCheckedSuffix
}

// NewSecurityInstance builds an instance of a catalog code: kind, category,
// severity and title come from the catalog, so an adapter cannot make up
// codes or disagree with the score model. Evidence says what was observed
// (or, for a not-checked code, why the check could not run); source is the
// URL or DNS name read.
func NewSecurityInstance(id, vendorID uuid.UUID, code, evidence, source string, observedAt time.Time) (SecurityInstance, error) {
	info, ok := codeInfo[code]
	if !ok {
		return SecurityInstance{}, core.Invalid("Code", "%q is not a security check code", code)
	}
	if strings.TrimSpace(evidence) == "" {
		return SecurityInstance{}, core.Invalid("Evidence", "%s needs evidence of what was observed", code)
	}
	return SecurityInstance{ID: id, VendorID: vendorID, Kind: info.Kind, Category: info.Category, Code: code, Title: info.Title,
		Severity: info.Severity, Evidence: evidence, Source: source, ObservedAt: observedAt.UTC()}, nil
}

// SecurityInstanceFromStore rebuilds a security instance a store read from
// its stored fields, i. Its code is not looked up in the catalog again: an
// instance keeps the kind, category, title and severity it was recorded
// with, and one of a code the catalog has since dropped must still read. Its
// time is normalised to UTC as NewSecurityInstance's is.
func SecurityInstanceFromStore(i SecurityInstance) SecurityInstance {
	i.ObservedAt = i.ObservedAt.UTC()
	return i
}
