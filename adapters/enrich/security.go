package enrich

import (
	"context"
	"crypto/x509"
	"errors"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/vetted-dev/vetted/core/vendor"
)

// rule ties one external signal to the instance it produces: a positive
// signal when true, a finding of the given severity when false, nothing
// when unknown (nil). The same table drives the security section and the
// score, so they never disagree.
type rule struct {
	signal   func(*vendor.ExternalSignals) **bool
	category string
	good     string
	goodText string
	bad      string
	badText  string
	severity string
}

var rules = []rule{
	{func(s *vendor.ExternalSignals) **bool { return &s.TLS }, "network_security",
		"tls_valid", "Website serves HTTPS with a valid certificate", "tls_missing", "Website does not serve HTTPS with a valid certificate", "high"},
	{func(s *vendor.ExternalSignals) **bool { return &s.HSTS }, "application_security",
		"hsts_enabled", "HSTS is enabled", "hsts_missing", "HSTS header is missing", "medium"},
	{func(s *vendor.ExternalSignals) **bool { return &s.SecurityHeaders }, "application_security",
		"security_headers_present", "Recommended security headers are set", "security_headers_missing", "Recommended security headers are missing", "low"},
	{func(s *vendor.ExternalSignals) **bool { return &s.SPF }, "email_security",
		"spf_record_present", "SPF record published", "spf_record_missing", "No SPF record", "medium"},
	{func(s *vendor.ExternalSignals) **bool { return &s.DMARC }, "email_security",
		"dmarc_record_present", "DMARC record published", "dmarc_record_missing", "No DMARC record", "medium"},
	{func(s *vendor.ExternalSignals) **bool { return &s.MTASTS }, "email_security",
		"mta_sts_present", "MTA-STS policy published", "mta_sts_missing", "No MTA-STS policy", "low"},
	{func(s *vendor.ExternalSignals) **bool { return &s.CAA }, "dns_health",
		"caa_record_present", "CAA record restricts certificate issuance", "caa_record_missing", "No CAA record", "low"},
	{func(s *vendor.ExternalSignals) **bool { return &s.DNSSEC }, "dns_health",
		"dnssec_enabled", "DNSSEC is enabled", "dnssec_missing", "DNSSEC is not enabled", "low"},
	{func(s *vendor.ExternalSignals) **bool { return &s.SecurityTxt }, "application_security",
		"security_txt_present", "security.txt published", "security_txt_missing", "No security.txt", "info"},
}

// penalty is what a finding of each severity takes off a 100-point rating.
var penalty = map[string]int{"critical": 40, "high": 25, "medium": 10, "low": 4, "info": 1}

// certExpiringWithin is when an upcoming certificate expiry becomes a finding.
const certExpiringWithin = 14 * 24 * time.Hour

// findings derives instances from signals (without ids, source or time).
func findings(sig vendor.ExternalSignals, now time.Time) []vendor.SecurityInstance {
	var out []vendor.SecurityInstance
	for _, r := range rules {
		v := *r.signal(&sig)
		switch {
		case v == nil:
		case *v:
			out = append(out, vendor.SecurityInstance{Kind: "signal", Category: r.category, Code: r.good, Title: r.goodText, Severity: "positive"})
		default:
			out = append(out, vendor.SecurityInstance{Kind: "finding", Category: r.category, Code: r.bad, Title: r.badText, Severity: r.severity})
		}
	}
	if exp, err := time.Parse(time.RFC3339, sig.TLSExpiresAt); err == nil {
		switch {
		case !now.Before(exp):
			out = append(out, vendor.SecurityInstance{Kind: "finding", Category: "network_security", Code: "tls_cert_expired", Title: "TLS certificate has expired", Severity: "critical", Evidence: "expired " + sig.TLSExpiresAt})
		case exp.Sub(now) < certExpiringWithin:
			out = append(out, vendor.SecurityInstance{Kind: "finding", Category: "network_security", Code: "tls_cert_expiring", Title: "TLS certificate expires within 14 days", Severity: "medium", Evidence: "expires " + sig.TLSExpiresAt})
		}
	}
	return out
}

