package enrich

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/miekg/dns"
)

// dnsChecks are the checks of the DNS branch.
var dnsChecks = []string{"spf", "spf_lookups", "dmarc", "dkim", "mta_sts", "caa", "dnssec"}

// dnsSource names a DNS question as an RFC 4501 URI.
func dnsSource(name, qtype string) string { return "dns:" + name + "?type=" + qtype }

// validated marks evidence read from an answer the resolver validated.
func validated(a answer) string {
	if a.ad {
		return " (DNSSEC-validated)"
	}
	return ""
}

// ask puts a DNS question for a check; when the answer is unknown it
// records the check as not checked, with the reason, and reports false.
func (r *scanRun) ask(ctx context.Context, check, name string, qtype uint16) (answer, bool) {
	a, err := r.s.dns.query(ctx, name, qtype)
	if err != nil {
		r.notChecked(check, err.Error(), dnsSource(name, dns.TypeToString[qtype]))
		return a, false
	}
	return a, true
}

// dnsChecks reads the apex TXT records (SPF), then runs the other checks
// side by side. A domain that does not exist (NXDOMAIN on its own TXT
// question) stops everything: a vendor is not rated on records a broken or
// filtering resolver hides.
func (r *scanRun) dnsChecks(ctx context.Context) {
	d := r.t.Domain
	if d == "" {
		for _, c := range dnsChecks {
			r.notChecked(c, "no domain to look up: the website is an IP address", "")
		}
		return
	}
	src := dnsSource(d, "TXT")
	apex, apexErr := r.s.dns.query(ctx, d, dns.TypeTXT)
	switch {
	case apexErr != nil:
		r.notChecked("spf", apexErr.Error(), src)
		r.notChecked("spf_lookups", apexErr.Error(), src)
	case apex.nxdomain:
		for _, c := range dnsChecks {
			r.notChecked(c, d+" does not exist (NXDOMAIN)", src)
		}
		return
	default:
		v := checkSPF(d, apex.txt())
		v.evidence += validated(apex)
		r.sig.SPF = flag(r.verdict(v, src))
	}
	// Each check writes its own runner; they are merged in catalog order.
	parts := make([]*scanRun, 6)
	for i := range parts {
		parts[i] = &scanRun{s: r.s, t: r.t, now: r.now}
	}
	var wg sync.WaitGroup
	if apexErr == nil {
		wg.Go(func() { parts[0].spfLookups(ctx, apex.txt()) })
	}
	wg.Go(func() { parts[1].dmarc(ctx) })
	wg.Go(func() { parts[2].dkim(ctx) })
	wg.Go(func() { parts[3].mtaSTS(ctx) })
	wg.Go(func() { parts[4].caa(ctx) })
	wg.Go(func() { parts[5].dnssec(ctx, apex, apexErr) })
	wg.Wait()
	for _, p := range parts {
		r.obs = append(r.obs, p.obs...)
	}
	r.sig.DMARC, r.sig.MTASTS, r.sig.CAA, r.sig.DNSSEC = parts[1].sig.DMARC, parts[3].sig.MTASTS, parts[4].sig.CAA, parts[5].sig.DNSSEC
}

func (r *scanRun) dmarc(ctx context.Context) {
	name := "_dmarc." + r.t.Domain
	src := dnsSource(name, "TXT")
	a, ok := r.ask(ctx, "dmarc", name, dns.TypeTXT)
	if !ok {
		return
	}
	v := checkDMARC(name, a.txt())
	v.evidence += validated(a)
	ok = r.verdict(v, src, "dmarc_enforced") && v.code != ""
	if p := checkDMARCPartial(name, a.txt()); p.code != "" {
		r.record(p.code, p.evidence+validated(a), src)
		ok = false
	}
	r.sig.DMARC = flag(ok)
}

// mtaSTS checks the MTA-STS TXT record and the policy it announces (RFC
// 8461), for a domain that receives mail (has MX records).
func (r *scanRun) mtaSTS(ctx context.Context) {
	d := r.t.Domain
	mx, ok := r.ask(ctx, "mta_sts", d, dns.TypeMX)
	if !ok {
		return
	}
	var hosts []string
	for _, rr := range mx.rrs {
		if m, ok := rr.(*dns.MX); ok && m.Mx != "." { // "." is a null MX (RFC 7505)
			hosts = append(hosts, strings.TrimSuffix(m.Mx, "."))
		}
	}
	if len(hosts) == 0 {
		r.notChecked("mta_sts", "not applicable: "+d+" has no MX record, so it receives no mail", dnsSource(d, "MX"))
		return
	}
	name := "_mta-sts." + d
	src := dnsSource(name, "TXT")
	a, ok := r.ask(ctx, "mta_sts", name, dns.TypeTXT)
	if !ok {
		return
	}
	missing := func(why, source string) {
		r.record("mta_sts_missing", fmt.Sprintf("%s (MX: %s)", why, strings.Join(hosts, ", ")), source)
		r.sig.MTASTS = flag(false)
	}
	recs := withVersion(a.txt(), "STSv1")
	switch len(recs) {
	case 0:
		missing("no TXT record starting with v=STSv1 at "+name, src)
		return
	case 1:
	default:
		missing(fmt.Sprintf("%d TXT records starting with v=STSv1 at %s, so none applies (RFC 8461 §3.1): %s", len(recs), name, quoteAll(recs)), src)
		return
	}
	policyHost := "mta-sts." + d
	u := "https://" + policyHost + "/.well-known/mta-sts.txt"
	// RFC 8461 §3.3: the policy is fetched over HTTPS with a valid
	// certificate for the policy host, and redirects are not followed.
	p, err := r.s.fetch.GetOnce(ctx, u)
	switch {
	case errors.Is(err, ErrNoSuchHost):
		missing(fmt.Sprintf("%s: %q, but the policy host does not resolve: %v", name, recs[0], err), u)
		return
	case err != nil:
		r.notChecked("mta_sts", "policy "+u+": "+err.Error(), u)
		return
	}
	if err := r.verifyServer(p, policyHost); err != nil {
		missing(fmt.Sprintf("%s: %q, but %s is served with a certificate that does not verify: %v", name, recs[0], u, err), u)
		return
	}
	if p.Status != 200 {
		missing(fmt.Sprintf("%s: %q, but %s answered HTTP %d", name, recs[0], u, p.Status), u)
		return
	}
	switch mode := mtaSTSPolicy(string(p.Body)); mode {
	case "enforce":
		r.record("mta_sts_enforced", fmt.Sprintf("%s: %q; %s: mode: enforce (MX: %s)", name, recs[0], u, strings.Join(hosts, ", ")), u)
		r.sig.MTASTS = flag(true)
	case "":
		missing(fmt.Sprintf("%s is not a valid STSv1 policy", u), u)
	default:
		missing(fmt.Sprintf("%s: mode: %s, so failures are not enforced", u, mode), u)
	}
}

// verifyServer verifies the certificate a page was served with for host.
func (r *scanRun) verifyServer(p *Page, host string) error {
	if p.TLS == nil || len(p.TLS.PeerCertificates) == 0 {
		return errors.New("no certificate")
	}
	leaf := p.TLS.PeerCertificates[0]
	if !r.now.Before(leaf.NotAfter) {
		return fmt.Errorf("the certificate expired %s", leaf.NotAfter.UTC().Format(time.RFC3339))
	}
	return r.verifyChain(p.TLS.PeerCertificates, host)
}

// caa looks for CAA records at the domain and its parents, the way a CA
// does (RFC 8659 §3), up to but not including the top-level domain.
func (r *scanRun) caa(ctx context.Context) {
	labels := strings.Split(r.t.Domain, ".")
	for i := 0; i+2 <= len(labels); i++ {
		name := strings.Join(labels[i:], ".")
		a, ok := r.ask(ctx, "caa", name, dns.TypeCAA)
		if !ok {
			return
		}
		var recs []string
		for _, rr := range a.rrs {
			if c, ok := rr.(*dns.CAA); ok {
				recs = append(recs, fmt.Sprintf("%d %s %q", c.Flag, c.Tag, c.Value))
			}
		}
		if len(recs) > 0 {
			r.record("caa_present", name+": "+strings.Join(recs, "; ")+validated(a), dnsSource(name, "CAA"))
			r.sig.CAA = flag(true)
			return
		}
	}
	r.record("caa_missing", fmt.Sprintf("no CAA record at %s or its parent domains, so any CA may issue certificates for it", r.t.Domain), dnsSource(r.t.Domain, "CAA"))
	r.sig.CAA = flag(false)
}

// spfLookups counts the DNS-querying terms evaluating the domain's SPF
// record takes, through nested includes and the redirect (RFC 7208
// §4.6.4): more than 10 is spf_too_many_lookups. The records of each level
// are read side by side; counting stops at the eleventh term, so at most
// ten records are read. No record, or several, leaves nothing to evaluate
// (the spf check reports it). A record that cannot be read leaves the
// count unknown unless it was already over the limit.
func (r *scanRun) spfLookups(ctx context.Context, apexTXT []string) {
	d := r.t.Domain
	recs := spfRecords(apexTXT)
	if len(recs) != 1 {
		return
	}
	type node struct{ name, rec string }
	level := []node{{d, recs[0]}}
	var counted, failed []string
	over := false
	for len(level) > 0 && !over {
		var next []string
	count:
		for _, n := range level {
			terms, targets := spfLookupTerms(n.rec)
			for _, t := range terms {
				counted = append(counted, t+" (in "+n.name+")")
				if len(counted) > spfMaxLookups {
					over = true
					break count
				}
			}
			next = append(next, targets...)
		}
		if over {
			break
		}
		answers := make([]answer, len(next))
		errs := make([]error, len(next))
		var wg sync.WaitGroup
		for i, name := range next {
			wg.Go(func() { answers[i], errs[i] = r.s.dns.query(ctx, name, dns.TypeTXT) })
		}
		wg.Wait()
		level = nil
		for i, name := range next {
			if errs[i] != nil {
				failed = append(failed, errs[i].Error())
				continue
			}
			if rs := spfRecords(answers[i].txt()); len(rs) == 1 {
				level = append(level, node{name, rs[0]})
			}
		}
	}
	src := dnsSource(d, "TXT")
	switch {
	case over:
		r.record("spf_too_many_lookups", fmt.Sprintf("%s: evaluating %q takes more than %d DNS-querying terms (RFC 7208 §4.6.4: permerror): %s",
			d, recs[0], spfMaxLookups, strings.Join(counted, ", ")), src)
	case len(failed) > 0:
		r.notChecked("spf_lookups", fmt.Sprintf("%d DNS-querying terms counted, but an included record could not be read: %s",
			len(counted), strings.Join(failed, "; ")), src)
	}
}