// rate scores instances: 100 minus the penalty of each finding, at least 0.
// It reports false when no instance is known, since then there is nothing
// to rate.
func rate(is []vendor.SecurityInstance) (rating int, categories []string, ok bool) {
	if len(is) == 0 {
		return 0, nil, false
	}
	rating = 100
	hit := map[string]bool{}
	for _, in := range is {
		if in.Kind != "finding" {
			continue
		}
		rating -= penalty[in.Severity]
		if in.Severity != "info" {
			hit[in.Category] = true
		}
	}
	for _, d := range vendor.Domains() {
		if hit[d] {
			categories = append(categories, d)
		}
	}
	return max(rating, 0), categories, true
}

// sortInstances orders most severe first, then by code.
func sortInstances(is []vendor.SecurityInstance) {
	rank := map[string]int{}
	for i, s := range vendor.SeverityValues() {
		rank[s] = i
	}
	sort.SliceStable(is, func(a, b int) bool {
		if rank[is[a].Severity] != rank[is[b].Severity] {
			return rank[is[a].Severity] < rank[is[b].Severity]
		}
		return is[a].Code < is[b].Code
	})
}

// probe gathers the signals of one vendor: HTTPS and headers of the home
// page, security.txt, and the DNS records of the domain. evidence holds a
// line per instance code; extra holds findings the signals cannot express.
type probe struct {
	sig      vendor.ExternalSignals
	evidence map[string]string
	extra    []vendor.SecurityInstance
}

func yes(b bool) *bool { return &b }

// web checks HTTPS, HSTS, security headers and security.txt on host. A
// refusal by the fetch policy is returned as an error: nothing was probed.
func (r *run) web(ctx context.Context, p *probe, site *url.URL) error {
	home := &url.URL{Scheme: "https", Host: site.Host, Path: "/"}
	page, err := r.e.fetch.Get(ctx, home.String())
	if errors.Is(err, ErrRefused) {
		return err
	}
	if err != nil {
		p.sig.TLS = yes(false)
		p.evidence["tls_missing"] = err.Error()
		var inv x509.CertificateInvalidError
		if errors.As(err, &inv) && inv.Reason == x509.Expired {
			p.extra = append(p.extra, vendor.SecurityInstance{Kind: "finding", Category: "network_security", Code: "tls_cert_expired",
				Title: "TLS certificate has expired", Severity: "critical", Evidence: inv.Error()})
		}
		return nil
	}
	if page.TLS == nil || len(page.TLS.PeerCertificates) == 0 {
		// redirected to plain http
		p.sig.TLS = yes(false)
		p.evidence["tls_missing"] = "https://" + site.Host + "/ redirected to " + page.URL.String()
	} else {
		leaf := page.TLS.PeerCertificates[0]
		p.sig.TLS = yes(true)
		p.sig.TLSExpiresAt = leaf.NotAfter.UTC().Format(time.RFC3339)
		p.evidence["tls_valid"] = "certificate for " + strings.Join(leaf.DNSNames, ", ") + " issued by " + leaf.Issuer.CommonName + ", expires " + p.sig.TLSExpiresAt
		hsts := page.Header.Get("Strict-Transport-Security")
		p.sig.HSTS = yes(hstsOn(hsts))
		p.evidence["hsts_enabled"] = "Strict-Transport-Security: " + hsts
		p.evidence["hsts_missing"] = "no Strict-Transport-Security header with max-age > 0 on " + page.URL.String()
	}
	have, missing := securityHeaders(page.Header)
	p.sig.SecurityHeaders = yes(len(missing) <= 1)
	p.evidence["security_headers_present"] = "present: " + strings.Join(have, ", ")
	p.evidence["security_headers_missing"] = "missing: " + strings.Join(missing, ", ")

	txtURL := &url.URL{Scheme: page.URL.Scheme, Host: page.URL.Host, Path: "/.well-known/security.txt"}
	txt, err := r.e.fetch.Get(ctx, txtURL.String())
	ok := err == nil && txt.Status == http.StatusOK && strings.Contains(strings.ToLower(string(txt.Body)), "contact:")
	p.sig.SecurityTxt = yes(ok)
	p.evidence["security_txt_present"] = txtURL.String()
	p.evidence["security_txt_missing"] = "no security.txt with a Contact field at " + txtURL.String()
	return nil
}

func hstsOn(v string) bool {
	for _, part := range strings.Split(v, ";") {
		k, val, _ := strings.Cut(strings.TrimSpace(part), "=")
		if strings.EqualFold(k, "max-age") {
			n, err := strconv.Atoi(strings.Trim(val, `" `))
			return err == nil && n > 0
		}
	}
	return false
}

// securityHeaders checks four recommended response headers. Framing
// protection counts when either X-Frame-Options or CSP frame-ancestors
// sets it.
func securityHeaders(h http.Header) (have, missing []string) {
	csp := h.Get("Content-Security-Policy")
	checks := []struct {
		name string
		ok   bool
	}{
		{"Content-Security-Policy", csp != ""},
		{"X-Content-Type-Options", strings.EqualFold(strings.TrimSpace(h.Get("X-Content-Type-Options")), "nosniff")},
		{"X-Frame-Options", h.Get("X-Frame-Options") != "" || strings.Contains(csp, "frame-ancestors")},
		{"Referrer-Policy", h.Get("Referrer-Policy") != ""},
	}
	for _, c := range checks {
		if c.ok {
			have = append(have, c.name)
		} else {
			missing = append(missing, c.name)
		}
	}
	return have, missing
}

// dns checks SPF, DMARC, MTA-STS and CAA of domain. An unknown answer
// (resolver failure) leaves the signal nil rather than claiming a gap.
func (r *run) dns(ctx context.Context, p *probe, domain string) {
	txt := func(name, prefix string) (*bool, string) {
		recs, err := r.e.resolver.LookupTXT(ctx, name)
		if errors.Is(err, ErrNoRecords) {
			return yes(false), "no TXT record starting with " + prefix + " at " + name
		}
		if err != nil {
			return nil, ""
		}
		for _, rec := range recs {
			if strings.HasPrefix(strings.ToLower(strings.TrimSpace(rec)), strings.ToLower(prefix)) {
				return yes(true), name + ": " + rec
			}
		}
		return yes(false), "no TXT record starting with " + prefix + " at " + name
	}
	var ev string
	p.sig.SPF, ev = txt(domain, "v=spf1")
	p.evidence["spf_record_present"], p.evidence["spf_record_missing"] = ev, ev
	p.sig.DMARC, ev = txt("_dmarc."+domain, "v=DMARC1")
	p.evidence["dmarc_record_present"], p.evidence["dmarc_record_missing"] = ev, ev
	if p.sig.DMARC != nil && *p.sig.DMARC && strings.Contains(strings.ReplaceAll(strings.ToLower(ev), " ", ""), "p=none") {
		p.extra = append(p.extra, vendor.SecurityInstance{Kind: "finding", Category: "email_security", Code: "dmarc_policy_none",
			Title: "DMARC policy does not reject or quarantine", Severity: "low", Evidence: ev})
	}
	p.sig.MTASTS, ev = txt("_mta-sts."+domain, "v=STSv1")
	p.evidence["mta_sts_present"], p.evidence["mta_sts_missing"] = ev, ev

	// CAA applies from the closest ancestor that has records (RFC 8659).
	labels := strings.Split(domain, ".")
	for i := 0; i+2 <= len(labels); i++ {
		name := strings.Join(labels[i:], ".")
		recs, err := r.e.resolver.LookupCAA(ctx, name)
		if errors.Is(err, ErrNoRecords) {
			p.sig.CAA = yes(false)
			p.evidence["caa_record_missing"] = "no CAA record at " + domain + " or its parents"
			continue
		}
		if err != nil {
			p.sig.CAA = nil
			break
		}
		p.sig.CAA = yes(true)
		p.evidence["caa_record_present"] = name + ": " + strings.Join(recs, "; ")
		break
	}
}

// toInstances turns a probe into stored instances.
func (r *run) toInstances(p *probe, source string) []vendor.SecurityInstance {
	out := append(findings(p.sig, r.now), p.extra...)
	seen := map[string]bool{}
	var uniq []vendor.SecurityInstance
	for _, in := range out {
		if seen[in.Code] {
			continue
		}
		seen[in.Code] = true
		in.ID = r.e.ids.New()
		in.VendorID = r.v.ID
		in.Source = source
		in.ObservedAt = r.now
		if in.Evidence == "" {
			in.Evidence = p.evidence[in.Code]
		}
		uniq = append(uniq, in)
	}
	sortInstances(uniq)
	return uniq
}