// dkim looks for DKIM key records (RFC 6376 §3.6.1) at the common
// selectors, side by side: a revoked key (empty p=) is dkim_revoked, an RSA
// key under 1024 bits dkim_weak_key (RFC 8301 §3.2), and no key record at
// any of them dkim_missing. When a selector cannot be asked the check is
// not checked: the key may be there.
func (r *scanRun) dkim(ctx context.Context) {
	d := r.t.Domain
	answers := make([]answer, len(dkimCommonSelectors))
	errs := make([]error, len(dkimCommonSelectors))
	var wg sync.WaitGroup
	for i, sel := range dkimCommonSelectors {
		wg.Go(func() { answers[i], errs[i] = r.s.dns.query(ctx, sel+"._domainkey."+d, dns.TypeTXT) })
	}
	wg.Wait()
	first := dnsSource(dkimCommonSelectors[0]+"._domainkey."+d, "TXT")
	var failed []string
	for _, err := range errs {
		if err != nil {
			failed = append(failed, err.Error())
		}
	}
	if len(failed) > 0 {
		r.notChecked("dkim", strings.Join(failed, "; "), first)
		return
	}
	keys := 0
	var revoked, weak []string
	revokedSrc, weakSrc := "", ""
	for i, sel := range dkimCommonSelectors {
		name := sel + "._domainkey." + d
		for _, rec := range answers[i].txt() {
			k, ok := parseDKIM(rec)
			if !ok {
				continue
			}
			keys++
			switch {
			case k.revoked:
				revoked = append(revoked, fmt.Sprintf("%s: %q", name, rec))
				revokedSrc = cmp.Or(revokedSrc, dnsSource(name, "TXT"))
			case k.keyType == "rsa" && k.rsaBits > 0 && k.rsaBits < dkimMinBits:
				weak = append(weak, fmt.Sprintf("%s: RSA %d bits", name, k.rsaBits))
				weakSrc = cmp.Or(weakSrc, dnsSource(name, "TXT"))
			}
		}
	}
	if len(revoked) > 0 {
		r.record("dkim_revoked", strings.Join(revoked, "; ")+": the key is revoked (empty p=, RFC 6376 §3.6.1)", revokedSrc)
	}
	if len(weak) > 0 {
		r.record("dkim_weak_key", strings.Join(weak, "; ")+fmt.Sprintf(", under the %d bits verifiers require (RFC 8301 §3.2)", dkimMinBits), weakSrc)
	}
	if keys == 0 {
		r.record("dkim_missing", fmt.Sprintf("no DKIM key record at the selectors tried (%s) under _domainkey.%s; "+
			"mail may be signed with another selector, which cannot be seen from outside", strings.Join(dkimCommonSelectors, ", "), d), first)
	}
}

// dnssec decides whether the domain is signed (RFC 4033-4035): it is when
// the resolver set AD on an answer about it (RFC 6840 §5.7), or when a
// DNSKEY at its apex or a DS at its parent exists (asked with the DO
// flag, so a resolver that does not validate still shows the records).
func (r *scanRun) dnssec(ctx context.Context, apex answer, apexErr error) {
	d := r.t.Domain
	if apexErr == nil && apex.ad {
		r.sig.DNSSEC = flag(true)
		return
	}
	var key, ds answer
	var keyErr, dsErr error
	var wg sync.WaitGroup
	wg.Go(func() { key, keyErr = r.s.dns.queryDNSSEC(ctx, d, dns.TypeDNSKEY) })
	wg.Go(func() { ds, dsErr = r.s.dns.queryDNSSEC(ctx, d, dns.TypeDS) })
	wg.Wait()
	src := dnsSource(d, "DNSKEY")
	switch {
	case keyErr == nil && (len(key.rrs) > 0 || key.ad), dsErr == nil && (len(ds.rrs) > 0 || ds.ad):
		r.sig.DNSSEC = flag(true)
	case keyErr != nil || dsErr != nil:
		var errs []error
		for _, err := range []error{keyErr, dsErr} {
			if err != nil {
				errs = append(errs, err)
			}
		}
		r.notChecked("dnssec", joinErrors(errs).Error(), src)
	default:
		r.record("dnssec_missing", fmt.Sprintf("%s: no DNSKEY record at its apex and no DS record at its parent, and the resolver set "+
			"the AD bit on none of its answers (RFC 4035; RFC 6840 §5.7)", d), src)
		r.sig.DNSSEC = flag(false)
	}
}
